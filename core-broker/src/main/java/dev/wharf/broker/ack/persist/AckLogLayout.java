package dev.wharf.broker.ack.persist;

/**
 * Byte layout of one ack-log record (the body of a message in the ack-log topic). Big-endian.
 *
 * <pre>
 *  0        1        2                 6                        14                18
 * +--------+--------+-----------------+------------------------+-----------------+----------+-----------+
 * |VERSION | KIND   |  QUEUEID (4)    |     ARGUMENT (8)       |   COUNT (4)     | GLEN (1) | GROUP ... |
 * +--------+--------+-----------------+------------------------+-----------------+----------+-----------+
 * | TLEN (1) | TOPIC ... | COUNT entries: OFFSET (8), then VALUE (4) when the kind carries values     |
 * +----------+-----------+-------------------------------------------------------------------------------+
 * </pre>
 *
 * A record of 32 acknowledged offsets with short names is about 290 bytes; a pop of 32 about 420.
 */
public final class AckLogLayout {

    /** Format version; a reader skips records of another version (and says so). */
    public static final byte VERSION = 1;

    public static final int VERSION_OFFSET = 0;
    public static final int KIND_OFFSET = 1;
    public static final int QUEUE_ID_OFFSET = 2;
    public static final int ARGUMENT_OFFSET = 6;
    public static final int COUNT_OFFSET = 14;
    public static final int GROUP_LENGTH_OFFSET = 18;
    public static final int GROUP_OFFSET = 19;

    /** Bytes of one entry without a value. */
    public static final int OFFSET_ENTRY_SIZE = 8;
    /** Bytes of one entry with a value. */
    public static final int VALUE_ENTRY_SIZE = 12;

    private AckLogLayout() {
    }

    /** Where TLEN is for a group name of {@code groupLength} bytes. */
    public static int topicLengthOffset(int groupLength) {
        return GROUP_OFFSET + groupLength;
    }

    /** Where the entries start. */
    public static int entriesOffset(int groupLength, int topicLength) {
        return topicLengthOffset(groupLength) + 1 + topicLength;
    }

    /** The whole record's size. */
    public static int size(int groupLength, int topicLength, int count, boolean withValues) {
        return entriesOffset(groupLength, topicLength) + count * (withValues ? VALUE_ENTRY_SIZE : OFFSET_ENTRY_SIZE);
    }
}

package dev.wharf.store.commitlog;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageRecord;
import java.nio.ByteBuffer;

/**
 * Decides whether the bytes at a position are a complete, intact commit-log record. Used by recovery (with
 * CRC) and by the dispatcher and readers (structure only). Stateless.
 */
public final class RecordValidator {

    /** A blank record fills the rest of the file: continue in the next file. */
    public static final int BLANK = -1;
    /** Zeros: nothing was ever written here; the log ends. */
    public static final int NO_RECORD = -2;
    /** Something is written but it is not an intact record (torn write, corruption, stale bytes). */
    public static final int INVALID = -3;

    private RecordValidator() {
    }

    /**
     * Checks the record at {@code pos} of {@code buffer}, where {@code limit} is the end of the readable
     * bytes of the file and {@code physicalOffset} the global offset the record must have been written at.
     *
     * @return the record's total size (&gt; 0) for an intact message record, else {@link #BLANK},
     *         {@link #NO_RECORD} or {@link #INVALID}
     */
    public static int check(ByteBuffer buffer, int pos, int limit, long physicalOffset, boolean checkCrc) {
        int room = limit - pos;
        if (room < MessageRecord.BLANK_RECORD_MIN_SIZE) {
            return room <= 0 || isZero(buffer, pos, room) ? NO_RECORD : INVALID;
        }
        int totalSize = buffer.getInt(pos + MessageRecord.TOTAL_SIZE_OFFSET);
        int magic = buffer.getInt(pos + MessageRecord.MAGIC_CODE_OFFSET);
        if (totalSize == 0 && magic == 0) {
            return NO_RECORD;
        }
        if (magic == MessageRecord.BLANK_MAGIC_CODE) {
            return totalSize == room ? BLANK : INVALID;
        }
        if (magic != MessageRecord.MESSAGE_MAGIC_CODE || totalSize < MessageRecord.totalSize(0, 0, 0)
                || totalSize > room) {
            return INVALID;
        }
        if (buffer.getLong(pos + MessageRecord.PHYSICAL_OFFSET_OFFSET) != physicalOffset) {
            return INVALID;
        }
        int bodyLength = buffer.getInt(pos + MessageRecord.BODY_LENGTH_OFFSET);
        if (bodyLength < 0 || MessageRecord.totalSize(bodyLength, 0, 0) > totalSize) {
            return INVALID;
        }
        int topicLength = buffer.get(pos + MessageRecord.topicLengthOffset(bodyLength)) & 0xFF;
        int propertiesLengthAt = MessageRecord.propertiesLengthOffset(bodyLength, topicLength);
        if (topicLength == 0 || propertiesLengthAt + 2 > totalSize) {
            return INVALID;
        }
        int propertiesLength = buffer.getShort(pos + propertiesLengthAt) & 0xFFFF;
        if (propertiesLengthAt + 2 + propertiesLength != totalSize) {
            return INVALID;
        }
        if (checkCrc) {
            int crc = MessageDecoder.crc32(buffer, pos + MessageRecord.BODY_OFFSET, bodyLength);
            if (crc != buffer.getInt(pos + MessageRecord.BODY_CRC_OFFSET)) {
                return INVALID;
            }
        }
        return totalSize;
    }

    private static boolean isZero(ByteBuffer buffer, int pos, int length) {
        for (int i = 0; i < length; i++) {
            if (buffer.get(pos + i) != 0) {
                return false;
            }
        }
        return true;
    }
}

package dev.wharf.store.queue;

import java.nio.ByteBuffer;

/**
 * Layout of one consume-queue unit: where a message of the queue lies in the commit log and its tag hash.
 * Fixed size, big-endian, so the unit of message N of a queue starts at byte {@code N * SIZE} of the queue's
 * continuous file space.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                  commit-log offset (8 bytes)                  |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   message size (4 bytes)                      |
 *  +---------------------------------------------------------------+
 *  |      tag hash code (8 bytes; delivery time for schedule)      |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Three kinds of unit exist on disk:
 * <ul>
 * <li>a <b>message</b> unit: size &gt; 0, offset &ge; 0;</li>
 * <li>a <b>blank</b> unit: size {@link #BLANK_SIZE}; it fills unit numbers that have no message (a queue that
 *     starts late, or a gap the dispatcher jumped over). Its offset field holds the commit-log offset of the
 *     message unit written right after the fill, so offsets stay non-decreasing along the queue (searches by
 *     offset or time stay valid) and readers skip it;</li>
 * <li>a <b>zero</b> unit (all bytes 0): never written; the first one ends the valid part of a queue.</li>
 * </ul>
 */
public final class ConsumeQueueUnit {

    /** Bytes per unit. */
    public static final int SIZE = 20;
    /** Commit-log offset of the message (long). */
    public static final int PHY_OFFSET_OFFSET = 0;
    /** TOTALSIZE of the message record (int). */
    public static final int MSG_SIZE_OFFSET = 8;
    /** Tag hash, or the due time of a scheduled message (long). */
    public static final int TAGS_CODE_OFFSET = 12;

    /** Size field of a blank unit; no message record has a negative size. */
    public static final int BLANK_SIZE = -1;

    /** Default units per file (RocketMQ's 300,000). */
    public static final int DEFAULT_UNITS_PER_FILE = 300_000;
    /** Default file size in bytes: {@value}. */
    public static final int DEFAULT_FILE_SIZE = DEFAULT_UNITS_PER_FILE * SIZE;

    private ConsumeQueueUnit() {
    }

    /** Byte position of unit {@code unitIndex} in the queue's continuous file space. */
    public static long byteOffset(long unitIndex) {
        return unitIndex * SIZE;
    }

    /** Unit number at byte position {@code byteOffset} (a multiple of {@link #SIZE}). */
    public static long unitIndex(long byteOffset) {
        return byteOffset / SIZE;
    }

    public static long phyOffset(ByteBuffer buffer, int unitStart) {
        return buffer.getLong(unitStart + PHY_OFFSET_OFFSET);
    }

    public static int msgSize(ByteBuffer buffer, int unitStart) {
        return buffer.getInt(unitStart + MSG_SIZE_OFFSET);
    }

    public static long tagsCode(ByteBuffer buffer, int unitStart) {
        return buffer.getLong(unitStart + TAGS_CODE_OFFSET);
    }

    /** Whether a unit with this size field is a blank fill, to be skipped by readers. */
    public static boolean isBlank(int msgSize) {
        return msgSize == BLANK_SIZE;
    }

    /** Whether a unit with these fields points at a message. */
    public static boolean isMessage(long phyOffset, int msgSize) {
        return msgSize > 0 && phyOffset >= 0;
    }

    /** Writes a unit at the buffer's position and advances it by {@link #SIZE}. */
    static void write(ByteBuffer target, long phyOffset, int msgSize, long tagsCode) {
        target.putLong(phyOffset).putInt(msgSize).putLong(tagsCode);
    }
}

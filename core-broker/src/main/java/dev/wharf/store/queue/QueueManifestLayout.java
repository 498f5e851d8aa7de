package dev.wharf.store.queue;

/**
 * Layout of the {@code queues.manifest} file: every consume queue the store knows with its ends, and how far
 * dispatching and the index had got when it was written. Written whole to a temporary file, forced, then
 * renamed over the old one, so a crash leaves either the old or the new manifest. Big-endian.
 *
 * <pre>
 *  header (40 bytes)
 * +--------+--------------------------+------------------------------------------------------------+
 * | offset | field                    | meaning                                                    |
 * +--------+--------------------------+------------------------------------------------------------+
 * |   0    | MAGIC (4)                | 0x57514D31 ("WQM1")                                        |
 * |   4    | VERSION (4)              | 1                                                          |
 * |   8    | DISPATCHED_OFFSET (8)    | commit-log offset below which every record was in the      |
 * |        |                          | queues when the ends below were taken                      |
 * |  16    | INDEXED_OFFSET (8)       | commit-log offset of the last message in the index files,  |
 * |        |                          | -1 when none                                               |
 * |  24    | FILE_SIZE (4)            | mappedFileSizeConsumeQueue the files were written with     |
 * |  28    | ENTRY_COUNT (4)          | number of entries that follow                              |
 * |  32    | CLEAN (4)                | 1 when written at a clean stop (ends exact), else 0        |
 * |  36    | reserved (4)             | 0                                                          |
 * +--------+--------------------------+------------------------------------------------------------+
 *  entry (34 bytes + topic), ENTRY_COUNT times
 * +--------+--------------------------+------------------------------------------------------------+
 * |   0    | TOPIC_LENGTH (2)         | bytes of the topic name                                    |
 * |   2    | TOPIC (n)                | UTF-8                                                      |
 * |  2+n   | QUEUE_ID (4)             |                                                            |
 * |  6+n   | MIN_OFFSET (8)           | first readable unit                                        |
 * | 14+n   | FIRST_FILE (8)           | start byte of the first file, -1 when the queue has none   |
 * | 22+n   | END (8)                  | byte end of the written units                              |
 * | 30+n   | LAST_PHY_END (8)         | commit-log offset just past the last message, 0 when none  |
 * +--------+--------------------------+------------------------------------------------------------+
 *  trailer: CRC (4), CRC32 of every byte before it
 * </pre>
 */
public final class QueueManifestLayout {

    public static final int MAGIC = 0x57514D31;
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int DISPATCHED_OFFSET_OFFSET = 8;
    public static final int INDEXED_OFFSET_OFFSET = 16;
    public static final int FILE_SIZE_OFFSET = 24;
    public static final int ENTRY_COUNT_OFFSET = 28;
    public static final int CLEAN_OFFSET = 32;
    public static final int HEADER_SIZE = 40;

    /** Fixed bytes of an entry besides the topic name. */
    public static final int ENTRY_FIXED_SIZE = 2 + 4 + 8 + 8 + 8 + 8;
    public static final int CRC_SIZE = 4;

    private QueueManifestLayout() {
    }
}

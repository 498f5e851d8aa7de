package dev.wharf.store.recovery;

/**
 * Layout of the {@code checkpoint} file: two 64-byte slots written alternately, so a write torn by a crash
 * leaves the other slot intact. The valid slot (magic and CRC match) with the higher sequence wins.
 * Big-endian.
 *
 * <pre>
 *  slot (64 bytes), at 0 and at 64
 * +--------+--------------------------------+-------------------------------------------------+
 * | offset | field                          | meaning                                         |
 * +--------+--------------------------------+-------------------------------------------------+
 * |   0    | MAGIC (4)                      | 0x57435031 ("WCP1")                             |
 * |   4    | VERSION (4)                    | 1                                               |
 * |   8    | SEQUENCE (8)                   | +1 per write                                    |
 * |  16    | PHYSIC_MSG_TIMESTAMP (8)       | store time of the last commit-log flush         |
 * |  24    | LOGICS_MSG_TIMESTAMP (8)       | time of the last consume-queue flush            |
 * |  32    | INDEX_MSG_TIMESTAMP (8)        | time of the last index flush                    |
 * |  40    | SAFE_OFFSET (8)                | commit log, consume queues and index are all on |
 * |        |                                | disk below this record boundary                 |
 * |  48    | CLEAN_SHUTDOWN_OFFSET (8)      | end of the commit log at a clean shutdown;      |
 * |        |                                | -1 while the store runs                         |
 * |  56    | CRC (4)                        | CRC32 of bytes 0..55                            |
 * |  60    | reserved (4)                   | 0                                               |
 * +--------+--------------------------------+-------------------------------------------------+
 * </pre>
 */
public final class CheckpointLayout {

    public static final int MAGIC = 0x57435031;
    public static final int VERSION = 1;

    public static final int SLOT_SIZE = 64;
    public static final int SLOT_COUNT = 2;
    public static final int FILE_SIZE = SLOT_SIZE * SLOT_COUNT;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int SEQUENCE_OFFSET = 8;
    public static final int PHYSIC_MSG_TIMESTAMP_OFFSET = 16;
    public static final int LOGICS_MSG_TIMESTAMP_OFFSET = 24;
    public static final int INDEX_MSG_TIMESTAMP_OFFSET = 32;
    public static final int SAFE_OFFSET_OFFSET = 40;
    public static final int CLEAN_SHUTDOWN_OFFSET_OFFSET = 48;
    public static final int CRC_OFFSET = 56;
    /** Bytes covered by the CRC. */
    public static final int CRC_COVERED = CRC_OFFSET;

    /** CLEAN_SHUTDOWN_OFFSET while the store is running. */
    public static final long RUNNING = -1L;

    private CheckpointLayout() {
    }

    /** File position of slot {@code index}. */
    public static int slotPosition(int index) {
        return index * SLOT_SIZE;
    }
}

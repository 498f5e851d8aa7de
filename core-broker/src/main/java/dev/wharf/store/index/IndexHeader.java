package dev.wharf.store.index;

/**
 * Layout of the 40-byte header at the start of every index file. Big-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |   beginTimestamp (8): store time of the first entry, millis   |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |   endTimestamp (8): latest store time of any entry, millis    |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |   beginPhyOffset (8): commit-log offset of the first entry    |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |   endPhyOffset (8): commit-log offset of the last entry       |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |   hashSlotCount (4): number of slots in this file             |
 *  +---------------------------------------------------------------+
 *  |   indexCount (4): number of units written (the last unit no.) |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>{@code hashSlotCount} is the file's own slot count, written when the file is created, so a file stays
 * readable after the configured slot count changes: the unit count follows from the file size.
 */
final class IndexHeader {

    static final int SIZE = 40;
    static final int BEGIN_TIMESTAMP = 0;
    static final int END_TIMESTAMP = 8;
    static final int BEGIN_PHY_OFFSET = 16;
    static final int END_PHY_OFFSET = 24;
    static final int HASH_SLOT_COUNT = 32;
    static final int INDEX_COUNT = 36;

    private IndexHeader() {
    }

    /** Bytes of a file with {@code slots} slots and room for unit positions 0 to {@code units} - 1. */
    static long fileSize(int slots, int units) {
        return SIZE + (long) slots * IndexSlot.SIZE + (long) units * IndexUnit.SIZE;
    }
}

package dev.wharf.store.index;

/**
 * Layout of one index unit, after the slots. Unit number {@code n} (1-based; 0 is {@link IndexSlot#EMPTY})
 * sits at {@code 40 + hashSlotCount * 4 + n * 20}, so position 0 of the unit area stays unused and a file of
 * {@code maxIndexNum} unit positions holds {@code maxIndexNum - 1} entries. Big-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                  keyHash (4): |hashCode("topic#key")|         |
 *  +---------------------------------------------------------------+
 *  |                  phyOffset (8): commit-log offset             |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |        timeDiff (4): seconds after the file's beginTimestamp  |
 *  +---------------------------------------------------------------+
 *  |   prevIndex (4): the previous unit of the same slot, 0 = end  |
 *  +---------------------------------------------------------------+
 * </pre>
 */
final class IndexUnit {

    static final int SIZE = 20;
    static final int KEY_HASH = 0;
    static final int PHY_OFFSET = 4;
    static final int TIME_DIFF = 12;
    static final int PREV_INDEX = 16;

    private IndexUnit() {
    }

    /** Byte position of unit {@code unitNo} in a file with {@code slotCount} slots. */
    static int position(int slotCount, int unitNo) {
        return IndexHeader.SIZE + slotCount * IndexSlot.SIZE + unitNo * SIZE;
    }
}

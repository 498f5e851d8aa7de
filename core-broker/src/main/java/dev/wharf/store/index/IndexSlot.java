package dev.wharf.store.index;

/**
 * Layout of the hash slots that follow the header: {@code hashSlotCount} ints, one per slot, each holding the
 * number of the newest unit whose key hashes to the slot, or {@link #EMPTY}.
 *
 * <pre>
 *  byte 40           44           48                    40 + 4 * hashSlotCount
 *  +------------+------------+-----     -----+------------+
 *  | slot 0     | slot 1     |      ...      | slot n - 1 |
 *  | newest no. | newest no. |               | newest no. |
 *  +------------+------------+-----     -----+------------+
 * </pre>
 */
final class IndexSlot {

    static final int SIZE = 4;
    /** A slot no key has hashed to yet; unit numbers therefore start at 1. */
    static final int EMPTY = 0;

    private IndexSlot() {
    }

    /** The slot of a non-negative key hash. */
    static int slotOf(int keyHash, int slotCount) {
        return keyHash % slotCount;
    }

    /** Byte position of a slot. */
    static int position(int slot) {
        return IndexHeader.SIZE + slot * SIZE;
    }
}

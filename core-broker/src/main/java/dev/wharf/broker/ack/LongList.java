package dev.wharf.broker.ack;

import java.util.Arrays;

/** A growable list of primitive longs (offsets), so collecting them boxes nothing. Not thread-safe. */
final class LongList {

    private long[] values;
    private int size;

    LongList() {
        this(8);
    }

    LongList(int capacity) {
        values = new long[Math.max(1, capacity)];
    }

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    long get(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException(index + " of " + size);
        }
        return values[index];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}

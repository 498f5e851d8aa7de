package dev.wharf.broker.ack.state;

import java.util.Arrays;

/** A growable list of primitive longs (offsets), so collecting them boxes nothing. Not thread-safe. */
public final class LongList {

    private long[] values;
    private int size;

    public LongList() {
        this(8);
    }

    public LongList(int capacity) {
        values = new long[Math.max(1, capacity)];
    }

    public void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    public long get(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException(index + " of " + size);
        }
        return values[index];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}

package dev.wharf.broker.schedule;

import java.util.Arrays;

/**
 * A min-heap of (due time, queue offset) pairs in two parallel {@code long} arrays: 16 bytes per entry and no
 * object per entry. Ordered by due time, then offset. The timer's overflow for entries beyond the wheel.
 * Not thread-safe.
 */
final class LongPairHeap {

    private long[] due = new long[64];
    private long[] offset = new long[64];
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Bytes held by the arrays. */
    long capacityBytes() {
        return 16L * due.length;
    }

    void push(long dueMillis, long queueOffset) {
        if (size == due.length) {
            int capacity = due.length + (due.length >> 1);
            due = Arrays.copyOf(due, capacity);
            offset = Arrays.copyOf(offset, capacity);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(dueMillis, queueOffset, due[parent], offset[parent])) {
                break;
            }
            due[i] = due[parent];
            offset[i] = offset[parent];
            i = parent;
        }
        due[i] = dueMillis;
        offset[i] = queueOffset;
    }

    /** Due time of the earliest entry; only when not empty. */
    long peekDue() {
        return due[0];
    }

    /** Queue offset of the earliest entry; only when not empty. */
    long peekOffset() {
        return offset[0];
    }

    /** Removes the earliest entry; only when not empty. */
    void pop() {
        int last = --size;
        long d = due[last];
        long o = offset[last];
        int i = 0;
        int half = last >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < last && less(due[right], offset[right], due[child], offset[child])) {
                child = right;
            }
            if (!less(due[child], offset[child], d, o)) {
                break;
            }
            due[i] = due[child];
            offset[i] = offset[child];
            i = child;
        }
        if (last > 0) {
            due[i] = d;
            offset[i] = o;
        }
        if (size == 0 && due.length > 1024) {
            due = new long[64];
            offset = new long[64];
        }
    }

    private static boolean less(long d1, long o1, long d2, long o2) {
        return d1 < d2 || (d1 == d2 && o1 < o2);
    }
}

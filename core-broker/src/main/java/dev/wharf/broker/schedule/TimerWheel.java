package dev.wharf.broker.schedule;

import java.util.Arrays;

/**
 * The timer's in-memory index of pending messages: (due time, queue offset) pairs, handed out in due-time
 * order once due. Near entries sit in a wheel of one-second slots covering the next {@code slotCount} seconds
 * (O(1) insert); later ones wait in a {@link LongPairHeap} and move into the wheel as it turns.
 *
 * <p>Memory, with no object per entry: a wheel entry is one {@code long} (the due time's millisecond within
 * its second in the top 10 bits, the queue offset in the low 53), a heap entry two; arrays grow by half, so
 * 8 to 24 bytes per pending message: 10 million pending take about 80 to 240 MB.
 *
 * <p>Entries already due when added go into the slot being drained and come out first. Not thread-safe:
 * owned by the schedule thread.
 */
final class TimerWheel {

    /** The default span of the wheel: one hour of one-second slots. */
    static final int DEFAULT_SLOTS = 3_600;
    /** Largest queue offset a wheel entry can hold. */
    static final long MAX_OFFSET = (1L << 53) - 1;
    private static final int REL_SHIFT = 53;
    private static final long SLOT_MILLIS = 1_000;

    /** Takes due entries; returns false to leave an entry (and every later one) in the wheel for now. */
    @FunctionalInterface
    interface DueSink {
        boolean take(long dueMillis, long queueOffset);
    }

    private final Slot[] slots;
    private final LongPairHeap overflow = new LongPairHeap();
    /** The slot being drained; every wheel entry's second is in [wheelSecond, wheelSecond + slots.length). */
    private long wheelSecond;
    private int wheelCount;

    TimerWheel(long nowMillis, int slotCount) {
        if (slotCount < 2) {
            throw new IllegalArgumentException("a timer wheel needs at least 2 slots, got " + slotCount);
        }
        this.slots = new Slot[slotCount];
        this.wheelSecond = Math.floorDiv(nowMillis, SLOT_MILLIS);
    }

    /** Pending entries. */
    int size() {
        return wheelCount + overflow.size();
    }

    /** Entries beyond the wheel's span. */
    int overflowSize() {
        return overflow.size();
    }

    /** Bytes held by the index's arrays (what the memory estimate in the class comment is about). */
    long memoryBytes() {
        long bytes = overflow.capacityBytes();
        for (Slot slot : slots) {
            if (slot != null) {
                bytes += 8L * slot.data.length;
            }
        }
        return bytes;
    }

    void add(long dueMillis, long queueOffset) {
        if (queueOffset < 0 || queueOffset > MAX_OFFSET) {
            throw new IllegalArgumentException("queue offset " + queueOffset + " is out of the timer's range");
        }
        long second = Math.floorDiv(dueMillis, SLOT_MILLIS);
        if (second >= wheelSecond + slots.length) {
            overflow.push(dueMillis, queueOffset);
            return;
        }
        if (second < wheelSecond) {
            second = wheelSecond; // overdue: the slot being drained, at its start
        }
        long rel = Math.max(0, dueMillis - second * SLOT_MILLIS);
        int index = index(second);
        Slot slot = slots[index];
        if (slot == null) {
            slot = new Slot();
            slots[index] = slot;
        }
        slot.append((rel << REL_SHIFT) | queueOffset);
        wheelCount++;
    }

    /**
     * Hands entries due at or before {@code now} to {@code sink}, earliest first, at most {@code max}.
     *
     * @return how many the sink took
     */
    int pollDue(long now, int max, DueSink sink) {
        long nowSecond = Math.floorDiv(now, SLOT_MILLIS);
        int taken = 0;
        while (taken < max && wheelSecond <= nowSecond) {
            Slot slot = slots[index(wheelSecond)];
            if (slot != null && slot.head < slot.size) {
                slot.sortIfNeeded();
                long base = wheelSecond * SLOT_MILLIS;
                while (slot.head < slot.size && taken < max) {
                    long entry = slot.data[slot.head];
                    long due = base + (entry >>> REL_SHIFT);
                    if (due > now || !sink.take(due, entry & MAX_OFFSET)) {
                        return taken;
                    }
                    slot.head++;
                    wheelCount--;
                    taken++;
                }
                if (slot.head < slot.size) {
                    return taken;
                }
                slot.reset();
            }
            if (wheelSecond == nowSecond) {
                break; // stay on the current second: more entries for it may come
            }
            advance();
        }
        return taken;
    }

    /** The earliest due time if it is at most {@code limit}, else {@code limit}. */
    long nextDue(long limit) {
        long result = limit;
        if (!overflow.isEmpty()) {
            result = Math.min(result, overflow.peekDue());
        }
        if (wheelCount > 0) {
            for (long s = wheelSecond; s < wheelSecond + slots.length && s * SLOT_MILLIS <= result; s++) {
                Slot slot = slots[index(s)];
                if (slot != null && slot.head < slot.size) {
                    return Math.min(result, s * SLOT_MILLIS + slot.minRel());
                }
            }
        }
        return result;
    }

    /** Moves to the next second and takes in the overflow entries that now fall inside the wheel. */
    private void advance() {
        wheelSecond++;
        long end = wheelSecond + slots.length;
        while (!overflow.isEmpty() && Math.floorDiv(overflow.peekDue(), SLOT_MILLIS) < end) {
            long due = overflow.peekDue();
            long offset = overflow.peekOffset();
            overflow.pop();
            add(due, offset);
        }
    }

    private int index(long second) {
        return (int) Math.floorMod(second, (long) slots.length);
    }

    /** One second's entries; [head, size) are pending. */
    private static final class Slot {
        private static final int KEEP_CAPACITY = 4_096;

        long[] data = new long[16];
        int head;
        int size;
        boolean sorted = true;

        void append(long entry) {
            if (size == data.length) {
                if (head > 0) {
                    System.arraycopy(data, head, data, 0, size - head);
                    size -= head;
                    head = 0;
                }
                if (size == data.length) {
                    data = Arrays.copyOf(data, data.length + (data.length >> 1));
                }
            }
            if (size > head && data[size - 1] > entry) {
                sorted = false;
            }
            data[size++] = entry;
        }

        void sortIfNeeded() {
            if (!sorted) {
                Arrays.sort(data, head, size);
                sorted = true;
            }
        }

        long minRel() {
            if (sorted) {
                return data[head] >>> REL_SHIFT;
            }
            long min = Long.MAX_VALUE;
            for (int i = head; i < size; i++) {
                min = Math.min(min, data[i]);
            }
            return min >>> REL_SHIFT;
        }

        void reset() {
            head = 0;
            size = 0;
            sorted = true;
            if (data.length > KEEP_CAPACITY) {
                data = new long[16];
            }
        }
    }
}

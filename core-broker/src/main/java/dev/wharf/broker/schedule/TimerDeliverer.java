package dev.wharf.broker.schedule;

import dev.wharf.common.SystemTopics;
import dev.wharf.store.MessageStore;
import dev.wharf.store.QueueUnitVisitor;

/**
 * Delivers the timer queue (arbitrary delivery times) in due-time order. It reads the queue's units as they
 * arrive (the due time is in the tag slot, so the commit log is not touched) into a {@link TimerWheel}, hands
 * out due entries to the {@link ScheduledPutter} and records each settled offset in a {@link SettledBitmap}.
 *
 * <p>Progress: the low-water mark (every offset below it is settled) plus the bitmap above it. A restart
 * re-reads the queue's units from the low-water mark and skips set bits.
 *
 * <p>Long waits: a message that would wait longer than {@code rollAfterMillis} is not kept pointing at its
 * old record, which commit-log clean-up (fileReservedTime) may delete first; when that time has passed, the
 * entry fires as a roll and the message is copied to the end of the queue, with the same due time. The roll
 * mark travels in the entry's queue-offset field ({@link #ROLL}).
 *
 * <p>Not thread-safe: owned by the schedule thread; the counters may be read from any thread.
 */
final class TimerDeliverer implements QueueUnitVisitor {

    /** Marks an index entry whose firing means "copy to the end of the queue", not "deliver". */
    static final long ROLL = 1L << 52;

    private final int queueId;
    private final MessageStore store;
    private final ScheduledPutter putter;
    private final SettledBitmap settled;
    private final TimerWheel wheel;
    private final long rollAfterMillis;
    private volatile long lowWater;
    private volatile long ingestOffset;
    private volatile int pending;

    // state of the ingest in progress (the visitor callback's view)
    private long ingestNow;
    private long expected;
    private boolean rebuilding;
    private boolean blocked;

    TimerDeliverer(int queueId, MessageStore store, ScheduledPutter putter, SettledBitmap settled, TimerWheel wheel,
                   long rollAfterMillis, long lowWater) {
        this.queueId = queueId;
        this.store = store;
        this.putter = putter;
        this.settled = settled;
        this.wheel = wheel;
        this.rollAfterMillis = rollAfterMillis;
        this.lowWater = lowWater;
        this.ingestOffset = lowWater;
    }

    /**
     * Re-reads the queue from the low-water mark to its end (start-up), skipping settled offsets. Entries
     * that will roll get their roll time from their record's store time, so restarts never postpone a roll.
     */
    void rebuild(long now) {
        long min = store.getMinOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, queueId);
        if (lowWater < min) {
            lowWater = min;
        }
        ingestOffset = lowWater;
        rebuilding = true;
        try {
            while (ingest(now, 65_536) > 0) {
                // until the end
            }
        } finally {
            rebuilding = false;
        }
    }

    /**
     * Takes the units that arrived since the last call into the index, at most {@code max}.
     *
     * @return how many units were read
     */
    int ingest(long now, int max) {
        long min = store.getMinOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, queueId);
        long from = ingestOffset;
        if (from < min) {
            from = min; // those units are gone with the commit-log files they pointed at
        }
        if (from >= store.getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, queueId)) {
            ingestOffset = from;
            return 0;
        }
        ingestNow = now;
        expected = from;
        long next = store.visitQueueUnits(SystemTopics.SCHEDULE_TOPIC, queueId, from, max, this);
        if (next > expected) {
            settled.setRange(expected, next); // blank units at the end of what was read
        }
        ingestOffset = next;
        pending = wheel.size();
        return (int) (next - from);
    }

    @Override
    public boolean visit(long queueOffset, long commitLogOffset, int size, long due) {
        if (queueOffset > expected) {
            settled.setRange(expected, queueOffset); // blank units: nothing to deliver there
        }
        expected = queueOffset + 1;
        if (settled.isSet(queueOffset)) {
            return true;
        }
        if (due - ingestNow > rollAfterMillis) {
            long since = ingestNow;
            if (rebuilding) {
                long stored = store.getMessageStoreTimestamp(SystemTopics.SCHEDULE_TOPIC, queueId, queueOffset);
                since = stored > 0 ? Math.min(stored, ingestNow) : ingestNow;
            }
            wheel.add(since + rollAfterMillis, queueOffset | ROLL);
        } else {
            wheel.add(due, queueOffset);
        }
        return true;
    }

    /**
     * Delivers (or rolls) the entries due at {@code now}, at most {@code max}.
     *
     * @return how many were settled
     */
    int deliverDue(long now, int max) {
        blocked = false;
        int taken = wheel.pollDue(now, max, this::fire);
        pending = wheel.size();
        return taken;
    }

    private boolean fire(long due, long entry) {
        long queueOffset = entry & ~ROLL;
        long phy = store.getCommitLogOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, queueId, queueOffset);
        ScheduledPutter.Outcome outcome;
        if (phy < 0) {
            outcome = putter.gone(queueId, queueOffset);
        } else if ((entry & ROLL) != 0) {
            outcome = putter.roll(queueOffset, phy);
        } else {
            outcome = putter.deliver(queueId, queueOffset, phy);
        }
        if (outcome == ScheduledPutter.Outcome.RETRY_LATER) {
            blocked = true;
            return false;
        }
        settled.set(queueOffset);
        return true;
    }

    /** The earliest entry's due time if at most {@code limit}, else {@code limit}. */
    long nextDue(long limit) {
        return wheel.nextDue(limit);
    }

    /** Whether the last delivery round stopped because the store refused a put. */
    boolean wasBlocked() {
        return blocked;
    }

    /**
     * Moves the low-water mark past every settled offset (never past what was read).
     *
     * @return the new mark
     */
    long advanceLowWater() {
        long start = Math.max(lowWater, store.getMinOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, queueId));
        long mark = start >= ingestOffset ? start : settled.firstClear(start, ingestOffset);
        lowWater = mark;
        return mark;
    }

    long lowWater() {
        return lowWater;
    }

    long ingestOffset() {
        return ingestOffset;
    }

    /** Messages waiting in the index. */
    int pendingCount() {
        return pending;
    }

    int overflowCount() {
        return wheel.overflowSize();
    }

    long indexMemoryBytes() {
        return wheel.memoryBytes();
    }
}

package dev.wharf.broker.schedule;

import dev.wharf.common.SystemTopics;
import dev.wharf.store.MessageStore;
import dev.wharf.store.QueueUnitVisitor;

/**
 * Follows the queue of one delay level: every message in it waits equally long, so due times grow along the
 * queue and the level delivers a prefix: from its offset while the head is due, stopping at the first message
 * that is not. Its offset (the next message to deliver) is all the progress it has. Not thread-safe: owned by
 * the schedule thread; {@link #offset()} may be read from any thread.
 */
final class LevelDeliverer implements QueueUnitVisitor {

    private final int queueId;
    private final MessageStore store;
    private final ScheduledPutter putter;
    private volatile long offset;

    // state of the round in progress (the visitor callback's view)
    private long now;
    private int budget;
    private long nextDue;
    private boolean blocked;

    LevelDeliverer(int queueId, MessageStore store, ScheduledPutter putter, long offset) {
        this.queueId = queueId;
        this.store = store;
        this.putter = putter;
        this.offset = offset;
    }

    int queueId() {
        return queueId;
    }

    /** The next queue offset to deliver. */
    long offset() {
        return offset;
    }

    /** Moves the offset (start-up: persisted value, scan of the commit log, queue bounds). */
    void setOffset(long offset) {
        this.offset = offset;
    }

    /**
     * Delivers the due messages at the head, at most {@code max}.
     *
     * @return when this level next has something to do: the head's due time, {@code now} when the round stopped
     *         at the budget, or {@link Long#MAX_VALUE} when the queue is drained (or the store refused for now)
     */
    long deliverDue(long now, int max) {
        this.now = now;
        this.budget = max;
        this.nextDue = Long.MAX_VALUE;
        this.blocked = false;
        long at = offset;
        while (budget > 0 && nextDue == Long.MAX_VALUE && !blocked) {
            long end = store.getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, queueId);
            if (at >= end) {
                break;
            }
            long next = store.visitQueueUnits(SystemTopics.SCHEDULE_TOPIC, queueId, at, budget, this);
            if (next == at) {
                break; // nothing readable there now
            }
            at = next;
            offset = at;
        }
        if (budget == 0) {
            return now;
        }
        return nextDue;
    }

    @Override
    public boolean visit(long queueOffset, long commitLogOffset, int size, long tagsCode) {
        if (budget <= 0) {
            return false;
        }
        if (tagsCode > now) {
            nextDue = tagsCode;
            return false;
        }
        if (putter.deliver(queueId, queueOffset, commitLogOffset) == ScheduledPutter.Outcome.RETRY_LATER) {
            blocked = true;
            return false;
        }
        budget--;
        return true;
    }

    /** Whether the last round stopped because the store refused a put. */
    boolean wasBlocked() {
        return blocked;
    }
}

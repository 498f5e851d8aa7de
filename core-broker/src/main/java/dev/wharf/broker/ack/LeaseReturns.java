package dev.wharf.broker.ack;

import dev.wharf.broker.ack.state.AckStateTable;
import dev.wharf.broker.ack.state.Delivery;
import dev.wharf.broker.ack.state.LongList;
import dev.wharf.broker.ack.state.QueueAckState;
import dev.wharf.remoting.RemotingChannel;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Ends leases: when they expire (the periodic reap), when their owner's connection closes, and when a
 * consumer gives them back. A message whose counted deliveries now exceed the group's maxReconsumeTimes is
 * held for the dead-letter queue instead of becoming available; every other one becomes available at once
 * and the pops held on its queue are woken. Thread-safe (takes each queue's lock).
 */
final class LeaseReturns {

    /** What one locked section returned; acted upon after the lock is released. */
    static final class Batch {
        private final LongList wakeTags = new LongList(4);
        private final LongList deadLetters = new LongList(2);

        boolean isEmpty() {
            return wakeTags.isEmpty() && deadLetters.isEmpty();
        }
    }

    private final ToIntFunction<QueueAckState> maxReconsumeTimes;
    private final DeadLetterMover mover;
    private final QueueWaker waker;
    private final Runnable changed;

    LeaseReturns(ToIntFunction<QueueAckState> maxReconsumeTimes, DeadLetterMover mover, QueueWaker waker,
                 Runnable changed) {
        this.maxReconsumeTimes = maxReconsumeTimes;
        this.mover = mover;
        this.waker = waker;
        this.changed = changed;
    }

    int maxReconsumeTimes(QueueAckState state) {
        return maxReconsumeTimes.applyAsInt(state);
    }

    /** Ends one lease; call holding the state's lock, then {@link #finish} after releasing it. */
    void returnOrHold(QueueAckState state, Delivery d, int maxReconsume, Batch batch) {
        if (d.deliveries() > maxReconsume) {
            state.holdForDeadLetter(d.offset(), d.commitLogOffset(), d.tagsCode());
            batch.deadLetters.add(d.offset());
        } else {
            batch.wakeTags.add(d.tagsCode());
            state.returnLease(d);
        }
    }

    /** Wakes held pops and starts dead-lettering for what a locked section returned. */
    void finish(QueueAckState state, Batch batch, int maxReconsume) {
        if (batch.isEmpty()) {
            return;
        }
        changed.run();
        for (int i = 0; i < batch.wakeTags.size(); i++) {
            waker.wake(state.topic, state.queueId, batch.wakeTags.get(i));
        }
        mover.move(state, batch.deadLetters.toArray(), maxReconsume);
    }

    /** Ends every lease that expired by {@code now} (or whose owner is gone) in every queue that has one due. */
    void reap(AckStateTable table, long now, boolean checkOwners) {
        table.forEachQueue(state -> {
            if (state.nextExpiryHint() > now && !(checkOwners && state.leasedHint() > 0)) {
                return;
            }
            int max = maxReconsumeTimes(state);
            Batch batch = new Batch();
            state.lock.lock();
            try {
                if (state.isDeleted()) {
                    return;
                }
                for (Delivery d : state.dueLeases(now)) {
                    returnOrHold(state, d, max, batch);
                }
            } finally {
                state.lock.unlock();
            }
            finish(state, batch, max);
        });
    }

    /** Ends every lease held by a connection that closed: its messages may have been delivered, so they count. */
    void channelClosed(AckStateTable table, RemotingChannel channel) {
        table.forEachQueue(state -> {
            if (state.leasedHint() == 0) {
                return;
            }
            int max = maxReconsumeTimes(state);
            Batch batch = new Batch();
            state.lock.lock();
            try {
                if (state.isDeleted()) {
                    return;
                }
                List<Delivery> owned = state.leasesOf(channel);
                for (Delivery d : owned) {
                    returnOrHold(state, d, max, batch);
                }
            } finally {
                state.lock.unlock();
            }
            finish(state, batch, max);
        });
    }
}

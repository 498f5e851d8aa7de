package dev.wharf.broker.ack.state;

import dev.wharf.remoting.RemotingChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The acknowledgement state of one group on one queue: the done marks (floor + bits), the messages handed
 * out and not done (delivery counts and leases), the scan position per selector, and counters.
 *
 * <p>Every method requires {@link #lock} to be held by the caller, except the volatile hints
 * {@link #nextExpiryHint()} and {@link #leasedHint()} read by the lease reaper without locking. The lock is
 * held for a whole pop of this queue (a bounded scan), so two pops never hand out the same message.
 */
public final class QueueAckState {

    public final String group;
    public final String topic;
    public final int queueId;
    /** Held for every read and change of this state (a whole pop of the queue holds it). */
    public final ReentrantLock lock = new ReentrantLock();

    private final OffsetBitSet done;
    private final Map<Long, Delivery> deliveries = new HashMap<>();
    private final ScanPositions scans = new ScanPositions();
    private int leased;
    /** Lower bound of the earliest lease expiry (Long.MAX_VALUE when none). */
    private volatile long nextExpiry = Long.MAX_VALUE;
    private volatile int leasedHint;
    /** Counts leases that ended, so a pop about to wait can tell that a message came back meanwhile. */
    private volatile long returns;
    /** Set when the group's state was deleted: holders of this object must look the state up again. */
    private boolean deleted;

    private long expired;
    private long deadLettered;
    private long skipped;

    public QueueAckState(String group, String topic, int queueId, long ackOffset) {
        this.group = group;
        this.topic = topic;
        this.queueId = queueId;
        this.done = new OffsetBitSet(ackOffset);
    }

    // ------------------------------------------------------------------ done marks

    public long ackOffset() {
        return done.floor();
    }

    public boolean isDone(long offset) {
        return done.isDone(offset);
    }

    /**
     * Marks a message done and forgets its delivery.
     *
     * @return whether it was not done before
     */
    public boolean markDone(long offset) {
        if (!done.markDone(offset)) {
            return false;
        }
        Delivery d = deliveries.remove(offset);
        if (d != null && d.leased) {
            leased--;
            leasedHint = leased;
        }
        return true;
    }

    /** Every message below {@code offset} is done (the store no longer holds them). */
    public void markDoneBelow(long offset) {
        if (!done.markDoneBelow(offset)) {
            return;
        }
        long floor = done.floor();
        Iterator<Delivery> it = deliveries.values().iterator();
        while (it.hasNext()) {
            Delivery d = it.next();
            if (d.offset < floor) {
                if (d.leased) {
                    leased--;
                }
                it.remove();
            }
        }
        leasedHint = leased;
    }

    public long doneAboveAckOffset() {
        return done.countDoneAboveFloor();
    }

    public OffsetBitSet doneMarks() {
        return done;
    }

    // ------------------------------------------------------------------ deliveries and leases

    public Delivery delivery(long offset) {
        return deliveries.get(offset);
    }

    /** Deliveries that counted so far for a message (0 = never delivered). */
    public int deliveriesOf(long offset) {
        Delivery d = deliveries.get(offset);
        return d == null ? 0 : d.deliveries;
    }

    /**
     * Hands a message out: its delivery count goes up by one and it is leased until {@code expiry}.
     *
     * @return the delivery, whose {@code deliveries} is the count this delivery carries
     */
    public Delivery lease(long offset, long commitLogOffset, long tagsCode, long expiry, RemotingChannel owner) {
        Delivery d = deliveries.computeIfAbsent(offset, Delivery::new);
        d.deliveries++;
        d.leased = true;
        d.expiry = expiry;
        d.owner = owner;
        d.uncounted = false;
        d.deadLettering = false;
        d.commitLogOffset = commitLogOffset;
        d.tagsCode = tagsCode;
        leased++;
        leasedHint = leased;
        if (expiry < nextExpiry) {
            nextExpiry = expiry;
        }
        return d;
    }

    /** Takes a message out of circulation while it is copied to the dead-letter queue. */
    public Delivery holdForDeadLetter(long offset, long commitLogOffset, long tagsCode) {
        Delivery d = deliveries.computeIfAbsent(offset, Delivery::new);
        if (!d.leased) {
            leased++;
            leasedHint = leased;
        }
        d.leased = true;
        d.deadLettering = true;
        d.owner = null;
        d.expiry = Long.MAX_VALUE;
        d.commitLogOffset = commitLogOffset;
        d.tagsCode = tagsCode;
        return d;
    }

    /** Changes a lease's end (it stays with its owner). */
    public void extend(Delivery d, long expiry) {
        d.expiry = expiry;
        if (expiry < nextExpiry) {
            nextExpiry = expiry;
        }
    }

    /**
     * Ends a lease: the message is available again (with its current delivery count) and every selector's
     * scan position drops to it.
     */
    public void returnLease(Delivery d) {
        if (!d.leased) {
            return;
        }
        d.leased = false;
        d.owner = null;
        d.deadLettering = false;
        leased--;
        leasedHint = leased;
        returns++;
        scans.lowerTo(d.offset);
        if (d.deliveries <= 0) {
            deliveries.remove(d.offset);
        }
    }

    /**
     * Sets a message's counted deliveries (replay of the log, or a delivery declared not to count); a message
     * that is done or never delivered keeps no entry.
     */
    public void setDeliveries(long offset, int count) {
        if (done.isDone(offset)) {
            return;
        }
        Delivery d = deliveries.get(offset);
        if (d == null) {
            if (count > 0) {
                d = new Delivery(offset);
                d.deliveries = count;
                deliveries.put(offset, d);
            }
            return;
        }
        d.deliveries = Math.max(0, count);
        if (d.deliveries == 0 && !d.leased) {
            deliveries.remove(offset);
        }
    }

    /** Every message handed out and not done (for snapshots; callers must not change the entries). */
    public Iterable<Delivery> deliveries() {
        return deliveries.values();
    }

    public int leasedCount() {
        return leased;
    }

    /** Leased messages now, readable without the lock (may be stale). */
    public int leasedHint() {
        return leasedHint;
    }

    /** How many leases of this queue ended so far, readable without the lock. */
    public long returnsVersion() {
        return returns;
    }

    /** Earliest lease expiry or earlier, readable without the lock. */
    public long nextExpiryHint() {
        return nextExpiry;
    }

    /**
     * Collects the leases that ended by {@code now} or whose owner's connection is gone, and recomputes the
     * expiry hint. The caller returns (or dead-letters) them.
     */
    public List<Delivery> dueLeases(long now) {
        List<Delivery> due = null;
        long next = Long.MAX_VALUE;
        for (Delivery d : deliveries.values()) {
            if (!d.leased || d.deadLettering) {
                continue;
            }
            if (d.expiry <= now || d.owner != null && !d.owner.isActive()) {
                if (due == null) {
                    due = new ArrayList<>();
                }
                due.add(d);
            } else if (d.expiry < next) {
                next = d.expiry;
            }
        }
        nextExpiry = next;
        return due == null ? List.of() : due;
    }

    /** The leases held by a connection (it closed). */
    public List<Delivery> leasesOf(RemotingChannel channel) {
        if (leased == 0) {
            return List.of();
        }
        List<Delivery> owned = new ArrayList<>();
        for (Delivery d : deliveries.values()) {
            if (d.leased && !d.deadLettering && channel.equals(d.owner)) {
                owned.add(d);
            }
        }
        return owned;
    }

    // ------------------------------------------------------------------ scan positions

    public ScanPositions scans() {
        return scans;
    }

    // ------------------------------------------------------------------ lifecycle

    public boolean isDeleted() {
        return deleted;
    }

    /** Marks the state deleted and drops everything it holds. */
    public void delete() {
        deleted = true;
        deliveries.clear();
        scans.clear();
        leased = 0;
        leasedHint = 0;
        nextExpiry = Long.MAX_VALUE;
    }

    /**
     * Declares whether a leased message's current delivery counts.
     *
     * @return whether its counted deliveries changed (the change must be logged)
     */
    public boolean countDelivery(Delivery d, boolean counts) {
        if (!counts && !d.uncounted) {
            d.deliveries--;
            d.uncounted = true;
            return true;
        }
        if (counts && d.uncounted) {
            d.deliveries++;
            d.uncounted = false;
            return true;
        }
        return false;
    }

    // ------------------------------------------------------------------ counters

    /** Messages dropped because their JMSExpiration passed. */
    public long expired() {
        return expired;
    }

    public long deadLettered() {
        return deadLettered;
    }

    /** Messages acknowledged by the broker because the subscription skips what it does not match. */
    public long skipped() {
        return skipped;
    }

    /** Counts a message finished for a reason (after {@link #markDone} returned true). */
    public void countFinished(FinishReason reason) {
        switch (reason) {
            case EXPIRED -> expired++;
            case DEAD_LETTERED -> deadLettered++;
            case SKIPPED -> skipped++;
        }
    }

    /** Restores the counters (snapshot). */
    public void restoreCounters(long expired, long deadLettered, long skipped) {
        this.expired = expired;
        this.deadLettered = deadLettered;
        this.skipped = skipped;
    }

    /** Why the broker finished a message itself. */
    public enum FinishReason { EXPIRED, DEAD_LETTERED, SKIPPED }

    @Override
    public String toString() {
        return group + "@" + topic + "#" + queueId;
    }
}

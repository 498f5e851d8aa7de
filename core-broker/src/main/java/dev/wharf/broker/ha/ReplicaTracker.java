package dev.wharf.broker.ha;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The master's record of its slaves' acks, and the offsets derived from them: the <em>replicated offset</em>
 * (the highest offset that {@code requiredAcks} slaves all hold: the k-th highest ack) and the number of slaves
 * in sync (within {@code haMaxGapNotInSync} of the master's end). Both only count live, handshaken connections
 * that have acked at least once. The replicated offset never goes down, so it can serve as the confirm offset.
 *
 * <p>Thread-safe: connections report from their reader threads; anyone reads.
 */
final class ReplicaTracker {

    /** One live slave connection's ack state. */
    static final class Replica {
        final long brokerId;
        final String address;
        volatile long acked = -1;
        volatile long lastAckMillis;
        volatile long caughtUpMillis;
        /** Stage timing only: the offsets and times of this replica's last acks (its reader thread writes). */
        final long[] ackOffsets = AckPathTiming.ENABLED ? new long[64] : null;
        final long[] ackNanos = AckPathTiming.ENABLED ? new long[64] : null;
        volatile int ackCount;

        Replica(long brokerId, String address) {
            this.brokerId = brokerId;
            this.address = address;
        }
    }

    private final List<Replica> replicas = new CopyOnWriteArrayList<>();
    private final int requiredAcks;
    private final long maxGap;
    private final LongSupplier masterMaxOffset;
    private final AtomicLong replicated = new AtomicLong();
    private volatile Runnable onAdvance = () -> { };
    /**
     * Controller mode: the slaves whose acks count (the sync-state set without the master, or the union of the old
     * and proposed sets while a change is pending); every one of them must hold a byte before it is replicated.
     * Null in classic replication, where any {@code requiredAcks} connected slaves do.
     */
    private volatile Set<Long> voters;

    ReplicaTracker(int requiredAcks, long maxGap, LongSupplier masterMaxOffset) {
        this.requiredAcks = requiredAcks;
        this.maxGap = maxGap;
        this.masterMaxOffset = masterMaxOffset;
    }

    /** Called (on the acking thread) whenever the replicated offset grew. */
    void setOnAdvance(Runnable onAdvance) {
        this.onAdvance = onAdvance;
    }

    /** Starts the replicated offset (a fresh master: nothing to wait for below its current end). */
    void startAt(long offset) {
        raise(offset);
    }

    Replica add(long brokerId, String address) {
        Replica replica = new Replica(brokerId, address);
        replicas.add(replica);
        return replica;
    }

    void remove(Replica replica) {
        replicas.remove(replica);
    }

    /** Records an ack and moves the replicated offset when enough slaves hold more. */
    void acked(Replica replica, long offset) {
        long now = System.currentTimeMillis();
        replica.acked = offset;
        replica.lastAckMillis = now;
        if (offset >= masterMaxOffset.getAsLong()) {
            replica.caughtUpMillis = now;
        }
        if (AckPathTiming.ENABLED) {
            int slot = replica.ackCount & (replica.ackOffsets.length - 1);
            replica.ackOffsets[slot] = offset;
            replica.ackNanos[slot] = System.nanoTime();
            replica.ackCount++;
        }
        if (requiredAcks > 0 && raise(kthHighestAck())) {
            if (AckPathTiming.ENABLED) {
                timeSpread(replicated.get());
            }
            onAdvance.run();
        }
    }

    /** How long before this ack the first replica acked the offset now replicated. */
    private void timeSpread(long offset) {
        long now = System.nanoTime();
        long first = now;
        for (Replica r : replicas) {
            int count = r.ackCount;
            for (int i = 1; i <= Math.min(count, r.ackOffsets.length); i++) {
                int slot = (count - i) & (r.ackOffsets.length - 1);
                if (r.ackOffsets[slot] < offset) {
                    break; // older acks hold less
                }
                first = Math.min(first, r.ackNanos[slot]);
            }
        }
        AckPathTiming.time(AckPathTiming.Stage.ACK_SPREAD, now - first);
    }

    /** Switches to controller-mode counting with these voters (null: back to classic counting). */
    void setVoters(Set<Long> slaveIds) {
        voters = slaveIds == null ? null : Set.copyOf(slaveIds);
        if (requiredAcks > 0 && raise(kthHighestAck())) {
            onAdvance.run();
        }
    }

    private long kthHighestAck() {
        Set<Long> v = voters;
        if (v != null) {
            if (v.isEmpty()) {
                return -1;
            }
            long min = Long.MAX_VALUE;
            for (Long id : v) {
                long best = -1;
                for (Replica r : replicas) {
                    if (r.brokerId == id) {
                        best = Math.max(best, r.acked);
                    }
                }
                min = Math.min(min, best);
            }
            return min;
        }
        if (requiredAcks == 1) {
            long best = -1;
            for (Replica r : replicas) {
                best = Math.max(best, r.acked);
            }
            return best;
        }
        List<Replica> snapshot = new ArrayList<>(replicas);
        if (snapshot.size() < requiredAcks) {
            return -1;
        }
        long[] acks = new long[snapshot.size()];
        for (int i = 0; i < acks.length; i++) {
            acks[i] = snapshot.get(i).acked;
        }
        java.util.Arrays.sort(acks);
        return acks[acks.length - requiredAcks];
    }

    private boolean raise(long offset) {
        long current;
        do {
            current = replicated.get();
            if (offset <= current) {
                return false;
            }
        } while (!replicated.compareAndSet(current, offset));
        return true;
    }

    /** Every byte below this offset is held by enough slaves (the confirm offset). Only grows. */
    long replicatedOffset() {
        return replicated.get();
    }

    /** Moves the replicated offset up to {@code offset} without acks (a degraded SYNC_MASTER). */
    void confirmWithoutSlaves(long offset) {
        if (raise(offset)) {
            onAdvance.run();
        }
    }

    /** Slaves that have acked and are within haMaxGapNotInSync of the master's end. */
    int inSyncCount() {
        long max = masterMaxOffset.getAsLong();
        int count = 0;
        Set<Long> v = voters;
        if (v != null) {
            for (Replica r : replicas) {
                if (v.contains(r.brokerId) && r.acked >= 0) {
                    count++;
                }
            }
            return count;
        }
        for (Replica r : replicas) {
            if (r.acked >= 0 && max - r.acked <= maxGap) {
                count++;
            }
        }
        return count;
    }

    int requiredAcks() {
        Set<Long> v = voters;
        return v == null || requiredAcks == 0 ? requiredAcks : Math.max(requiredAcks, v.size());
    }

    List<ReplicaStatus> snapshot() {
        long max = masterMaxOffset.getAsLong();
        List<ReplicaStatus> out = new ArrayList<>();
        for (Replica r : replicas) {
            long lag = r.acked < 0 ? max : Math.max(0, max - r.acked);
            out.add(new ReplicaStatus(r.brokerId, r.address, r.acked, lag, r.lastAckMillis, r.caughtUpMillis,
                    r.acked >= 0 && lag <= maxGap));
        }
        return out;
    }
}

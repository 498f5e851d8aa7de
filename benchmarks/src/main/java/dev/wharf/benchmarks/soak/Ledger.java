package dev.wharf.benchmarks.soak;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * What happened to every message: the outcome of its send (acknowledged with its commit-log offset, refused as
 * disk full, failed otherwise) and how often it was delivered. Ids are {@code producer << 40 | sequence}; each
 * producer's sequence numbers are dense, so the records are arrays indexed by sequence.
 *
 * <p>Thread-safe: each producer's track is guarded by its own monitor (a producer thread and the consumer
 * threads meet there; a few hundred messages a second, no contention worth avoiding in a test tool).
 */
final class Ledger {

    static final int SEQUENCE_BITS = 40;
    static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;

    static final byte SENT = 0;
    static final byte ACKED = 1;
    static final byte REFUSED_DISK_FULL = 2;
    static final byte FAILED = 3;

    private final Track[] tracks;
    final LongAdder deliveredCorrupted = new LongAdder();
    final LongAdder deliveredForeign = new LongAdder();

    Ledger(int producers) {
        tracks = new Track[producers];
        for (int i = 0; i < producers; i++) {
            tracks[i] = new Track();
        }
    }

    static long id(int producer, long sequence) {
        return ((long) producer << SEQUENCE_BITS) | sequence;
    }

    int producers() {
        return tracks.length;
    }

    /** Before the send: the id exists from now on (a delivery may arrive before the send returns). */
    void sending(long id) {
        track(id).sending((int) (id & SEQUENCE_MASK));
    }

    void outcome(long id, byte state, long commitLogOffset) {
        Track t = track(id);
        if (t == null) {
            throw new IllegalArgumentException("no producer for id " + id);
        }
        t.outcome((int) (id & SEQUENCE_MASK), state, commitLogOffset);
    }

    /** Records one delivery; false when the id is not one this run sent. */
    boolean delivered(long id) {
        Track t = track(id);
        return t != null && t.delivered((int) (id & SEQUENCE_MASK));
    }

    private Track track(long id) {
        int producer = (int) (id >>> SEQUENCE_BITS);
        return id < 0 || producer >= tracks.length ? null : tracks[producer];
    }

    /** A consistent copy of one producer's records, for the end check. */
    Snapshot snapshot(int producer) {
        return tracks[producer].snapshot();
    }

    /** Messages sent by one producer: state, offset of acknowledged ones, delivery count. */
    record Snapshot(int size, byte[] states, long[] offsets, int[] deliveries) {
    }

    private static final class Track {
        private byte[] states = new byte[1 << 16];
        private long[] offsets = new long[1 << 16];
        private int[] deliveries = new int[1 << 16];
        private int size;

        synchronized void sending(int seq) {
            grow(seq);
        }

        synchronized void outcome(int seq, byte state, long offset) {
            grow(seq);
            states[seq] = state;
            offsets[seq] = offset;
        }

        synchronized boolean delivered(int seq) {
            if (seq >= size) {
                return false; // a sequence this producer has not reached: not ours
            }
            deliveries[seq]++;
            return true;
        }

        private void grow(int seq) {
            if (seq >= states.length) {
                int n = Math.max(states.length * 2, seq + 1);
                states = Arrays.copyOf(states, n);
                offsets = Arrays.copyOf(offsets, n);
                deliveries = Arrays.copyOf(deliveries, n);
            }
            size = Math.max(size, seq + 1);
        }

        synchronized Snapshot snapshot() {
            return new Snapshot(size, Arrays.copyOf(states, size), Arrays.copyOf(offsets, size),
                    Arrays.copyOf(deliveries, size));
        }
    }
}

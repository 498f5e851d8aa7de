package dev.wharf.store.commitlog;

import java.util.Arrays;

/**
 * The commit-log ranges known to hold damaged bytes (found by recovery or by a read that failed its check):
 * the dispatcher jumps over them and readers never serve a record inside one. Each range lies within one
 * commit-log file.
 *
 * <p>Thread-safety: copy-on-write; {@link #add} is synchronized and publishes a new sorted snapshot through a
 * volatile field, so lookups on the read and dispatch paths take no lock and, while nothing is quarantined
 * (the normal case), cost one volatile read.
 */
public final class QuarantinedRanges {

    private static final long[] NONE = new long[0];

    /** Range starts, ascending; {@code ends[i]} belongs to {@code starts[i]}. Replaced together. */
    private volatile Snapshot snapshot = new Snapshot(NONE, NONE);

    private record Snapshot(long[] starts, long[] ends) {
    }

    /**
     * Adds {@code [start, end)}, merged with the known ranges it touches (so ranges never overlap).
     *
     * @return false when the range was already covered (nothing changes)
     */
    public synchronized boolean add(long start, long end) {
        if (end <= start) {
            throw new IllegalArgumentException("empty quarantined range [" + start + ", " + end + ")");
        }
        Snapshot s = snapshot;
        int n = s.starts.length;
        long[] starts = new long[n + 1];
        long[] ends = new long[n + 1];
        int count = 0;
        long newStart = start;
        long newEnd = end;
        boolean placed = false;
        for (int i = 0; i < n; i++) {
            if (s.ends[i] < newStart || s.starts[i] > newEnd) {
                if (!placed && s.starts[i] > newEnd) {
                    starts[count] = newStart;
                    ends[count++] = newEnd;
                    placed = true;
                }
                starts[count] = s.starts[i];
                ends[count++] = s.ends[i];
            } else {
                if (s.starts[i] <= start && s.ends[i] >= end) {
                    return false;
                }
                newStart = Math.min(newStart, s.starts[i]);
                newEnd = Math.max(newEnd, s.ends[i]);
            }
        }
        if (!placed) {
            starts[count] = newStart;
            ends[count++] = newEnd;
        }
        snapshot = new Snapshot(Arrays.copyOf(starts, count), Arrays.copyOf(ends, count));
        return true;
    }

    /** Forgets what lies at or past {@code offset} (the log was cut there); a range across it is shortened. */
    public synchronized void removeFrom(long offset) {
        Snapshot s = snapshot;
        int keep = 0;
        while (keep < s.starts.length && s.starts[keep] < offset) {
            keep++;
        }
        long[] starts = Arrays.copyOf(s.starts, keep);
        long[] ends = Arrays.copyOf(s.ends, keep);
        if (keep > 0 && ends[keep - 1] > offset) {
            ends[keep - 1] = offset;
        }
        snapshot = new Snapshot(starts, ends);
    }

    /** Whether some quarantined byte lies at or past {@code offset}. */
    public boolean anyAtOrAbove(long offset) {
        Snapshot s = snapshot;
        return s.ends.length > 0 && s.ends[s.ends.length - 1] > offset;
    }

    public boolean isEmpty() {
        return snapshot.starts.length == 0;
    }

    public int size() {
        return snapshot.starts.length;
    }

    /** The end of the range holding {@code offset}, or -1 when the offset is not quarantined. */
    public long endOfRangeAt(long offset) {
        Snapshot s = snapshot;
        if (s.starts.length == 0) {
            return -1;
        }
        int at = Arrays.binarySearch(s.starts, offset);
        int candidate = at >= 0 ? at : -at - 2;
        return candidate >= 0 && s.ends[candidate] > offset ? s.ends[candidate] : -1;
    }

    /** Whether any byte of {@code [offset, offset + length)} lies in a quarantined range. */
    public boolean overlaps(long offset, int length) {
        Snapshot s = snapshot;
        if (s.starts.length == 0) {
            return false;
        }
        long end = offset + length;
        // the last range starting before the end is the only candidate besides ranges that start inside
        int at = Arrays.binarySearch(s.starts, end);
        int candidate = at >= 0 ? at - 1 : -at - 2;
        for (int i = candidate; i >= 0; i--) {
            if (s.ends[i] > offset) {
                return true;
            }
            if (s.starts[i] < offset) {
                return false; // ranges never overlap, so an earlier one ends even sooner
            }
        }
        return false;
    }

    /** The ranges as {start, end} pairs, ascending (diagnostics, tests). */
    public long[][] toArray() {
        Snapshot s = snapshot;
        long[][] out = new long[s.starts.length][];
        for (int i = 0; i < out.length; i++) {
            out[i] = new long[] {s.starts[i], s.ends[i]};
        }
        return out;
    }
}

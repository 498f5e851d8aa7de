package dev.wharf.benchmarks.load;

/**
 * A log-linear histogram of non-negative values (latencies in microseconds): values below 128 are counted
 * exactly; above, each power of two is split into 64 buckets, so a percentile is never more than 1/64 (1.6 %)
 * above the true value. 3,712 counters cover the whole {@code long} range, so recording never allocates or fails.
 *
 * <pre>
 * value:  0 1 ... 127 | 128..129 130..131 ... 254..255 | 256..259 ... 508..511 | ...
 * index:  0 1 ... 127 |   128      129    ...   191    |   192    ...   255    | ...
 *         exact       | 64 buckets of width 2          | 64 buckets of width 4  | 64 per power of two
 * </pre>
 *
 * <p>Not thread-safe: one histogram per writing thread; combine them afterwards with {@link #add}.
 */
public final class LatencyHistogram {

    /** Bits of the exact range; the relative bucket width above it is 1 / 2^(SUB_BITS - 1). */
    private static final int SUB_BITS = 7;
    private static final int EXACT = 1 << SUB_BITS;
    private static final int HALF = EXACT >> 1;
    /** Indexes up to the bucket of Long.MAX_VALUE (most significant bit 62). */
    private static final int BUCKETS = (62 - SUB_BITS + 2) * HALF + HALF;

    private final long[] counts = new long[BUCKETS];
    private long count;
    private long sum;
    private long max;

    /** Counts one value; negative values count as 0. */
    public void record(long value) {
        long v = Math.max(0, value);
        counts[index(v)]++;
        count++;
        sum += v;
        if (v > max) {
            max = v;
        }
    }

    /** Adds another histogram's counts to this one. */
    public void add(LatencyHistogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        count += other.count;
        sum += other.sum;
        max = Math.max(max, other.max);
    }

    public long count() {
        return count;
    }

    public long max() {
        return max;
    }

    public double mean() {
        return count == 0 ? 0 : (double) sum / count;
    }

    /**
     * The value at percentile {@code p} (0 &lt; p &lt;= 100): the largest value of the bucket holding the
     * {@code ceil(p% * count)}-th smallest value, capped at the maximum recorded; 0 when empty.
     */
    public long percentile(double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
        }
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * count));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(max, highest(i));
            }
        }
        return max;
    }

    static int index(long v) {
        if (v < EXACT) {
            return (int) v;
        }
        int msb = 63 - Long.numberOfLeadingZeros(v);
        int shift = msb - SUB_BITS + 1;
        return shift * HALF + (int) (v >>> shift);
    }

    /** Smallest value counted in bucket {@code index}. */
    static long lowest(int index) {
        if (index < EXACT) {
            return index;
        }
        int shift = index / HALF - 1;
        long sub = index - (long) shift * HALF;
        return sub << shift;
    }

    /** Largest value counted in bucket {@code index}. */
    static long highest(int index) {
        if (index < EXACT) {
            return index;
        }
        return index + 1 >= BUCKETS ? Long.MAX_VALUE : lowest(index + 1) - 1;
    }
}

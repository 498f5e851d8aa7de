package dev.wharf.broker.ha;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Latency of the stages of a SYNC_MASTER's acknowledgement path, for tracing where a send waits (a diagnostic, off
 * by default: {@code -Dwharf.ha.stageTiming=true}). Each stage keeps a histogram of power-of-two microsecond
 * buckets (one atomic add per sample, no allocation, no lock); a daemon thread logs every stage's count, mean and
 * percentiles every {@code wharf.ha.stageTimingSeconds} (10) seconds and starts over. Off, every call site costs one
 * read of a static final flag.
 */
final class AckPathTiming {

    /** Whether stages are timed (read once: the JIT drops the timing code when off). */
    static final boolean ENABLED = Boolean.getBoolean("wharf.ha.stageTiming");

    /** The stages, in the order a send passes them. */
    enum Stage {
        /** Master: a put asked to wait for its replicas until the waiter completed it (the whole replication). */
        REPLICATION_WAIT,
        /** Master: an append woke the transfer thread until the bytes were written to the slave's socket. */
        WAKE_TO_SENT,
        /** Master: writing one TRANSFER frame to the socket. */
        TRANSFER_WRITE,
        /** Master: a TRANSFER left until the slave's ACK of its end was read (network, slave append, ACK). */
        ACK_ROUND_TRIP,
        /** Master: the first replica's ack of an offset until the ack that made it replicated (waiting for more). */
        ACK_SPREAD,
        /** Master: completing the waiting puts an ack covers (their responses are written on this thread). */
        COMPLETE_WAITERS,
        /** Slave: a TRANSFER read until its ACK was written (the local append). */
        SLAVE_APPEND,
        /** Master: bytes per TRANSFER frame (not a time: the histogram counts bytes instead of microseconds). */
        TRANSFER_BYTES
    }

    private static final Logger log = LoggerFactory.getLogger(AckPathTiming.class);
    private static final int BUCKETS = 40;
    /** Per stage: BUCKETS counters (bucket b holds values in [2^(b-1), 2^b) units), then a sum and a count. */
    private static final AtomicLongArray COUNTS = new AtomicLongArray(Stage.values().length * (BUCKETS + 2));

    static {
        if (ENABLED) {
            long period = Long.getLong("wharf.ha.stageTimingSeconds", 10);
            Thread reporter = new Thread(() -> {
                while (true) {
                    try {
                        Thread.sleep(TimeUnit.SECONDS.toMillis(period)); // a reporting period, not a wait for a state
                    } catch (InterruptedException e) {
                        return;
                    }
                    log.info("Acknowledgement path, last {} s (us; TRANSFER_BYTES in bytes):{}", period, drain());
                }
            }, "wharf-ha-stage-timing");
            reporter.setDaemon(true);
            reporter.start();
        }
    }

    private AckPathTiming() {
    }

    /** Records {@code nanos} for {@code stage} (call only when {@link #ENABLED}). */
    static void time(Stage stage, long nanos) {
        count(stage, Math.max(0, nanos / 1_000));
    }

    /** Records a value in the stage's own unit. */
    static void count(Stage stage, long value) {
        int base = stage.ordinal() * (BUCKETS + 2);
        int bucket = value <= 0 ? 0 : Math.min(BUCKETS - 1, 64 - Long.numberOfLeadingZeros(value));
        COUNTS.incrementAndGet(base + bucket);
        COUNTS.addAndGet(base + BUCKETS, value);
        COUNTS.incrementAndGet(base + BUCKETS + 1);
    }

    /** The summary of every stage since the last call, and starts over. */
    static String drain() {
        StringBuilder sb = new StringBuilder();
        for (Stage stage : Stage.values()) {
            int base = stage.ordinal() * (BUCKETS + 2);
            long[] buckets = new long[BUCKETS];
            for (int b = 0; b < BUCKETS; b++) {
                buckets[b] = COUNTS.getAndSet(base + b, 0);
            }
            long sum = COUNTS.getAndSet(base + BUCKETS, 0);
            long n = COUNTS.getAndSet(base + BUCKETS + 1, 0);
            if (n == 0) {
                continue;
            }
            sb.append(String.format("%n  %-17s n=%d mean=%d p50<%d p90<%d p99<%d", stage, n, sum / n,
                    upper(buckets, n, 0.50), upper(buckets, n, 0.90), upper(buckets, n, 0.99)));
        }
        return sb.toString();
    }

    /** The upper bound of the bucket holding the given quantile. */
    private static long upper(long[] buckets, long n, double quantile) {
        long rank = (long) Math.ceil(n * quantile);
        long seen = 0;
        for (int b = 0; b < buckets.length; b++) {
            seen += buckets[b];
            if (seen >= rank) {
                return 1L << b;
            }
        }
        return 1L << (buckets.length - 1);
    }
}

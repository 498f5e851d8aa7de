package dev.wharf.client.route;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Remembers brokers that recently failed or answered slowly, and for how long to avoid them. The avoidance
 * period grows with the observed latency ({@link #notAvailableDuration}); a failed call counts as a latency of
 * {@value #ISOLATION_LATENCY_MILLIS} ms. A broker that answers fast again is available at once. Thread-safe.
 */
public final class LatencyFaultTolerance {

    /** Latency a failed call (no answer, refusal) is counted as. */
    public static final long ISOLATION_LATENCY_MILLIS = 30_000;

    private static final long[] LATENCY_MAX = {50L, 100L, 550L, 1_000L, 2_000L, 3_000L, 15_000L};
    private static final long[] NOT_AVAILABLE = {0L, 0L, 30_000L, 60_000L, 120_000L, 180_000L, 600_000L};

    private final Map<String, Long> availableAgainAt = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    public LatencyFaultTolerance() {
        this(System::currentTimeMillis);
    }

    /** With a clock in milliseconds (tests pass their own). */
    public LatencyFaultTolerance(LongSupplier clock) {
        this.clock = clock;
    }

    /** How long a broker with this call latency is avoided: 0 up to 100 ms, then 30 s ... 10 min. */
    public static long notAvailableDuration(long latencyMillis) {
        for (int i = LATENCY_MAX.length - 1; i >= 0; i--) {
            if (latencyMillis >= LATENCY_MAX[i]) {
                return NOT_AVAILABLE[i];
            }
        }
        return 0;
    }

    /** Records the outcome of a call to {@code brokerName}; {@code failed} counts as a very slow call. */
    public void update(String brokerName, long latencyMillis, boolean failed) {
        long duration = notAvailableDuration(failed ? ISOLATION_LATENCY_MILLIS : latencyMillis);
        if (duration == 0) {
            availableAgainAt.remove(brokerName);
        } else {
            availableAgainAt.put(brokerName, clock.getAsLong() + duration);
        }
    }

    public boolean isAvailable(String brokerName) {
        Long until = availableAgainAt.get(brokerName);
        return until == null || clock.getAsLong() >= until;
    }

    /** Among the brokers being avoided, the one available again soonest; null if none is avoided. */
    public String leastBad() {
        String best = null;
        long bestAt = Long.MAX_VALUE;
        for (Map.Entry<String, Long> e : availableAgainAt.entrySet()) {
            if (e.getValue() < bestAt) {
                bestAt = e.getValue();
                best = e.getKey();
            }
        }
        return best;
    }

    public void forget(String brokerName) {
        availableAgainAt.remove(brokerName);
    }
}

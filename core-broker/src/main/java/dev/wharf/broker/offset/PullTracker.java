package dev.wharf.broker.offset;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * When each group last pulled each queue, and how many messages per second each group pulls, for consume
 * statistics. One map update per pull. Thread-safe.
 */
public final class PullTracker {

    /** Length of the window the pull rate is measured over. */
    static final long RATE_WINDOW_MILLIS = 10_000;

    private static final class GroupPulls {
        final ConcurrentHashMap<String, ConcurrentHashMap<Integer, Long>> lastPull = new ConcurrentHashMap<>();
        final LongAdder inWindow = new LongAdder();
        volatile long windowStart;
        volatile double lastRate;

        GroupPulls(long now) {
            windowStart = now;
        }

        void roll(long now) {
            if (now - windowStart < RATE_WINDOW_MILLIS) {
                return;
            }
            synchronized (this) {
                long elapsed = now - windowStart;
                if (elapsed >= RATE_WINDOW_MILLIS) {
                    lastRate = inWindow.sumThenReset() * 1000.0 / elapsed;
                    windowStart = now;
                }
            }
        }
    }

    private final ConcurrentHashMap<String, GroupPulls> groups = new ConcurrentHashMap<>();

    /** A pull of {@code messages} messages from the queue was answered at {@code now} (epoch millis). */
    public void recordPull(String group, String topic, int queueId, int messages, long now) {
        GroupPulls pulls = groups.computeIfAbsent(group, g -> new GroupPulls(now));
        pulls.lastPull.computeIfAbsent(topic, t -> new ConcurrentHashMap<>()).put(queueId, now);
        if (messages > 0) {
            pulls.roll(now);
            pulls.inWindow.add(messages);
        }
    }

    /** Epoch millis of the group's last pull of the queue, 0 when never. */
    public long lastPullTimestamp(String group, String topic, int queueId) {
        GroupPulls pulls = groups.get(group);
        if (pulls == null) {
            return 0L;
        }
        Map<Integer, Long> queues = pulls.lastPull.get(topic);
        Long at = queues == null ? null : queues.get(queueId);
        return at == null ? 0L : at;
    }

    /** Messages per second the group pulled over the last completed window. */
    public double pullTps(String group, long now) {
        GroupPulls pulls = groups.get(group);
        if (pulls == null) {
            return 0.0;
        }
        pulls.roll(now);
        return pulls.lastRate;
    }

    /** Forgets a deleted topic. */
    public void removeTopic(String topic) {
        groups.values().forEach(p -> p.lastPull.remove(topic));
    }
}

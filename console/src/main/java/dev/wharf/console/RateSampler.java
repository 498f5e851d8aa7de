package dev.wharf.console;

import dev.wharf.protocol.body.Stats;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The history behind the charts: every {@code sampleInterval} it notes each tracked topic's message count (the
 * sum of its queues' ends; the rate is the change between samples) and each tracked group's total lag. A topic or
 * group is tracked from the first time a page asks for it, up to {@code maxTracked} of each (the least recently
 * asked is dropped), and samples older than {@code history} are dropped. Thread-safe.
 */
@Component
public class RateSampler {

    /** One point of a chart: when, and the value then. */
    public record Point(long time, double value) {
    }

    private static final Logger log = LoggerFactory.getLogger(RateSampler.class);

    private final ClusterGateway cluster;
    private final ConsoleSettings settings;
    private final Map<String, Series> topics = new ConcurrentHashMap<>();
    private final Map<String, Series> groups = new ConcurrentHashMap<>();

    /** Raw samples of one topic or group, and when a page last asked. */
    private static final class Series {
        final Deque<Point> samples = new ArrayDeque<>();
        volatile long lastAsked = System.currentTimeMillis();
    }

    public RateSampler(ClusterGateway cluster, ConsoleSettings settings) {
        this.cluster = cluster;
        this.settings = settings;
    }

    /** Messages per second of the topic, one point per sample interval (tracking starts with the first call). */
    public List<Point> topicRate(String topic) {
        Series s = track(topics, topic);
        List<Point> out = new ArrayList<>();
        synchronized (s) {
            Point previous = null;
            for (Point p : s.samples) {
                if (previous != null && p.time() > previous.time()) {
                    out.add(new Point(p.time(), Math.max(0, p.value() - previous.value()) * 1000.0
                            / (p.time() - previous.time())));
                }
                previous = p;
            }
        }
        return out;
    }

    /** Total lag of the group, one point per sample interval. */
    public List<Point> groupLag(String group) {
        Series s = track(groups, group);
        synchronized (s) {
            return new ArrayList<>(s.samples);
        }
    }

    private Series track(Map<String, Series> table, String key) {
        Series s = table.computeIfAbsent(key, k -> new Series());
        s.lastAsked = System.currentTimeMillis();
        if (table.size() > settings.maxTracked()) {
            table.entrySet().stream().min(Comparator.comparingLong(e -> e.getValue().lastAsked))
                    .ifPresent(e -> table.remove(e.getKey()));
        }
        return s;
    }

    @Scheduled(fixedDelayString = "${wharf.console.sample-interval:5s}")
    public void sample() {
        long now = System.currentTimeMillis();
        for (Map.Entry<String, Series> e : topics.entrySet()) {
            try {
                add(e.getValue(), new Point(now, cluster.endOffsetSum(e.getKey())), now);
            } catch (ConsoleException ex) {
                log.debug("Cannot sample topic {}: {}", e.getKey(), ex.getMessage());
            }
        }
        for (Map.Entry<String, Series> e : groups.entrySet()) {
            try {
                long lag = cluster.progress(e.getKey()).stream().mapToLong(Stats.QueueProgress::lag).sum();
                add(e.getValue(), new Point(now, lag), now);
            } catch (ConsoleException ex) {
                log.debug("Cannot sample group {}: {}", e.getKey(), ex.getMessage());
            }
        }
    }

    private void add(Series s, Point p, long now) {
        synchronized (s) {
            s.samples.addLast(p);
            long oldest = now - settings.history().toMillis();
            while (!s.samples.isEmpty() && s.samples.peekFirst().time() < oldest) {
                s.samples.removeFirst();
            }
        }
    }
}

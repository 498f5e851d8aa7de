package dev.wharf.metrics;

import dev.wharf.common.SystemTopics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Messages and bytes in and out per topic, with a bounded number of series: each internal topic has its own,
 * retry and dead-letter topics are summed as {@code %RETRY%} and {@code %DLQ%} (their per-group depths are in
 * {@link LagSampler}), the first {@code maxTopics} other topics seen get their own, and the rest are summed as
 * {@code _other}. A topic's four counters are resolved together the first time the topic is seen; after that
 * counting is a map read and an adder increment, with no allocation. Thread-safe.
 */
final class TopicMeters {

    /** The label of topics beyond the cap. */
    static final String OTHER = "_other";

    /** The four counters of one topic label. */
    record Counters(Counter messagesIn, Counter bytesIn, Counter messagesOut, Counter bytesOut) {
    }

    private final MeterRegistry registry;
    private final int maxTopics;
    private final ConcurrentHashMap<String, Counters> byTopic = new ConcurrentHashMap<>();
    private final Counters retry;
    private final Counters dlq;
    private final Counters other;
    private int ownSeries;

    TopicMeters(MeterRegistry registry, int maxTopics) {
        this.registry = registry;
        this.maxTopics = maxTopics;
        this.retry = create(SystemTopics.RETRY_GROUP_TOPIC_PREFIX);
        this.dlq = create(SystemTopics.DLQ_GROUP_TOPIC_PREFIX);
        this.other = create(OTHER);
    }

    /** A record of {@code topic} was stored (dispatch thread). */
    void stored(String topic, int bytes) {
        Counters c = of(topic);
        c.messagesIn.increment();
        c.bytesIn.increment(bytes);
    }

    /** A read of {@code topic} handed out messages. */
    void read(String topic, int messages, long bytes) {
        Counters c = of(topic);
        c.messagesOut.increment(messages);
        c.bytesOut.increment(bytes);
    }

    /** Topics with series of their own so far (internal ones included). */
    synchronized int ownSeriesCount() {
        return ownSeries;
    }

    Counters of(String topic) {
        Counters c = byTopic.get(topic);
        return c != null ? c : resolve(topic);
    }

    /** Slow path, once per topic name. */
    private synchronized Counters resolve(String topic) {
        Counters c = byTopic.get(topic);
        if (c != null) {
            return c;
        }
        if (SystemTopics.isRetryTopic(topic)) {
            c = retry;
        } else if (SystemTopics.isDlqTopic(topic)) {
            c = dlq;
        } else if (SystemTopics.isInternal(topic) || ownSeries < maxTopics) {
            c = create(topic);
            ownSeries++;
        } else {
            c = other;
        }
        byTopic.put(topic, c);
        return c;
    }

    private Counters create(String label) {
        return new Counters(
                Counter.builder("wharf.messages.in").description("Messages stored, by topic")
                        .tag("topic", label).register(registry),
                Counter.builder("wharf.bytes.in").description("Bytes stored (whole records), by topic")
                        .tag("topic", label).register(registry),
                Counter.builder("wharf.messages.out").description("Messages handed out by reads, by topic")
                        .tag("topic", label).register(registry),
                Counter.builder("wharf.bytes.out").description("Bytes handed out by reads, by topic")
                        .tag("topic", label).register(registry));
    }
}

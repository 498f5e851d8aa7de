package dev.wharf.metrics;

import dev.wharf.broker.Broker;
import dev.wharf.broker.group.ConsumerGroupInfo;
import dev.wharf.common.SystemTopics;
import dev.wharf.protocol.body.AckGroups;
import dev.wharf.protocol.body.AckStats;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.store.MessageStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Consumer lag, retry and dead-letter depths, sampled once per scrape (never on a send or pull): for every group
 * and topic the group committed offsets of (or, for groups that consume by acknowledgement, has ack state for),
 * the messages between its offsets and the queues' ends, and the age of the oldest of them; for every group, what
 * waits in its retry topic and the dead letters not resent yet.
 *
 * <p>Cardinality: at most {@code maxLagSeries} group/topic pairs are exported, those lagging most (ties by name);
 * the others are counted in {@code wharf_consumer_lag_dropped_pairs}. Per-group series (retry, DLQ, clients) are
 * capped the same way. Called by the scrape thread only.
 */
final class LagSampler {

    /** One group/topic pair's lag at the last scrape. */
    private record Lag(String group, String topic, long messages, double ageSeconds) {
    }

    private final Broker broker;
    private final int maxSeries;
    private final LongSupplier clock;
    private final GaugeTable lagMessages;
    private final GaugeTable lagAge;
    private final GaugeTable retryDepth;
    private final GaugeTable dlqDepth;
    private final GaugeTable groupClients;
    private volatile int droppedPairs;

    LagSampler(MeterRegistry registry, Broker broker, int maxSeries, LongSupplier clock) {
        this.broker = broker;
        this.maxSeries = maxSeries;
        this.clock = clock;
        this.lagMessages = new GaugeTable(registry, "wharf.consumer.lag",
                "Messages of a topic not yet consumed by a group (committed offset to queue end)", "messages");
        this.lagAge = new GaugeTable(registry, "wharf.consumer.lag.age",
                "Age of the oldest message of a topic not yet consumed by a group (0 when none)", "seconds");
        this.retryDepth = new GaugeTable(registry, "wharf.consumer.retry.depth",
                "Messages waiting in a group's retry topic", "messages");
        this.dlqDepth = new GaugeTable(registry, "wharf.consumer.dlq.depth",
                "Dead letters of a group not resent yet", "messages");
        this.groupClients = new GaugeTable(registry, "wharf.consumer.group.clients",
                "Consumers of a group connected to this broker", null);
        Gauge.builder("wharf.consumer.lag.dropped.pairs", this, s -> s.droppedPairs)
                .description("Group/topic pairs with offsets left out of wharf_consumer_lag (metricsMaxLagSeries)")
                .register(registry);
    }

    /** Samples every group's lag and depths into the gauges (scrape thread). */
    void refresh() {
        MessageStore store = broker.store();
        long now = clock.getAsLong();
        List<Lag> lags = new ArrayList<>();
        Map<String, Long> retry = new TreeMap<>();
        for (Map.Entry<String, Map<Integer, Long>> e : broker.offsets().snapshot().entrySet()) {
            String key = e.getKey();
            int at = key.indexOf('@');
            if (at <= 0) {
                continue;
            }
            String topic = key.substring(0, at);
            String group = key.substring(at + 1);
            Lag lag = lagOf(store, group, topic, e.getValue(), now);
            if (SystemTopics.isRetryTopic(topic)) {
                retry.merge(group, lag.messages(), Long::sum);
            } else if (!SystemTopics.isDlqTopic(topic)) {
                lags.add(lag);
            }
        }
        Map<String, Long> dlqWaiting = new TreeMap<>();
        for (AckGroups.GroupTopic gt : broker.ack().groupsWithPrefix("")) {
            Lag lag = ackLagOf(store, broker.ack().stats(gt.group(), gt.topic()), gt.group(), gt.topic(), now);
            if (SystemTopics.isDlqTopic(gt.topic()) && gt.topic().equals(gt.group())) {
                // the admin tools read a dead-letter queue as a group of its own name: what it has not acked waits
                dlqWaiting.put(gt.topic(), lag.messages());
            } else if (SystemTopics.isRetryTopic(gt.topic())) {
                retry.merge(gt.group(), lag.messages(), Long::sum);
            } else {
                lags.add(lag);
            }
        }
        lags.sort(Comparator.comparingLong(Lag::messages).reversed().thenComparing(Lag::group)
                .thenComparing(Lag::topic));
        int kept = Math.min(maxSeries, lags.size());
        droppedPairs = lags.size() - kept;
        Map<Tags, Double> messageRows = new HashMap<>();
        Map<Tags, Double> ageRows = new HashMap<>();
        for (Lag lag : lags.subList(0, kept)) {
            Tags tags = Tags.of("group", lag.group(), "topic", lag.topic());
            messageRows.put(tags, (double) lag.messages());
            ageRows.put(tags, lag.ageSeconds());
        }
        lagMessages.update(messageRows);
        lagAge.update(ageRows);
        retryDepth.update(groupRows(retry));
        dlqDepth.update(groupRows(dlqDepths(store, broker, dlqWaiting)));
        Map<String, Long> clients = new TreeMap<>();
        for (String group : broker.consumers().groups()) {
            ConsumerGroupInfo info = broker.consumers().group(group);
            if (info != null) {
                clients.put(group, (long) info.members().size());
            }
        }
        groupClients.update(groupRows(clients));
    }

    private static Lag lagOf(MessageStore store, String group, String topic, Map<Integer, Long> committed, long now) {
        long messages = 0;
        long oldest = Long.MAX_VALUE;
        for (Map.Entry<Integer, Long> q : committed.entrySet()) {
            int queueId = q.getKey();
            long offset = Math.max(q.getValue(), store.getMinOffsetInQueue(topic, queueId));
            long behind = store.getMaxOffsetInQueue(topic, queueId) - offset;
            if (behind <= 0) {
                continue;
            }
            messages += behind;
            long stored = store.getMessageStoreTimestamp(topic, queueId, offset);
            if (stored > 0) {
                oldest = Math.min(oldest, stored);
            }
        }
        double age = oldest == Long.MAX_VALUE ? 0 : Math.max(0, now - oldest) / 1000.0;
        return new Lag(group, topic, messages, age);
    }

    /** Lag of a group that consumes by acknowledgement: what it has not acknowledged, and the oldest of it. */
    private static Lag ackLagOf(MessageStore store, AckStats stats, String group, String topic, long now) {
        long messages = 0;
        long oldest = Long.MAX_VALUE;
        for (AckStats.QueueAckStats q : stats.queues()) {
            if (q.backlog() <= 0) {
                continue;
            }
            messages += q.backlog();
            long stored = store.getMessageStoreTimestamp(topic, q.queueId(), q.ackOffset());
            if (stored > 0) {
                oldest = Math.min(oldest, stored);
            }
        }
        double age = oldest == Long.MAX_VALUE ? 0 : Math.max(0, now - oldest) / 1000.0;
        return new Lag(group, topic, messages, age);
    }

    /**
     * Messages waiting in each dead-letter topic, by group: not yet acknowledged by the queue's own reader (resent
     * ones leave), or all it holds when nobody read it yet.
     */
    private static Map<String, Long> dlqDepths(MessageStore store, Broker broker, Map<String, Long> waiting) {
        Map<String, Long> out = new TreeMap<>();
        for (String topic : store.topicsWithQueues()) {
            if (!SystemTopics.isDlqTopic(topic)) {
                continue;
            }
            Long known = waiting.get(topic);
            if (known != null) {
                out.put(topic.substring(SystemTopics.DLQ_GROUP_TOPIC_PREFIX.length()), known);
                continue;
            }
            TopicConfig config = broker.topics().find(topic);
            int queues = config == null ? 1 : Math.max(config.readQueueNums(), config.writeQueueNums());
            long depth = 0;
            for (int queueId = 0; queueId < queues; queueId++) {
                depth += Math.max(0, store.getMaxOffsetInQueue(topic, queueId)
                        - store.getMinOffsetInQueue(topic, queueId));
            }
            out.put(topic.substring(SystemTopics.DLQ_GROUP_TOPIC_PREFIX.length()), depth);
        }
        return out;
    }

    private Map<Tags, Double> groupRows(Map<String, Long> byGroup) {
        List<Map.Entry<String, Long>> entries = new ArrayList<>(byGroup.entrySet());
        entries.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        Map<Tags, Double> rows = new HashMap<>();
        for (Map.Entry<String, Long> e : entries.subList(0, Math.min(maxSeries, entries.size()))) {
            rows.put(Tags.of("group", e.getKey()), (double) e.getValue());
        }
        return rows;
    }

}

package dev.wharf.protocol.body;

import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.protocol.body.Stats.ConsumeStats;
import dev.wharf.protocol.body.Stats.QueueBounds;
import dev.wharf.protocol.body.Stats.QueueOffset;
import dev.wharf.protocol.body.Stats.QueueProgress;
import dev.wharf.protocol.body.Stats.ResetOffsetBody;
import dev.wharf.protocol.body.Stats.TopicStats;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Administration answers in the shapes RocketMQ's tools read ({@code DefaultMQAdminExt}, {@code mqadmin}), for
 * requests that come from a RocketMQ client. Wharf's own answers keep per-queue lists; RocketMQ's bodies are maps
 * keyed by the queue itself, written as a JSON object in the key's place:
 *
 * <pre>
 * {"offsetTable":{{"brokerName":"b","queueId":0,"topic":"t"}:{"minOffset":0,"maxOffset":5,...}, ...}}
 * </pre>
 *
 * This is not valid JSON, but it is what RocketMQ's brokers send and its clients' parser expects, so it is written
 * by hand here rather than through the JSON mapper. Stateless.
 */
public final class RocketMqBodies {

    private RocketMqBodies() {
    }

    /** GET_TOPIC_STATS_INFO: RocketMQ's {@code TopicStatsTable}. */
    public static byte[] topicStats(TopicStats stats, double topicPutTps) {
        StringBuilder b = new StringBuilder(64 + stats.offsetTable().size() * 128).append("{\"offsetTable\":{");
        String comma = "";
        for (QueueBounds q : stats.offsetTable()) {
            b.append(comma);
            queueKey(b, q.mq());
            b.append(":{\"lastUpdateTimestamp\":").append(q.lastUpdateTimestamp())
                    .append(",\"maxOffset\":").append(q.maxOffset())
                    .append(",\"minOffset\":").append(q.minOffset()).append('}');
            comma = ",";
        }
        b.append("},\"topicPutTps\":").append(topicPutTps).append('}');
        return bytes(b);
    }

    /** GET_CONSUME_STATS: RocketMQ's {@code ConsumeStats} with an {@code OffsetWrapper} per queue. */
    public static byte[] consumeStats(ConsumeStats stats) {
        StringBuilder b = new StringBuilder(64 + stats.offsetTable().size() * 160)
                .append("{\"consumeTps\":").append(stats.consumeTps()).append(",\"offsetTable\":{");
        String comma = "";
        for (QueueProgress q : stats.offsetTable()) {
            b.append(comma);
            queueKey(b, q.mq());
            b.append(":{\"brokerOffset\":").append(q.brokerOffset())
                    .append(",\"consumerOffset\":").append(q.consumerOffset())
                    .append(",\"lastTimestamp\":").append(q.lastTimestamp())
                    .append(",\"pullOffset\":").append(q.consumerOffset()).append('}');
            comma = ",";
        }
        b.append("}}");
        return bytes(b);
    }

    /** INVOKE_BROKER_TO_RESET_OFFSET: RocketMQ's {@code ResetOffsetBody}, the new offset per queue. */
    public static byte[] resetOffset(ResetOffsetBody body) {
        StringBuilder b = new StringBuilder(32 + body.offsetTable().size() * 96).append("{\"offsetTable\":{");
        String comma = "";
        for (QueueOffset q : body.offsetTable()) {
            b.append(comma);
            queueKey(b, q.mq());
            b.append(':').append(q.offset());
            comma = ",";
        }
        b.append("}}");
        return bytes(b);
    }

    /** GET_BROKER_RUNTIME_INFO: RocketMQ's {@code KVTable}, every value a string. */
    public static byte[] kvTable(Map<String, String> table) {
        return Json.encode(Map.of("table", new TreeMap<>(table)));
    }

    /** One member of a group in RocketMQ's {@code ConsumerConnection}. */
    public record Connection(String clientId, String clientAddr, String language, int version) {
    }

    /** A subscription as RocketMQ's {@code SubscriptionData} names its fields. */
    public record Subscription(String topic, String subString, java.util.Set<String> tagsSet,
                               java.util.Set<Integer> codeSet, long subVersion, String expressionType,
                               boolean classFilterMode) {

        public static Subscription of(SubscriptionData s) {
            return new Subscription(s.topic(), s.subString(), s.tagsSet(), s.codeSet(), s.subVersion(),
                    s.expressionType() == null ? "TAG" : s.expressionType().name(), false);
        }
    }

    /** GET_CONSUMER_CONNECTION_LIST: RocketMQ's {@code ConsumerConnection}. */
    public record ConsumerConnection(List<Connection> connectionSet, Map<String, Subscription> subscriptionTable,
                                     String consumeType, String messageModel, String consumeFromWhere) {
    }

    /** GET_TOPIC_CONFIG: RocketMQ's {@code TopicConfigAndQueueMapping} of a topic without static queues. */
    public record TopicConfigBody(String topicName, int readQueueNums, int writeQueueNums, int perm,
                                  String topicFilterType, int topicSysFlag, boolean order,
                                  Map<String, String> attributes) {

        public static TopicConfigBody of(TopicConfig c) {
            return new TopicConfigBody(c.topicName(), c.readQueueNums(), c.writeQueueNums(), c.perm(), "SINGLE_TAG",
                    c.topicSysFlag(), c.order(), Map.of());
        }
    }

    /** QUERY_TOPIC_CONSUME_BY_WHO: RocketMQ's {@code GroupList}. */
    public record GroupList(java.util.Set<String> groupList) {
    }

    private static void queueKey(StringBuilder b, MessageQueue mq) {
        b.append("{\"brokerName\":");
        string(b, mq.brokerName());
        b.append(",\"queueId\":").append(mq.queueId()).append(",\"topic\":");
        string(b, mq.topic());
        b.append('}');
    }

    private static void string(StringBuilder b, String s) {
        b.append(Json.mapper().writeValueAsString(s));
    }

    private static byte[] bytes(StringBuilder b) {
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }
}

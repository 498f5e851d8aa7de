package dev.wharf.common;

/** Names of the broker's internal topics and of the per-group retry and dead-letter topics. */
public final class SystemTopics {

    /** Delayed messages wait here; queue id = delay level - 1 (or the timer queue for arbitrary delays). */
    public static final String SCHEDULE_TOPIC = "SCHEDULE_TOPIC_XXXX";
    /** Half (prepared) transaction messages, invisible to consumers until committed. */
    public static final String TRANS_HALF_TOPIC = "RMQ_SYS_TRANS_HALF_TOPIC";
    /** Op records marking a half message as committed or rolled back. */
    public static final String TRANS_OP_HALF_TOPIC = "RMQ_SYS_TRANS_OP_HALF_TOPIC";
    /** Half messages that reached the check-back limit are moved here so they stay findable. */
    public static final String TRANS_CHECK_MAX_TIME_TOPIC = "TRANS_CHECK_MAX_TIME_TOPIC";

    /**
     * The acknowledgement log: one record per state change of acknowledgement-based consumption (pop, ack,
     * lease change, dead-lettering), replayed at start above the last snapshot. One queue.
     */
    public static final String ACK_LOG_TOPIC = "WHARF_SYS_ACK_LOG";

    /**
     * The route RocketMQ's producers fall back on for a topic that does not exist yet: they send to the brokers
     * serving it, which create the topic. A broker serves it while autoCreateTopicEnable is on.
     */
    public static final String AUTO_CREATE_TOPIC_KEY = "TBW102";
    public static final String RETRY_GROUP_TOPIC_PREFIX = "%RETRY%";
    public static final String DLQ_GROUP_TOPIC_PREFIX = "%DLQ%";

    private SystemTopics() {
    }

    public static String retryTopic(String group) {
        return RETRY_GROUP_TOPIC_PREFIX + group;
    }

    public static String dlqTopic(String group) {
        return DLQ_GROUP_TOPIC_PREFIX + group;
    }

    public static boolean isRetryTopic(String topic) {
        return topic != null && topic.startsWith(RETRY_GROUP_TOPIC_PREFIX);
    }

    public static boolean isDlqTopic(String topic) {
        return topic != null && topic.startsWith(DLQ_GROUP_TOPIC_PREFIX);
    }

    /** Internal topics that applications must not send to or consume directly. */
    public static boolean isInternal(String topic) {
        return SCHEDULE_TOPIC.equals(topic) || TRANS_HALF_TOPIC.equals(topic)
                || TRANS_OP_HALF_TOPIC.equals(topic) || TRANS_CHECK_MAX_TIME_TOPIC.equals(topic)
                || ACK_LOG_TOPIC.equals(topic);
    }
}

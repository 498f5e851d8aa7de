package dev.wharf.protocol.header;

/**
 * Headers of the message requests: send, send back, pull, query, view. Field names are RocketMQ's, so the
 * frames stay readable by tools that know RocketMQ.
 */
public final class MessageHeaders {

    private MessageHeaders() {
    }

    /**
     * Extension field of a SEND_MESSAGE / SEND_BATCH_MESSAGE refusal (value {@code "true"}): the broker stored
     * nothing (a replica that is not the writable master now: a slave, a fenced master, a master waiting for
     * in-sync replicas, a store not running), so the sender may send again, to the master the routes name, without
     * storing the message twice.
     */
    public static final String STORED_NOTHING = "storedNothing";

    /**
     * SEND_MESSAGE / SEND_BATCH_MESSAGE. Body: the message body, or for a batch the encoding of
     * {@code dev.wharf.protocol.body.BatchMessageCodec}. {@code properties} is the encoded properties string.
     * {@code queueId < 0} lets the broker choose.
     */
    public record SendMessageRequest(
            @Required String producerGroup,
            @Required String topic,
            int defaultTopicQueueNums,
            int queueId,
            int sysFlag,
            long bornTimestamp,
            int flag,
            String properties,
            int reconsumeTimes,
            Integer maxReconsumeTimes,
            boolean batch) {
    }

    /** Answer to a send: the broker message id (comma-separated for a batch), queue and first queue offset. */
    public record SendMessageResponse(
            @Required String msgId,
            int queueId,
            long queueOffset,
            String transactionId) {
    }

    /**
     * CONSUMER_SEND_MSG_BACK: the message at commit-log {@code offset} failed in {@code group}; store it for
     * retry with {@code delayLevel} (0 = broker chooses 3 + reconsumeTimes; -1 = straight to the dead-letter
     * queue).
     */
    public record ConsumerSendMsgBackRequest(
            long offset,
            @Required String group,
            int delayLevel,
            String originMsgId,
            String originTopic,
            Integer maxReconsumeTimes) {
    }

    /**
     * PULL_MESSAGE. {@code sysFlag} bits are {@link PullSysFlag}. {@code subscription} is a tag expression
     * ("*", "a || b") or an SQL92 selector, per {@code expressionType} ("TAG" or "SQL92").
     */
    public record PullMessageRequest(
            @Required String consumerGroup,
            @Required String topic,
            int queueId,
            long queueOffset,
            int maxMsgNums,
            int sysFlag,
            long commitOffset,
            long suspendTimeoutMillis,
            String subscription,
            long subVersion,
            String expressionType) {
    }

    /** Answer to a pull; the body holds the stored records back to back. */
    public record PullMessageResponse(
            long suggestWhichBrokerId,
            long nextBeginOffset,
            long minOffset,
            long maxOffset) {
    }

    /** QUERY_MESSAGE by key (the KEYS property or the unique id) in a time window; newest first. */
    public record QueryMessageRequest(
            @Required String topic,
            @Required String key,
            int maxNum,
            long beginTimestamp,
            long endTimestamp) {
    }

    public record QueryMessageResponse(long indexLastUpdateTimestamp, long indexLastUpdatePhyoffset) {
    }

    /** VIEW_MESSAGE_BY_ID: the commit-log offset from a broker message id. */
    public record ViewMessageRequest(long offset) {
    }

    /** Bits of {@link PullMessageRequest#sysFlag()}. */
    public static final class PullSysFlag {
        /** The request also commits {@code commitOffset} for the group. */
        public static final int COMMIT_OFFSET = 0x1;
        /** The broker may hold the request (long polling) when no message is there yet. */
        public static final int SUSPEND = 0x2;
        /** The request carries its subscription expression (else the broker uses the heartbeat's). */
        public static final int SUBSCRIPTION = 0x4;

        private PullSysFlag() {
        }
    }
}

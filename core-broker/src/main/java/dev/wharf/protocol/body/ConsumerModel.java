package dev.wharf.protocol.body;

/** Enumerations describing consumers, shared by heartbeats, the broker and the client. */
public final class ConsumerModel {

    private ConsumerModel() {
    }

    /**
     * How a consumer gets messages: it pulls itself, a push consumer's pull service does, or (RocketMQ 5.x) it pops
     * them.
     */
    public enum ConsumeType { CONSUME_ACTIVELY, CONSUME_PASSIVELY, CONSUME_POP }

    /** Clustering: each message to one member of the group. Broadcasting: to every member. */
    public enum MessageModel { CLUSTERING, BROADCASTING }

    /**
     * Where a group with no committed offset starts. The last three are RocketMQ's older names, still accepted by its
     * clients and sent in their heartbeats; RocketMQ's clients start all three at the end, like
     * {@code CONSUME_FROM_LAST_OFFSET}, and so does Wharf's.
     */
    public enum ConsumeFromWhere {
        CONSUME_FROM_LAST_OFFSET, CONSUME_FROM_FIRST_OFFSET, CONSUME_FROM_TIMESTAMP,
        CONSUME_FROM_LAST_OFFSET_AND_FROM_MIN_WHEN_BOOT_FIRST, CONSUME_FROM_MIN_OFFSET, CONSUME_FROM_MAX_OFFSET
    }

    /** The language of a subscription expression. */
    public enum ExpressionType { TAG, SQL92 }
}

package dev.wharf.protocol.body;

/** Enumerations describing consumers, shared by heartbeats, the broker and the client. */
public final class ConsumerModel {

    private ConsumerModel() {
    }

    /** How a consumer gets messages: it pulls itself, or a push consumer's pull service does. */
    public enum ConsumeType { CONSUME_ACTIVELY, CONSUME_PASSIVELY }

    /** Clustering: each message to one member of the group. Broadcasting: to every member. */
    public enum MessageModel { CLUSTERING, BROADCASTING }

    /** Where a group with no committed offset starts. */
    public enum ConsumeFromWhere { CONSUME_FROM_LAST_OFFSET, CONSUME_FROM_FIRST_OFFSET, CONSUME_FROM_TIMESTAMP }

    /** The language of a subscription expression. */
    public enum ExpressionType { TAG, SQL92 }
}

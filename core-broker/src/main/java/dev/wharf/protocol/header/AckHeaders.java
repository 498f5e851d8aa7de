package dev.wharf.protocol.header;

/**
 * Headers of acknowledgement-based consumption ("pop"): the broker hands out messages with a lease, tracks
 * each message's acknowledgement, and redelivers what is not acknowledged in time. Codes and field names
 * follow RocketMQ 5's POP_MESSAGE / ACK_MESSAGE / CHANGE_MESSAGE_INVISIBLETIME where it has them; PEEK, the
 * group state requests and the extra fields are Wharf's own.
 *
 * <p>Offset lists travel as decimal queue offsets separated by commas ({@code "12,13,17"}), delivery counts
 * likewise, in the same order.
 */
public final class AckHeaders {

    /**
     * Most messages one pop may ask for (RocketMQ's clients ask for at most 32); an answer also stops at the broker's
     * maxTransferBytesOnMessageInMemory.
     */
    public static final int MAX_POP_NUMS = 256;

    private AckHeaders() {
    }

    /** Where a group with no acknowledgement state for a queue starts. */
    public enum InitMode {
        /** At the first message still stored (JMS queues, shared subscriptions, durable subscriptions' first use). */
        EARLIEST,
        /** At the queue's end when the state is created: only messages stored afterwards (new subscriptions). */
        LATEST
    }

    /**
     * POP_MESSAGE: lease up to {@code maxMsgNums} available messages matching the expression.
     *
     * @param queueId           a queue, or -1 for "any queue": the broker walks the topic's queues from a rotating
     *                          start so many consumers share few queues
     * @param invisibleTime     lease length in milliseconds; not acknowledged by then, the message is redelivered
     * @param pollTime          how long to wait for a message in milliseconds (0 = answer at once)
     * @param expressionType    "TAG" (default) or "SQL92"
     * @param expression        tag expression ("*", "a || b") or SQL92 selector; empty = every message
     * @param initMode          where the group starts when it has no state yet (default EARLIEST)
     * @param skipUnmatched     true: a message the expression does not match is acknowledged by the broker at once
     *                          (topic subscriptions); false: it stays for another consumer (queues)
     * @param maxReconsumeTimes deliveries beyond the first before a message goes to {@code %DLQ%{group}}; null =
     *                          the group's retryMaxTimes
     */
    public record PopMessageRequest(
            @Required String consumerGroup,
            @Required String topic,
            int queueId,
            int maxMsgNums,
            long invisibleTime,
            long pollTime,
            String expressionType,
            String expression,
            InitMode initMode,
            boolean skipUnmatched,
            Integer maxReconsumeTimes) {
    }

    /**
     * Answer to a pop that found messages (the body holds the stored records back to back).
     *
     * @param deliveryCounts each message's delivery count (1 = first delivery), in body order
     * @param popTime        broker time the leases started (epoch millis)
     * @param invisibleTime  the lease length granted
     * @param moreToScan     true when the broker stopped scanning before the queues' ends (more may match)
     */
    public record PopMessageResponse(
            String deliveryCounts,
            long popTime,
            long invisibleTime,
            boolean moreToScan) {
    }

    /** ACK_MESSAGE: these messages of one queue are done. Idempotent. */
    public record AckMessageRequest(
            @Required String consumerGroup,
            @Required String topic,
            int queueId,
            @Required String offsets) {
    }

    /**
     * CHANGE_MESSAGE_INVISIBLETIME: changes the lease of leased messages.
     *
     * @param deliveryCounts optional: the delivery count each message was handed out with; a message leased again
     *                       since (another delivery) is left alone, so a late request cannot cut another consumer's
     *                       lease short
     * @param invisibleTime  0 = available again now; more = stays leased that long from now (redelivery delay)
     * @param countDelivery  true: the delivery counts (rollback, recover, listener failure); false: it did not
     *                       happen (prefetched messages released unseen on close)
     */
    public record ChangeInvisibleTimeRequest(
            @Required String consumerGroup,
            @Required String topic,
            int queueId,
            @Required String offsets,
            String deliveryCounts,
            long invisibleTime,
            boolean countDelivery) {
    }

    /**
     * PEEK_MESSAGE: the messages of one queue still there for the group (not acknowledged; leased ones
     * included), in queue order, from {@code fromOffset} on. Changes nothing.
     */
    public record PeekMessageRequest(
            @Required String consumerGroup,
            @Required String topic,
            int queueId,
            long fromOffset,
            int maxMsgNums,
            String expressionType,
            String expression) {
    }

    /**
     * Answer to a peek (the body holds the records found, possibly none).
     *
     * @param nextOffset     where the next peek of this queue continues; {@code >= maxOffset} means the end
     * @param deliveryCounts how often each message was delivered so far (0 = never), in body order
     */
    public record PeekMessageResponse(long nextOffset, long minOffset, long maxOffset, String deliveryCounts) {
    }

    /** CREATE_ACK_GROUP: creates the group's state for every queue of the topic that has none. */
    public record CreateAckGroupRequest(@Required String consumerGroup, @Required String topic, InitMode initMode) {
    }

    /** DELETE_ACK_GROUP: forgets the group's state for the topic (unsubscribe); pending leases end. */
    public record DeleteAckGroupRequest(@Required String consumerGroup, @Required String topic) {
    }

    /** GET_ACK_STATS: answered with an {@code AckStats} body; topic null = every topic of the group. */
    public record AckStatsRequest(@Required String consumerGroup, String topic) {
    }

    /**
     * LIST_ACK_GROUPS: answered with an {@code AckGroups} body listing every (group, topic) with state whose group
     * name starts with {@code groupPrefix} (the JMS provider finds all states of one named subscription this way).
     */
    public record ListAckGroupsRequest(@Required String groupPrefix) {
    }
}

package dev.wharf.protocol.header;

/** Headers of the offset requests: consumer offsets, queue bounds, offset by time, reset. */
public final class OffsetHeaders {

    private OffsetHeaders() {
    }

    /** QUERY_CONSUMER_OFFSET; answered with {@link OffsetResponse} or QUERY_NOT_FOUND. */
    public record QueryConsumerOffsetRequest(@Required String consumerGroup, @Required String topic, int queueId) {
    }

    /** UPDATE_CONSUMER_OFFSET (usually one-way). */
    public record UpdateConsumerOffsetRequest(
            @Required String consumerGroup, @Required String topic, int queueId, long commitOffset) {
    }

    /** GET_MAX_OFFSET / GET_MIN_OFFSET / GET_EARLIEST_MSG_STORETIME. */
    public record QueueRequest(@Required String topic, int queueId) {
    }

    /** SEARCH_OFFSET_BY_TIMESTAMP. */
    public record SearchOffsetRequest(@Required String topic, int queueId, long timestamp) {
    }

    /** A single offset (or timestamp) answer. */
    public record OffsetResponse(long offset) {
    }

    /**
     * INVOKE_BROKER_TO_RESET_OFFSET: move the group's offsets of the topic. {@code timestamp}: -1 = earliest,
     * -2 = latest, otherwise the first message stored at or after this time (epoch millis).
     */
    public record ResetOffsetRequest(@Required String topic, @Required String group, long timestamp, boolean isForce) {
        public static final long EARLIEST = -1L;
        public static final long LATEST = -2L;
    }

    /** GET_CONSUME_STATS for a group, optionally limited to one topic. */
    public record ConsumeStatsRequest(@Required String consumerGroup, String topic) {
    }
}

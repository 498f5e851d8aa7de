package dev.wharf.protocol.header;

/** Headers of the client-management requests. Heartbeats carry a JSON body (HeartbeatData). */
public final class ClientHeaders {

    private ClientHeaders() {
    }

    /** GET_CONSUMER_LIST_BY_GROUP; the answer body is ConsumerListBody. */
    public record ConsumerGroupRequest(@Required String consumerGroup) {
    }

    /** UNREGISTER_CLIENT: a client leaves its producer and/or consumer group. */
    public record UnregisterClientRequest(@Required String clientID, String producerGroup, String consumerGroup) {
    }

    /** CLAIM_EXCLUSIVE / RELEASE_EXCLUSIVE: a name one connection at a time may hold. */
    public record ExclusiveClaimRequest(@Required String key) {
    }

    /**
     * NOTIFY_CONSUMER_IDS_CHANGED (broker to client, one-way): the group's membership changed; rebalance.
     * {@code offsetResetTopic} is set when instead the group's offsets of that topic were reset by an
     * administrator: the member drops its process queues of the topic and re-reads their offsets from the
     * broker (QUERY_CONSUMER_OFFSET). Until it does, the broker ignores commits of the old positions to those
     * queues.
     */
    public record NotifyConsumerIdsChangedRequest(@Required String consumerGroup, String offsetResetTopic) {

        /** A membership change. */
        public NotifyConsumerIdsChangedRequest(String consumerGroup) {
            this(consumerGroup, null);
        }
    }
}

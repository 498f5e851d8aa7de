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

    /** NOTIFY_CONSUMER_IDS_CHANGED (broker to client, one-way): the group's membership changed; rebalance. */
    public record NotifyConsumerIdsChangedRequest(@Required String consumerGroup) {
    }
}

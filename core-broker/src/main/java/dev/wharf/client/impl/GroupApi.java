package dev.wharf.client.impl;

import dev.wharf.client.ClientException;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.header.ClientHeaders.ExclusiveClaimRequest;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Heartbeat.ConsumerListBody;
import dev.wharf.protocol.body.Heartbeat.HeartbeatData;
import dev.wharf.protocol.body.Heartbeat.LockBatchRequestBody;
import dev.wharf.protocol.body.Heartbeat.LockBatchResponseBody;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.ClientHeaders.ConsumerGroupRequest;
import dev.wharf.protocol.header.ClientHeaders.UnregisterClientRequest;
import java.util.List;
import java.util.Set;

/** Group membership requests to a broker: heartbeat, unregister, member list, queue locks. Thread-safe. */
public final class GroupApi {

    private final RemotingCalls calls;

    public GroupApi(RemotingCalls calls) {
        this.calls = calls;
    }

    public void heartbeat(String address, HeartbeatData data, long timeoutMillis)
            throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.HEART_BEAT, null)
                .setBody(Json.encode(data)), timeoutMillis);
    }

    public void unregisterClient(String address, String clientId, String producerGroup, String consumerGroup,
                                 long timeoutMillis) throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.UNREGISTER_CLIENT,
                new UnregisterClientRequest(clientId, producerGroup, consumerGroup)), timeoutMillis);
    }

    /** The client ids of the group's live members as this broker knows them. */
    public List<String> consumerIds(String address, String group, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address,
                RemotingCalls.request(RequestCode.GET_CONSUMER_LIST_BY_GROUP, new ConsumerGroupRequest(group)),
                timeoutMillis);
        if (response.body() == null || response.body().length == 0) {
            return List.of();
        }
        List<String> ids = Json.decode(response.body(), ConsumerListBody.class).consumerIdList();
        return ids == null ? List.of() : ids;
    }

    /** Locks queues for this client (orderly consumption); answers the queues it now holds. */
    public Set<MessageQueue> lockBatch(String address, String group, String clientId, Set<MessageQueue> queues,
                                       long timeoutMillis) throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.LOCK_BATCH_MQ,
                null).setBody(Json.encode(new LockBatchRequestBody(group, clientId, queues))), timeoutMillis);
        if (response.body() == null || response.body().length == 0) {
            return Set.of();
        }
        Set<MessageQueue> locked = Json.decode(response.body(), LockBatchResponseBody.class).lockOKMQSet();
        return locked == null ? Set.of() : locked;
    }

    public void unlockBatch(String address, String group, String clientId, Set<MessageQueue> queues,
                            long timeoutMillis) throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.UNLOCK_BATCH_MQ, null)
                .setBody(Json.encode(new LockBatchRequestBody(group, clientId, queues))), timeoutMillis);
    }

    /**
     * Claims a name for this client's connection to the broker (a JMS client id, a durable subscription); the broker
     * frees it when the connection closes.
     *
     * @return true when the name is now held by this connection, false when another connection holds it
     */
    public boolean claimExclusive(String address, String key, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invoke(address,
                RemotingCalls.request(RequestCode.CLAIM_EXCLUSIVE, new ExclusiveClaimRequest(key)), timeoutMillis);
        if (response.code() == ResponseCode.EXCLUSIVE_CLAIM_HELD) {
            return false;
        }
        if (response.code() != ResponseCode.SUCCESS) {
            throw RemotingCalls.refused(address, RequestCode.CLAIM_EXCLUSIVE, response);
        }
        return true;
    }

    /** Gives a claimed name back. */
    public void releaseExclusive(String address, String key, long timeoutMillis)
            throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address,
                RemotingCalls.request(RequestCode.RELEASE_EXCLUSIVE, new ExclusiveClaimRequest(key)), timeoutMillis);
    }
}

package dev.wharf.client.impl;

import dev.wharf.client.ClientException;
import dev.wharf.common.message.MessageBatchDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.AckGroups;
import dev.wharf.protocol.body.AckStats;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.AckHeaders.AckMessageRequest;
import dev.wharf.protocol.header.AckHeaders.AckStatsRequest;
import dev.wharf.protocol.header.AckHeaders.ChangeInvisibleTimeRequest;
import dev.wharf.protocol.header.AckHeaders.CreateAckGroupRequest;
import dev.wharf.protocol.header.AckHeaders.DeleteAckGroupRequest;
import dev.wharf.protocol.header.AckHeaders.ListAckGroupsRequest;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.protocol.header.AckHeaders.PeekMessageRequest;
import dev.wharf.protocol.header.AckHeaders.PeekMessageResponse;
import dev.wharf.protocol.header.AckHeaders.PopMessageRequest;
import dev.wharf.protocol.header.AckHeaders.PopMessageResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Acknowledgement-based consumption requests to one broker: pop, ack, lease change, peek, group state,
 * statistics. Answers are decoded (records into messages, bodies inflated, the broker name set). Thread-safe.
 */
public final class AckApi {

    /**
     * A broker's answer to a pop or a peek.
     *
     * @param found          whether the broker answered with messages (SUCCESS), else it had none in time
     * @param deliveryCounts pop: each message's delivery count; peek: its deliveries so far
     * @param nextOffset     peek only: where the next peek continues
     * @param maxOffset      peek only: the queue's end
     */
    public record Reply(boolean found, List<MessageExt> messages, int[] deliveryCounts, long popTime,
                        boolean moreToScan, long nextOffset, long maxOffset) {
    }

    private final RemotingCalls calls;
    private final ReceivedBodies bodies;

    /** @param maxBodySize the largest body a compressed body is inflated to (ClientConfig.maxMessageSize) */
    public AckApi(RemotingCalls calls, int maxBodySize) {
        this.calls = calls;
        this.bodies = new ReceivedBodies(maxBodySize);
    }

    /** POP_MESSAGE; the future fails with a {@link ClientException}. The RPC waits pollTime plus {@code timeoutMillis}. */
    public CompletableFuture<Reply> popAsync(String address, String brokerName, PopMessageRequest header,
                                             long timeoutMillis) {
        RemotingCommand request = RemotingCalls.request(RequestCode.POP_MESSAGE, header);
        return calls.invokeAsync(address, request, header.pollTime() + timeoutMillis).thenApply(response -> {
            try {
                return popReply(address, brokerName, response);
            } catch (ClientException e) {
                throw new CompletionException(e);
            }
        });
    }

    private Reply popReply(String address, String brokerName, RemotingCommand response)
            throws ClientException {
        switch (response.code()) {
            case ResponseCode.SUCCESS -> {
                PopMessageResponse header = MessageApi.decodeHeader(address, response, PopMessageResponse.class);
                MessageBatchDecoder.Result batch = decode(brokerName, response);
                int[] counts = counts(address, header.deliveryCounts(), batch);
                return inflated(address, new Reply(true, batch.messages(), counts, header.popTime(),
                        header.moreToScan(), -1, -1));
            }
            case ResponseCode.NO_MESSAGE, ResponseCode.POLLING_TIMEOUT -> {
                PopMessageResponse header = MessageApi.decodeHeader(address, response, PopMessageResponse.class);
                return new Reply(false, List.of(), new int[0], header.popTime(), header.moreToScan(), -1, -1);
            }
            default -> throw RemotingCalls.refused(address, RequestCode.POP_MESSAGE, response);
        }
    }

    /** ACK_MESSAGE for offsets of one queue. */
    public void ack(String address, AckMessageRequest header, long timeoutMillis)
            throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.ACK_MESSAGE, header), timeoutMillis);
    }

    /** ACK_MESSAGE, asynchronously; the future fails with a {@link ClientException}. */
    public CompletableFuture<Void> ackAsync(String address, AckMessageRequest header, long timeoutMillis) {
        return expectSuccess(address, RemotingCalls.request(RequestCode.ACK_MESSAGE, header), timeoutMillis);
    }

    /** CHANGE_MESSAGE_INVISIBLETIME, asynchronously; the future fails with a {@link ClientException}. */
    public CompletableFuture<Void> changeInvisibleTimeAsync(String address, ChangeInvisibleTimeRequest header,
                                                            long timeoutMillis) {
        return expectSuccess(address, RemotingCalls.request(RequestCode.CHANGE_MESSAGE_INVISIBLETIME, header),
                timeoutMillis);
    }

    private CompletableFuture<Void> expectSuccess(String address, RemotingCommand request, long timeoutMillis) {
        return calls.invokeAsync(address, request, timeoutMillis).thenApply(response -> {
            if (response.code() != ResponseCode.SUCCESS) {
                throw new CompletionException(RemotingCalls.refused(address, request.code(), response));
            }
            return null;
        });
    }

    /** PEEK_MESSAGE. */
    public Reply peek(String address, String brokerName, PeekMessageRequest header, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address,
                RemotingCalls.request(RequestCode.PEEK_MESSAGE, header), timeoutMillis);
        PeekMessageResponse h = MessageApi.decodeHeader(address, response, PeekMessageResponse.class);
        MessageBatchDecoder.Result batch = decode(brokerName, response);
        List<MessageExt> messages = batch.messages();
        return inflated(address, new Reply(!messages.isEmpty(), messages, counts(address, h.deliveryCounts(), batch),
                0, false, h.nextOffset(), h.maxOffset()));
    }

    public void createGroup(String address, String group, String topic, InitMode mode, long timeoutMillis)
            throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.CREATE_ACK_GROUP,
                new CreateAckGroupRequest(group, topic, mode)), timeoutMillis);
    }

    public void deleteGroup(String address, String group, String topic, long timeoutMillis)
            throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.DELETE_ACK_GROUP,
                new DeleteAckGroupRequest(group, topic)), timeoutMillis);
    }

    public AckStats stats(String address, String group, String topic, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.GET_ACK_STATS,
                new AckStatsRequest(group, topic)), timeoutMillis);
        return Json.decode(response.body(), AckStats.class);
    }

    /** The (group, topic) pairs with state on the broker whose group name starts with {@code prefix}. */
    public List<AckGroups.GroupTopic> listGroups(String address, String prefix, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.LIST_ACK_GROUPS,
                new ListAckGroupsRequest(prefix)), timeoutMillis);
        AckGroups groups = Json.decode(response.body(), AckGroups.class);
        return groups.groups() == null ? List.of() : groups.groups();
    }

    private static MessageBatchDecoder.Result decode(String brokerName, RemotingCommand response) {
        if (response.body() == null || response.body().length == 0) {
            return new MessageBatchDecoder.Result(List.of(), List.of(), new int[0]);
        }
        MessageBatchDecoder.Result batch = BatchDecoding.decodeBatch(response.body(),
                "messages from broker " + brokerName);
        for (MessageExt msg : batch.messages()) {
            msg.setBrokerName(brokerName);
        }
        return batch;
    }

    /**
     * The reply with compressed bodies inflated; a message whose body cannot be inflated within the limit is
     * reported and left out with its delivery count. Left unacknowledged, it comes back after its invisible time
     * and, once delivered too often, moves to the dead-letter queue like any message that cannot be consumed.
     */
    private Reply inflated(String address, Reply reply) {
        List<MessageExt> messages = reply.messages();
        List<MessageExt> kept = new ArrayList<>(messages.size());
        int[] counts = new int[messages.size()];
        for (int i = 0; i < messages.size(); i++) {
            if (bodies.inflate(address, messages.get(i))) {
                counts[kept.size()] = reply.deliveryCounts()[i];
                kept.add(messages.get(i));
            }
        }
        if (kept.size() == messages.size()) {
            return reply;
        }
        return new Reply(reply.found(), kept, Arrays.copyOf(counts, kept.size()), reply.popTime(),
                reply.moreToScan(), reply.nextOffset(), reply.maxOffset());
    }

    /**
     * The delivery count of each message kept from the batch: the broker lists one per record it sent, so a
     * record the decoder skipped (damaged) takes its count with it.
     */
    private static int[] counts(String address, String list, MessageBatchDecoder.Result batch)
            throws ClientException {
        int[] positions = batch.positions();
        int[] out = new int[positions.length];
        String[] parts = list == null || list.isEmpty() ? new String[0] : list.split(",");
        int needed = positions.length == 0 ? 0 : positions[positions.length - 1] + 1;
        if (batch.isClean() ? parts.length != positions.length : parts.length < needed) {
            throw new ClientException(ResponseCode.SYSTEM_ERROR, "The answer of " + address + " lists " + parts.length
                    + " delivery counts for " + positions.length + " messages.");
        }
        try {
            for (int i = 0; i < positions.length; i++) {
                out[i] = Integer.parseInt(parts[positions[i]].trim());
            }
        } catch (NumberFormatException e) {
            throw new ClientException(ResponseCode.SYSTEM_ERROR, "The answer of " + address
                    + " has malformed delivery counts \"" + list + "\".", e);
        }
        return out;
    }
}

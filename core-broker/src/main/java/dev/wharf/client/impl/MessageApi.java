package dev.wharf.client.impl;

import dev.wharf.client.ClientException;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.HeaderException;
import dev.wharf.protocol.header.MessageHeaders;
import dev.wharf.protocol.header.MessageHeaders.ConsumerSendMsgBackRequest;
import dev.wharf.protocol.header.MessageHeaders.PullMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.PullMessageResponse;
import dev.wharf.protocol.header.MessageHeaders.QueryMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.SendMessageResponse;
import dev.wharf.protocol.header.MessageHeaders.ViewMessageRequest;
import dev.wharf.protocol.header.TransactionHeaders.EndTransactionRequest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Message requests to a broker: send, pull, send back, query, view, end transaction. Thread-safe. */
public final class MessageApi {

    private final RemotingCalls calls;
    private final ReceivedBodies bodies;

    /** @param maxBodySize the largest body a compressed body is inflated to (ClientConfig.maxMessageSize) */
    public MessageApi(RemotingCalls calls, int maxBodySize) {
        this.calls = calls;
        this.bodies = new ReceivedBodies(maxBodySize);
    }

    // ------------------------------------------------------------------ send

    public SendReply send(String address, SendMessageRequest header, byte[] body, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand request = sendRequest(header, body);
        return sendReply(address, request.code(), calls.invoke(address, request, timeoutMillis));
    }

    /** The future fails with a {@link ClientException} (refusal or no answer). */
    public CompletableFuture<SendReply> sendAsync(String address, SendMessageRequest header, byte[] body,
                                                  long timeoutMillis) {
        RemotingCommand request = sendRequest(header, body);
        return calls.invokeAsync(address, request, timeoutMillis).thenApply(response -> {
            try {
                return sendReply(address, request.code(), response);
            } catch (ClientException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }

    public void sendOneway(String address, SendMessageRequest header, byte[] body, long timeoutMillis)
            throws ClientException, InterruptedException {
        calls.invokeOneway(address, sendRequest(header, body), timeoutMillis);
    }

    private static RemotingCommand sendRequest(SendMessageRequest header, byte[] body) {
        int code = header.batch() ? RequestCode.SEND_BATCH_MESSAGE : RequestCode.SEND_MESSAGE;
        return RemotingCalls.request(code, header).setBody(body);
    }

    private static SendReply sendReply(String address, int requestCode, RemotingCommand response)
            throws ClientException {
        switch (response.code()) {
            case ResponseCode.SUCCESS, ResponseCode.FLUSH_DISK_TIMEOUT, ResponseCode.FLUSH_SLAVE_TIMEOUT,
                 ResponseCode.SLAVE_NOT_AVAILABLE -> {
                SendMessageResponse header = decodeHeader(address, response, SendMessageResponse.class);
                return new SendReply(response.code(), address, header.msgId(), header.queueId(), header.queueOffset(),
                        header.transactionId());
            }
            default -> {
                ClientException refused = RemotingCalls.refused(address, requestCode, response);
                if ("true".equals(response.ext(MessageHeaders.STORED_NOTHING))) {
                    throw new ClientException(refused.responseCode(), refused.getMessage(), null, true);
                }
                throw refused;
            }
        }
    }

    // ------------------------------------------------------------------ pull

    /**
     * Pulls; the future fails with a {@link ClientException} when the broker refuses (bad subscription, unknown
     * topic) or does not answer.
     *
     * @param subscription used to re-check tags on the client (may be null)
     */
    public CompletableFuture<PullReply> pullAsync(String address, String brokerName, PullMessageRequest header,
                                                  SubscriptionData subscription, long timeoutMillis) {
        return calls.invokeAsync(address, RemotingCalls.request(RequestCode.PULL_MESSAGE, header), timeoutMillis)
                .thenApply(response -> {
                    try {
                        return pullReply(address, brokerName, response, subscription);
                    } catch (ClientException e) {
                        throw new java.util.concurrent.CompletionException(e);
                    }
                });
    }

    public PullReply pull(String address, String brokerName, PullMessageRequest header, SubscriptionData subscription,
                          long timeoutMillis) throws ClientException, InterruptedException {
        RemotingCommand response = calls.invoke(address, RemotingCalls.request(RequestCode.PULL_MESSAGE, header),
                timeoutMillis);
        return pullReply(address, brokerName, response, subscription);
    }

    private PullReply pullReply(String address, String brokerName, RemotingCommand response,
                                SubscriptionData subscription) throws ClientException {
        PullReply.Kind kind = switch (response.code()) {
            case ResponseCode.SUCCESS -> PullReply.Kind.FOUND;
            case ResponseCode.PULL_NOT_FOUND -> PullReply.Kind.NO_NEW_MSG;
            case ResponseCode.PULL_RETRY_IMMEDIATELY -> PullReply.Kind.NO_MATCHED_MSG;
            case ResponseCode.PULL_OFFSET_MOVED -> PullReply.Kind.OFFSET_ILLEGAL;
            default -> throw RemotingCalls.refused(address, RequestCode.PULL_MESSAGE, response);
        };
        PullMessageResponse header = decodeHeader(address, response, PullMessageResponse.class);
        List<MessageExt> messages = List.of();
        if (kind == PullReply.Kind.FOUND && response.body() != null) {
            List<MessageExt> decoded = BatchDecoding.decode(response.body(), "PULL_MESSAGE from " + address);
            messages = new ArrayList<>(decoded.size());
            for (MessageExt msg : decoded) {
                msg.setBrokerName(brokerName);
                // a skipped message is passed over like a filtered one: the next pull starts after it
                if (Subscriptions.tagMatches(subscription, msg) && bodies.inflate(address, msg)) {
                    messages.add(msg);
                }
            }
        }
        return new PullReply(kind, header.nextBeginOffset(), header.minOffset(), header.maxOffset(), messages,
                header.suggestWhichBrokerId());
    }

    // ------------------------------------------------------------------ retry, query, view, transaction

    /** CONSUMER_SEND_MSG_BACK: the broker stores the message again for a later retry (or the dead-letter queue). */
    public void sendMessageBack(String address, ConsumerSendMsgBackRequest header, long timeoutMillis)
            throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.CONSUMER_SEND_MSG_BACK, header),
                timeoutMillis);
    }

    /** QUERY_MESSAGE: messages indexed under the key in the time window (empty when none). */
    public List<MessageExt> queryMessage(String address, QueryMessageRequest header, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invoke(address, RemotingCalls.request(RequestCode.QUERY_MESSAGE, header),
                timeoutMillis);
        if (response.code() == ResponseCode.QUERY_NOT_FOUND) {
            return List.of();
        }
        if (response.code() != ResponseCode.SUCCESS) {
            throw RemotingCalls.refused(address, RequestCode.QUERY_MESSAGE, response);
        }
        if (response.body() == null) {
            return List.of();
        }
        List<MessageExt> found = BatchDecoding.decode(response.body(), "QUERY_MESSAGE from " + address);
        found.removeIf(msg -> !bodies.inflate(address, msg));
        return found;
    }

    /** VIEW_MESSAGE_BY_ID: the record at a commit-log offset. */
    public MessageExt viewMessage(String address, long commitLogOffset, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand response = calls.invokeExpectSuccess(address,
                RemotingCalls.request(RequestCode.VIEW_MESSAGE_BY_ID, new ViewMessageRequest(commitLogOffset)),
                timeoutMillis);
        MessageExt msg = response.body() == null ? null
                : MessageDecoder.decode(ByteBuffer.wrap(response.body()), true, false);
        if (msg == null) {
            throw new ClientException(ResponseCode.SYSTEM_ERROR, "The broker at " + address
                    + " answered VIEW_MESSAGE_BY_ID for offset " + commitLogOffset + " without a readable message.");
        }
        if (!bodies.inflate(address, msg)) {
            throw new ClientException(ResponseCode.SYSTEM_ERROR, "The message at offset " + commitLogOffset
                    + " on the broker at " + address + " has a compressed body that cannot be inflated within"
                    + " ClientConfig.maxMessageSize; see the client's log for the cause.");
        }
        return msg;
    }

    /** END_TRANSACTION, one-way: commit, roll back or report unknown for a transaction's half messages. */
    public void endTransaction(String address, EndTransactionRequest header, String remark, long timeoutMillis)
            throws ClientException, InterruptedException {
        RemotingCommand request = RemotingCalls.request(RequestCode.END_TRANSACTION, header).setRemark(remark);
        calls.invokeOneway(address, request, timeoutMillis);
    }

    /**
     * END_TRANSACTION, waiting for the broker's answer.
     *
     * @throws ClientException NO_RESPONSE when the broker did not answer (the outcome may or may not be recorded),
     *                         else the broker's refusal (e.g. TRANSACTION_FAILED with its reason)
     */
    public void endTransactionSync(String address, EndTransactionRequest header, long timeoutMillis)
            throws ClientException, InterruptedException {
        calls.invokeExpectSuccess(address, RemotingCalls.request(RequestCode.END_TRANSACTION, header), timeoutMillis);
    }

    static <T extends Record> T decodeHeader(String address, RemotingCommand response, Class<T> type)
            throws ClientException {
        try {
            return HeaderCodec.decode(response.extFields(), type);
        } catch (HeaderException e) {
            throw new ClientException(ResponseCode.SYSTEM_ERROR, "The answer of " + address + " is malformed: "
                    + e.getMessage(), e);
        }
    }
}

package dev.wharf.broker;

import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Heartbeat.HeartbeatData;
import dev.wharf.protocol.body.Heartbeat.ProducerData;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.SendMessageResponse;
import dev.wharf.protocol.header.TransactionHeaders.CheckTransactionStateRequest;
import dev.wharf.protocol.header.TransactionHeaders.EndTransactionRequest;
import dev.wharf.store.GetMessageResult;
import dev.wharf.store.MessageStore;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A transaction producer spoken over the raw protocol: half sends, END_TRANSACTION, heartbeats of a producer
 * group and answers to CHECK_TRANSACTION_STATE. One connection.
 */
final class TransactionProtocol implements AutoCloseable {

    /** A check-back as the producer received it. */
    record Check(CheckTransactionStateRequest header, MessageExt half) {
    }

    final ProtocolClient client;
    final String group;
    final List<Check> checks = new CopyOnWriteArrayList<>();
    private volatile Function<Check, Integer> answer = check -> null;

    TransactionProtocol(String address, String group) {
        this.client = new ProtocolClient(address);
        this.group = group;
        client.onRequest(RequestCode.CHECK_TRANSACTION_STATE, (channel, request) -> {
            CheckTransactionStateRequest header = HeaderCodec.decode(request.extFields(),
                    CheckTransactionStateRequest.class);
            Check check = new Check(header, MessageDecoder.decode(ByteBuffer.wrap(request.body()), true, false));
            checks.add(check);
            Integer type = answer.apply(check);
            if (type != null) {
                RemotingCommand end = ProtocolClient.request(RequestCode.END_TRANSACTION, new EndTransactionRequest(
                        group, header.transactionId(), type, header.commitLogOffset(), true, header.msgId()));
                client.oneway(end);
            }
            return null;
        });
    }

    /** How to answer check-backs: a transaction type, or null for no answer at all. */
    void answerChecks(Function<Check, Integer> answer) {
        this.answer = answer;
    }

    /** Joins the producer group on the broker (check-backs can reach this connection from now on). */
    void heartbeat() throws Exception {
        RemotingCommand response = client.invokeJson(RequestCode.HEART_BEAT, new HeartbeatData(
                "client-" + UUID.randomUUID(), Set.of(new ProducerData(group)), Set.of()));
        if (response.code() != ResponseCode.SUCCESS) {
            throw new AssertionError("heartbeat failed: " + response.remark());
        }
    }

    RemotingCommand sendHalf(String topic, int queueId, String transactionId, String body) throws Exception {
        return sendHalf(topic, queueId, transactionId, body, Map.of());
    }

    RemotingCommand sendHalf(String topic, int queueId, String transactionId, String body, Map<String, String> extra)
            throws Exception {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(MessageProperties.TRANSACTION_PREPARED, "true");
        properties.put(MessageProperties.PRODUCER_GROUP, group);
        if (transactionId != null) {
            // without either, the half has no transaction id at all
            properties.put(MessageProperties.TRANSACTION_ID, transactionId);
            properties.put(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, UUID.randomUUID().toString());
        }
        properties.putAll(extra);
        SendMessageRequest header = new SendMessageRequest(group, topic, 0, queueId,
                MessageSysFlag.TRANSACTION_PREPARED_TYPE, System.currentTimeMillis(), 0,
                MessageDecoder.encodeProperties(properties), 0, null, false);
        return client.invoke(RequestCode.SEND_MESSAGE, header, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends a half and expects it stored. */
    SendMessageResponse sendHalfOk(String topic, int queueId, String transactionId, String body) throws Exception {
        RemotingCommand response = sendHalf(topic, queueId, transactionId, body);
        if (response.code() != ResponseCode.SUCCESS) {
            throw new AssertionError("half send failed: " + ResponseCode.NAMES.name(response.code()) + " " + response.remark());
        }
        return HeaderCodec.decode(response.extFields(), SendMessageResponse.class);
    }

    RemotingCommand end(String transactionId, int type) throws Exception {
        return client.invoke(RequestCode.END_TRANSACTION,
                new EndTransactionRequest(group, transactionId, type, -1, false, null));
    }

    RemotingCommand commit(String transactionId) throws Exception {
        return end(transactionId, MessageSysFlag.TRANSACTION_COMMIT_TYPE);
    }

    RemotingCommand rollback(String transactionId) throws Exception {
        return end(transactionId, MessageSysFlag.TRANSACTION_ROLLBACK_TYPE);
    }

    @Override
    public void close() {
        client.close();
    }

    /** Waits until everything stored so far is dispatched and readable. */
    static void settle(MessageStore store) {
        await().atMost(Duration.ofSeconds(10)).until(() -> store.getConfirmedPhyOffset() >= store.getMaxPhyOffset());
    }

    /** Every message of a queue once everything stored is readable, as a consumer would see them. */
    static List<MessageExt> read(MessageStore store, String topic, int queueId) {
        settle(store);
        List<MessageExt> out = new ArrayList<>();
        long offset = store.getMinOffsetInQueue(topic, queueId);
        while (offset < store.getMaxOffsetInQueue(topic, queueId)) {
            GetMessageResult r = store.getMessage(topic, queueId, offset, 32, 1 << 20, null);
            try {
                for (SelectMappedBufferResult b : r.buffers()) {
                    out.add(MessageDecoder.decode(b.byteBuffer().duplicate(), true, false));
                }
            } finally {
                r.release();
            }
            if (r.nextBeginOffset() <= offset) {
                break;
            }
            offset = r.nextBeginOffset();
        }
        return out;
    }

    static List<String> bodies(MessageStore store, String topic, int queues) {
        List<String> out = new ArrayList<>();
        for (int q = 0; q < queues; q++) {
            for (MessageExt m : read(store, topic, q)) {
                out.add(new String(m.getBody(), StandardCharsets.UTF_8));
            }
        }
        return out;
    }
}

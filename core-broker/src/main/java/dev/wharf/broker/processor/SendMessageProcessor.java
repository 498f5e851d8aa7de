package dev.wharf.broker.processor;

import dev.wharf.broker.processor.PutMessageHook.Refusal;
import dev.wharf.broker.processor.PutMessageHook.SendContext;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageId;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.common.message.Tags;
import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BatchMessageCodec;
import dev.wharf.protocol.RemotingCommandException;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.CompactSendHeader;
import dev.wharf.protocol.header.HeaderException;
import dev.wharf.protocol.header.MessageHeaders;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.SendMessageResponse;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.MessageStore;
import dev.wharf.store.PutMessageResult;
import dev.wharf.store.PutMessageStatus;
import dev.wharf.store.commitlog.AppendResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SEND_MESSAGE, SEND_MESSAGE_V2 and SEND_BATCH_MESSAGE: checks what the client sent, builds the stored
 * message, runs the {@link PutMessageHook}s and stores it. A single message goes through the store's
 * asynchronous put and is answered from its completion, so send threads never wait for a SYNC_FLUSH group
 * commit; a batch is stored with one {@code putMessages} call into one queue.
 */
public final class SendMessageProcessor implements RequestProcessor {

    private static final Logger log = LoggerFactory.getLogger(SendMessageProcessor.class);
    private static final byte[] EMPTY = new byte[0];

    /** A failing store fails every send: one line per interval, not one per message. */
    private final RateLimitedLog warnings = RateLimitedLog.of(log);

    private final String brokerName;
    private final MessageStore store;
    private final TopicConfigManager topics;
    private final List<PutMessageHook> hooks;
    private final LongSupplier storeHost;
    private final AtomicInteger roundRobin = new AtomicInteger();
    /** Where work that may block goes when this processor runs on I/O threads; null: it runs on an executor. */
    private final Executor offload;

    /**
     * @param hooks     the broker's hook list, read on every send (a concurrent list, so hooks can be added live)
     * @param storeHost the broker's packed address, known once the server listens
     */
    public SendMessageProcessor(String brokerName, MessageStore store, TopicConfigManager topics,
                                List<PutMessageHook> hooks, LongSupplier storeHost) {
        this(brokerName, store, topics, hooks, storeHost, null);
    }

    /**
     * @param offload when this processor runs on I/O threads: the executor for what may block there, a batch (it
     *                waits for the disk on its thread) and the first send to a new topic (creating it writes the
     *                topic file)
     */
    public SendMessageProcessor(String brokerName, MessageStore store, TopicConfigManager topics,
                                List<PutMessageHook> hooks, LongSupplier storeHost, Executor offload) {
        this.brokerName = brokerName;
        this.store = store;
        this.topics = topics;
        this.hooks = hooks;
        this.storeHost = storeHost;
        this.offload = offload;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        SendMessageRequest header = sendHeader(request);
        boolean batch = request.code() == RequestCode.SEND_BATCH_MESSAGE || header.batch();
        if (offload != null && (batch || topics.find(header.topic()) == null)) {
            try {
                offload.execute(() -> answerLater(channel, request, header, batch));
            } catch (RejectedExecutionException e) {
                return ProcessorSupport.answer(request, ResponseCode.SYSTEM_BUSY, "[OVERLOAD] broker " + brokerName
                        + " is busy storing messages, try later");
            }
            return null;
        }
        return send(channel, request, header, batch);
    }

    private void answerLater(RemotingChannel channel, RemotingCommand request, SendMessageRequest header,
                             boolean batch) {
        RemotingCommand response;
        try {
            response = send(channel, request, header, batch);
        } catch (RuntimeException e) {
            warnings.warn("send-failed", "Storing a message of topic {} failed: {}", header.topic(), e.toString());
            response = ProcessorSupport.answer(request, ResponseCode.SYSTEM_ERROR,
                    "The broker could not store the message: " + e.getMessage());
        }
        if (response != null && !request.isOneway()) {
            channel.writeResponse(response);
        }
    }

    private RemotingCommand send(RemotingChannel channel, RemotingCommand request, SendMessageRequest header,
                                 boolean batch) {
        String topic = header.topic();
        String nameError = TopicValidator.check(topic);
        if (nameError != null) {
            return ProcessorSupport.answer(request, ResponseCode.MESSAGE_ILLEGAL, nameError);
        }
        if (SystemTopics.isInternal(topic)) {
            return ProcessorSupport.answer(request, ResponseCode.NO_PERMISSION, "The topic " + topic
                    + " is internal to the broker; applications cannot send to it. Send to your own topic (delayed"
                    + " and transactional messages reach the internal topics by themselves).");
        }
        if (!batch) {
            // checked before the topic is looked up, so a refused message never auto-creates its topic
            String error = MessageChecks.checkBodySize(request.body() == null ? 0 : request.body().length,
                    store.config().getMaxMessageSize());
            if (error == null) {
                error = MessageChecks.checkEncodedProperties(header.properties());
            }
            if (error == null && compressed(header) && request.body() != null) {
                error = MessageChecks.checkCompressedBody(request.body(), header.sysFlag(),
                        store.config().getMaxMessageSize());
            }
            if (error != null) {
                return ProcessorSupport.answer(request, ResponseCode.MESSAGE_ILLEGAL, error);
            }
        }
        TopicConfig config = topics.findOrCreateForSend(topic, header.defaultTopicQueueNums());
        if (config == null) {
            return ProcessorSupport.answer(request, ResponseCode.TOPIC_NOT_EXIST, "The topic " + topic
                    + " does not exist on broker " + brokerName + " and autoCreateTopicEnable is off; create the"
                    + " topic first (UPDATE_AND_CREATE_TOPIC, e.g. with the admin tool) or enable"
                    + " autoCreateTopicEnable.");
        }
        if (!config.isWritable()) {
            return ProcessorSupport.answer(request, ResponseCode.NO_PERMISSION, "The topic " + topic
                    + " is not writable on broker " + brokerName + "; send to another broker or restore the topic's"
                    + " write permission.");
        }
        int queueId = header.queueId();
        if (queueId >= config.writeQueueNums()) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, "queueId " + queueId
                    + " is out of range: the topic " + topic + " has " + config.writeQueueNums()
                    + " write queues on broker " + brokerName + " (0.." + (config.writeQueueNums() - 1)
                    + "); refresh the route or send with queueId -1 to let the broker choose.");
        }
        if (queueId < 0) {
            queueId = chooseQueue(header, config.writeQueueNums());
        }
        SendContext context = new SendContext(header.producerGroup(), channel, batch);
        long bornHost = ProcessorSupport.packHost(channel.remoteAddress());
        return batch ? sendBatch(request, header, queueId, context, bornHost)
                : sendOne(channel, request, header, queueId, context, bornHost);
    }

    /**
     * The broker's queue for a send that left the choice to it (the topic had no route at the client yet). The
     * halves of one transaction all go to the queue its id hashes to, the queue the client library pins once it
     * knows the route: a transaction's messages keep to one queue and so to their sending order, even when its
     * first message created the topic. Other messages take turns.
     */
    private int chooseQueue(SendMessageRequest header, int writeQueueNums) {
        String transactionId = halfTransactionId(header);
        if (transactionId != null) {
            return Math.floorMod(transactionId.hashCode(), writeQueueNums);
        }
        return Math.floorMod(roundRobin.getAndIncrement(), writeQueueNums);
    }

    /** The transaction id of a half message (as the transaction hook reads it), or null for any other message. */
    private static String halfTransactionId(SendMessageRequest header) {
        String encoded = header.properties();
        boolean preparedType = MessageSysFlag.transactionType(header.sysFlag()) == MessageSysFlag.TRANSACTION_PREPARED_TYPE;
        if (encoded == null || !preparedType && !encoded.contains(MessageProperties.TRANSACTION_PREPARED)) {
            return null;
        }
        Map<String, String> properties = MessageDecoder.decodeProperties(encoded);
        if (!preparedType && !"true".equalsIgnoreCase(properties.get(MessageProperties.TRANSACTION_PREPARED))) {
            return null;
        }
        String id = properties.get(MessageProperties.TRANSACTION_ID);
        if (id == null || id.isEmpty()) {
            id = properties.get(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID);
        }
        return id == null || id.isEmpty() ? null : id;
    }

    private RemotingCommand sendOne(RemotingChannel channel, RemotingCommand request, SendMessageRequest header,
                                    int queueId, SendContext context, long bornHost) {
        byte[] body = request.body() == null ? EMPTY : request.body();
        MessageToStore msg = build(header, queueId, header.flag(), body, header.properties(), bornHost);
        Refusal refusal = PutMessageHook.runAll(hooks, context, msg);
        if (refusal != null) {
            return ProcessorSupport.answer(request, refusal.responseCode(), refusal.remark());
        }
        store.asyncPutMessage(msg).whenComplete((result, failure) -> {
            RemotingCommand response;
            if (failure != null) {
                warnings.warn("store-failed", "Storing a message of topic {} failed: {}", msg.getTopic(),
                        failure.toString());
                response = ProcessorSupport.answer(request, ResponseCode.SYSTEM_ERROR,
                        "The broker could not store the message: " + failure.getMessage());
            } else {
                response = respond(request, result, msg, null);
            }
            if (!request.isOneway()) {
                channel.writeResponse(response);
            } else if (response.code() != ResponseCode.SUCCESS) {
                // a one-way sender learns nothing of a failed store: the log is the only trace
                warnings.warn("oneway-failed:" + response.code(), "One-way {} of topic {} from {} was not stored:"
                        + " {} {}", request.describe(), msg.getTopic(), channel.remoteAddress(),
                        ResponseCode.NAMES.name(response.code()), response.remark());
            }
        });
        return null;
    }

    private RemotingCommand sendBatch(RemotingCommand request, SendMessageRequest header, int queueId,
                                      SendContext context, long bornHost) {
        List<BatchMessageCodec.Entry> entries;
        boolean rocketMqBatch = CompactSendHeader.isCompact(request.extFields());
        try {
            byte[] body = request.body() == null ? EMPTY : request.body();
            // RocketMQ's clients send their batch entries in their own layout, always with the compact header
            entries = rocketMqBatch ? BatchMessageCodec.decodeRocketMq(body) : BatchMessageCodec.decode(body);
        } catch (IllegalArgumentException e) {
            return ProcessorSupport.answer(request, ResponseCode.MESSAGE_ILLEGAL, "The batch body is malformed: "
                    + e.getMessage() + (rocketMqBatch ? " The batch came with RocketMQ's compact header, so its"
                    + " entries were read in RocketMQ's layout (MessageBatch)." : " Encode batches with"
                    + " BatchMessageCodec."));
        }
        if (entries.isEmpty()) {
            return ProcessorSupport.answer(request, ResponseCode.MESSAGE_ILLEGAL,
                    "The batch holds no message; send at least one.");
        }
        int maxMessageSize = store.config().getMaxMessageSize();
        List<MessageToStore> batch = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            BatchMessageCodec.Entry entry = entries.get(i);
            String error = MessageChecks.checkBodySize(entry.body().length, maxMessageSize);
            if (error == null) {
                error = MessageChecks.checkEncodedProperties(entry.properties());
            }
            if (error == null && compressed(header)) {
                // the header's flags are stored with every entry, so each entry must inflate within the limit
                error = MessageChecks.checkCompressedBody(entry.body(), header.sysFlag(), maxMessageSize);
            }
            if (error != null) {
                return ProcessorSupport.answer(request, ResponseCode.MESSAGE_ILLEGAL,
                        "Message " + (i + 1) + " of the batch: " + error);
            }
            MessageToStore msg = build(header, queueId, entry.flag(), entry.body(), entry.properties(), bornHost);
            Refusal refusal = PutMessageHook.runAll(hooks, context, msg);
            if (refusal != null) {
                return ProcessorSupport.answer(request, refusal.responseCode(),
                        "Message " + (i + 1) + " of the batch: " + refusal.remark());
            }
            if (!msg.getTopic().equals(header.topic()) || msg.getQueueId() != queueId) {
                return ProcessorSupport.answer(request, ResponseCode.MESSAGE_ILLEGAL, "Message " + (i + 1)
                        + " of the batch must go to another topic or queue (e.g. it is delayed or transactional);"
                        + " a batch is stored in one queue, so send such messages one at a time.");
            }
            batch.add(msg);
        }
        PutMessageResult result = store.putMessages(batch);
        return respond(request, result, batch.get(0), batch);
    }

    /** The send header in the long form (SEND_MESSAGE, Wharf's client) or the compact one (RocketMQ's clients). */
    private static SendMessageRequest sendHeader(RemotingCommand request) throws RemotingCommandException {
        try {
            return CompactSendHeader.read(request.extFields());
        } catch (HeaderException e) {
            throw new RemotingCommandException(e.getMessage());
        }
    }

    private static boolean compressed(SendMessageRequest header) {
        return (header.sysFlag() & MessageSysFlag.COMPRESSED) != 0;
    }

    private MessageToStore build(SendMessageRequest header, int queueId, int flag, byte[] body,
                                        String properties, long bornHost) {
        MessageToStore msg = new MessageToStore();
        msg.setTopic(header.topic());
        msg.setQueueId(queueId);
        msg.setFlag(flag);
        msg.setBody(body);
        String encoded = properties == null ? "" : properties;
        msg.setProperties(MessageDecoder.decodeProperties(encoded));
        msg.setPropertiesString(encoded);
        msg.setTagsCode(Tags.hash(msg.getTags()));
        // compression bits (flag and codec) are kept exactly as sent: consumers pick the codec from them
        msg.setSysFlag(header.sysFlag() & MessageSysFlag.PRODUCER_BITS);
        msg.setBornTimestamp(header.bornTimestamp());
        msg.setBornHost(bornHost);
        msg.setStoreHost(storeHost.getAsLong());
        msg.setReconsumeTimes(header.reconsumeTimes());
        msg.setBrokerName(brokerName);
        return msg;
    }

    private RemotingCommand respond(RemotingCommand request, PutMessageResult result, MessageToStore first,
                                    List<MessageToStore> batch) {
        PutMessageStatus status = result.status();
        int code;
        switch (status) {
            case PUT_OK -> code = ResponseCode.SUCCESS;
            case FLUSH_DISK_TIMEOUT -> code = ResponseCode.FLUSH_DISK_TIMEOUT;
            case FLUSH_SLAVE_TIMEOUT -> code = ResponseCode.FLUSH_SLAVE_TIMEOUT;
            case SLAVE_NOT_AVAILABLE -> code = ResponseCode.SLAVE_NOT_AVAILABLE;
            case MESSAGE_ILLEGAL, PROPERTIES_SIZE_EXCEEDED -> {
                return ProcessorSupport.answer(request, ResponseCode.MESSAGE_ILLEGAL, remark(result,
                        "The message breaks a rule of the store."));
            }
            case SERVICE_NOT_AVAILABLE -> {
                // refused before storing (see the put gates): a retry cannot store the message twice
                return ProcessorSupport.answer(request, ResponseCode.SERVICE_NOT_AVAILABLE, remark(result,
                        "The broker " + brokerName + " is not accepting messages now (starting or shutting down);"
                                + " retry on another broker.")).putExt(MessageHeaders.STORED_NOTHING, "true");
            }
            case DISK_FULL, STORE_NOT_WRITABLE -> {
                // the store's own sentence says what is wrong and what to do (free space, restart)
                return ProcessorSupport.answer(request, ResponseCode.SERVICE_NOT_AVAILABLE, remark(result,
                        "The broker " + brokerName + " cannot store messages now (" + status + ")."));
            }
            case OS_PAGE_CACHE_BUSY -> {
                return ProcessorSupport.answer(request, ResponseCode.SYSTEM_BUSY, remark(result,
                        "The broker " + brokerName + " is busy writing; retry shortly."));
            }
            default -> {
                return ProcessorSupport.answer(request, ResponseCode.SYSTEM_ERROR, remark(result,
                        "The broker " + brokerName + " could not store the message (" + status + ")."));
            }
        }
        AppendResult appended = result.appendResult();
        if (appended == null) {
            return ProcessorSupport.answer(request, ResponseCode.SYSTEM_ERROR,
                    "The store reported " + status + " without saying where the message went.");
        }
        String msgId = batch == null ? appended.msgId() : batchMessageIds(appended, batch);
        RemotingCommand response = ProcessorSupport.answer(request, code,
                code == ResponseCode.FLUSH_DISK_TIMEOUT ? "The message is stored but the disk did not confirm it"
                        + " within syncFlushTimeout." : code == ResponseCode.SUCCESS ? null : result.errorMessage());
        return ProcessorSupport.writeHeader(response, new SendMessageResponse(msgId, answeredQueueId(first),
                appended.logicsOffset(), first.getProperty(MessageProperties.TRANSACTION_ID)));
    }

    /**
     * The queue the answer names: a half message's is the queue it will be committed to (the half topic's queue
     * means nothing to the producer, and a transaction sent before its topic had a route learns its queue here).
     */
    private static int answeredQueueId(MessageToStore stored) {
        if (SystemTopics.TRANS_HALF_TOPIC.equals(stored.getTopic())) {
            String real = stored.getProperty(MessageProperties.REAL_QUEUE_ID);
            if (real != null) {
                try {
                    return Integer.parseInt(real);
                } catch (NumberFormatException e) {
                    return stored.getQueueId();
                }
            }
        }
        return stored.getQueueId();
    }

    private static String remark(PutMessageResult result, String fallback) {
        return result.errorMessage() != null ? result.errorMessage() : fallback;
    }

    /**
     * The ids of a batch's records. Records are consecutive, so each one's offset follows from the sizes; if
     * the sizes do not add up to what the store wrote, only the first id (which is certain) is returned.
     */
    private String batchMessageIds(AppendResult appended, List<MessageToStore> batch) {
        long host = batch.get(0).getStoreHost();
        StringBuilder ids = new StringBuilder(batch.size() * (MessageId.LENGTH + 1));
        long offset = appended.wroteOffset();
        long total = 0;
        for (MessageToStore msg : batch) {
            if (ids.length() > 0) {
                ids.append(',');
            }
            ids.append(MessageId.create(host, offset));
            int size = MessageRecord.totalSize(msg.getBody().length,
                    msg.getTopic().getBytes(StandardCharsets.UTF_8).length,
                    MessageChecks.utf8Length(msg.getPropertiesString() == null
                            ? MessageDecoder.encodeProperties(msg.getProperties()) : msg.getPropertiesString()));
            offset += size;
            total += size;
        }
        if (total != appended.wroteBytes()) {
            log.debug("Batch record sizes {} differ from the bytes written {}; answering the first id only", total,
                    appended.wroteBytes());
            return appended.msgId();
        }
        return ids.toString();
    }
}

package dev.wharf.client.producer;

import dev.wharf.client.ClientException;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.common.message.UniqueIdGenerator;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BatchMessageCodec;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A message (or batch) checked and encoded for sending: unique id assigned, body compressed when large,
 * properties encoded. Built once per send, reused by every retry, so the unique id stays the same.
 */
final class OutgoingMessage {

    private static final int COMPRESS_LEVEL = 5;

    final String topic;
    final byte[] body;
    final int sysFlag;
    final int flag;
    final String properties;
    final long bornTimestamp;
    final boolean batch;
    final String uniqueIds;
    final String transactionId;

    private OutgoingMessage(String topic, byte[] body, int sysFlag, int flag, String properties, boolean batch,
                            String uniqueIds, String transactionId) {
        this.topic = topic;
        this.body = body;
        this.sysFlag = sysFlag;
        this.flag = flag;
        this.properties = properties;
        this.bornTimestamp = System.currentTimeMillis();
        this.batch = batch;
        this.uniqueIds = uniqueIds;
        this.transactionId = transactionId;
    }

    SendMessageRequest header(String producerGroup, int queueId, int defaultTopicQueueNums) {
        return new SendMessageRequest(producerGroup, topic, defaultTopicQueueNums, queueId, sysFlag, bornTimestamp,
                flag, properties, 0, null, batch);
    }

    /**
     * Checks and encodes one message; assigns its unique id (UNIQ_KEY) if it has none.
     *
     * @throws ClientException (MESSAGE_ILLEGAL or NO_PERMISSION) saying what is wrong with the message
     */
    static OutgoingMessage of(Message msg, int maxMessageSize, int compressOver) throws ClientException {
        if (msg == null) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "The message is null; build a Message with a "
                    + "topic and a body.");
        }
        checkTopic(msg.getTopic());
        byte[] body = msg.getBody() == null ? new byte[0] : msg.getBody();
        checkSize(body.length, maxMessageSize, "message body");
        if (msg.getUniqueKey() == null) {
            msg.putProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, UniqueIdGenerator.next());
        }
        String properties = checkProperties(msg);
        int sysFlag = 0;
        if (body.length > compressOver) {
            byte[] compressed = MessageDecoder.deflate(body, COMPRESS_LEVEL);
            if (compressed.length < body.length) {
                body = compressed;
                sysFlag |= MessageSysFlag.COMPRESSED;
            }
        }
        if ("true".equals(msg.getProperty(MessageProperties.TRANSACTION_PREPARED))) {
            sysFlag = MessageSysFlag.withTransactionType(sysFlag, MessageSysFlag.TRANSACTION_PREPARED_TYPE);
        }
        return new OutgoingMessage(msg.getTopic(), body, sysFlag, msg.getFlag(), properties, false, msg.getUniqueKey(),
                msg.getTransactionId());
    }

    /**
     * Checks and encodes a batch: one topic, no delayed or transactional messages.
     *
     * @throws ClientException (MESSAGE_ILLEGAL) naming the offending message
     */
    static OutgoingMessage batch(Collection<? extends Message> messages, int maxMessageSize) throws ClientException {
        if (messages == null || messages.isEmpty()) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "The batch is empty; give at least one message.");
        }
        List<Message> list = new ArrayList<>(messages);
        String topic = list.get(0) == null ? null : list.get(0).getTopic();
        checkTopic(topic);
        List<String> ids = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            Message m = list.get(i);
            if (m == null) {
                throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "Message " + i + " of the batch is null.");
            }
            if (!topic.equals(m.getTopic())) {
                throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "Message " + i + " of the batch is for topic "
                        + m.getTopic() + ", the first for " + topic + "; a batch goes to one topic.");
            }
            if (isDelayed(m)) {
                throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "Message " + i + " of the batch is delayed; "
                        + "send delayed messages one by one.");
            }
            if ("true".equals(m.getProperty(MessageProperties.TRANSACTION_PREPARED))) {
                throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "Message " + i + " of the batch is a "
                        + "transactional (half) message; send those one by one through a transaction producer.");
            }
            checkProperties(m);
            if (m.getUniqueKey() == null) {
                m.putProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, UniqueIdGenerator.next());
            }
            ids.add(m.getUniqueKey());
        }
        byte[] body;
        try {
            body = BatchMessageCodec.encode(list);
        } catch (IllegalArgumentException e) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, e.getMessage(), e);
        }
        checkSize(body.length, maxMessageSize, "encoded batch");
        return new OutgoingMessage(topic, body, 0, 0, "", true, String.join(",", ids), null);
    }

    static void checkTopic(String topic) throws ClientException {
        String error = TopicValidator.check(topic);
        if (error != null) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, error);
        }
        if (SystemTopics.isInternal(topic)) {
            throw new ClientException(ResponseCode.NO_PERMISSION, "The topic " + topic + " is internal to the broker; "
                    + "applications cannot send to it. Use delays or a transaction producer instead.");
        }
    }

    private static void checkSize(int size, int max, String what) throws ClientException {
        if (size > max) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "The " + what + " is " + size + " bytes; the limit "
                    + "is " + max + " bytes (Producer.maxMessageSize, which must not exceed the broker's "
                    + "maxMessageSize). Send a smaller message, or store the payload elsewhere and send a reference.");
        }
    }

    /**
     * Checks a message to be sent later in a batch as a send would check it now (topic, size, properties), and
     * assigns its unique id.
     *
     * @return its encoded properties
     * @throws ClientException (MESSAGE_ILLEGAL or NO_PERMISSION) saying what is wrong with the message
     */
    static String checkForBatch(Message msg, int maxMessageSize) throws ClientException {
        if (msg == null) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "The message is null; build a Message with a "
                    + "topic and a body.");
        }
        checkTopic(msg.getTopic());
        checkSize(msg.getBody() == null ? 0 : msg.getBody().length, maxMessageSize, "message body");
        if (msg.getUniqueKey() == null) {
            msg.putProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, UniqueIdGenerator.next());
        }
        return checkProperties(msg);
    }

    /**
     * Encodes held messages, each checked by {@link #checkForBatch} and unchanged since (one topic, none delayed or
     * transactional), as one batch.
     *
     * @param encodedProperties what {@link #checkForBatch} returned for each message
     * @throws ClientException (MESSAGE_ILLEGAL) when the encoded batch is larger than {@code maxMessageSize}
     */
    static OutgoingMessage checkedBatch(List<Message> messages, List<String> encodedProperties, int maxMessageSize)
            throws ClientException {
        byte[] body = BatchMessageCodec.encode(messages, encodedProperties);
        checkSize(body.length, maxMessageSize, "encoded batch");
        StringBuilder ids = new StringBuilder(messages.size() * 33);
        for (Message m : messages) {
            ids.append(ids.length() == 0 ? "" : ",").append(m.getUniqueKey());
        }
        return new OutgoingMessage(messages.get(0).getTopic(), body, 0, 0, "", true, ids.toString(), null);
    }

    /** Whether the message asks for a later delivery (level, time or delay): such a message cannot go in a batch. */
    static boolean isDelayed(Message m) {
        return m.getDelayTimeLevel() > 0 || m.getDeliverTimeMs() > 0 || m.getProperty(MessageProperties.DELAY_MS) != null;
    }

    /** Checks the properties and returns them encoded. */
    private static String checkProperties(Message msg) throws ClientException {
        String error = MessageDecoder.checkProperties(msg.getProperties());
        if (error != null) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, error);
        }
        String encoded = MessageDecoder.encodeProperties(msg.getProperties());
        // UTF-8 takes at most three bytes per char: only a long string can be over the limit
        int bytes = encoded.length() * 3 <= Short.MAX_VALUE ? encoded.length()
                : encoded.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > Short.MAX_VALUE) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "The message properties take " + bytes
                    + " bytes; the limit is " + Short.MAX_VALUE + ". Move large values into the body.");
        }
        return encoded;
    }
}

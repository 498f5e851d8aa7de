package dev.wharf.client.admin;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.ack.AckConsumer;
import dev.wharf.client.ack.PeekCursor;
import dev.wharf.client.ack.PeekResult;
import dev.wharf.client.ack.PeekedMessage;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.route.TopicRoutes;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.RouteData.QueueData;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.body.TopicPerm;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A consumer group's dead-letter queue ({@code %DLQ%{group}}) as operators see it: the messages waiting there,
 * and resending them to the topic they were first sent to.
 *
 * <p>The dead-letter queue is read the way a JMS application reads it as a queue: through per-message
 * acknowledgement with the dead-letter topic's own name as the group. Listing browses what that group has not
 * acknowledged; resending a message acknowledges it, so it leaves the list whatever its position, the broker
 * remembers it across restarts, and an application consuming the dead-letter queue sees the same queue.
 */
final class DeadLetterQueue {

    /** Producer group named in resends. */
    static final String RESEND_PRODUCER_GROUP = "WHARF_DLQ_RESEND";
    private static final int PEEK_BATCH = 32;

    private final ClientInstance client;
    private final ClientConfig config;
    private final String topic;

    DeadLetterQueue(ClientInstance client, ClientConfig config, String group) {
        this.client = client;
        this.config = config;
        this.topic = SystemTopics.dlqTopic(group);
    }

    /** Messages waiting, oldest first within each queue, at most {@code max}. */
    List<MessageExt> list(int max) throws ClientException, InterruptedException {
        List<MessageExt> out = new ArrayList<>();
        if (!exists()) {
            return out; // nothing was ever dead-lettered for this group
        }
        AckConsumer reader = reader();
        try {
            PeekCursor cursor = null;
            do {
                PeekResult page = reader.peek(topic, MessageSelector.all(), cursor, PEEK_BATCH);
                for (PeekedMessage m : page.messages()) {
                    if (out.size() < max) {
                        out.add(m.message());
                    }
                }
                cursor = page.next();
            } while (!cursor.isEnd() && out.size() < max);
        } finally {
            reader.shutdown();
        }
        return out;
    }

    /**
     * Resends every waiting message (id null) or the waiting messages with this id (the producer's unique id,
     * the broker's message id, or the original message id) to their original topic, keeping the unique id, and
     * acknowledges each one resent.
     *
     * @return how many were resent
     * @throws ClientException when one cannot be resent; those before it are resent and acknowledged
     */
    int resend(String msgId) throws ClientException, InterruptedException {
        if (!exists()) {
            return 0;
        }
        AckConsumer reader = reader();
        int resent = 0;
        try {
            PeekCursor cursor = null;
            do {
                PeekResult page = reader.peek(topic, MessageSelector.all(), cursor, PEEK_BATCH);
                for (PeekedMessage m : page.messages()) {
                    if (msgId == null || matches(m.message(), msgId)) {
                        send(m.message());
                        reader.ack(m.message());
                        resent++;
                    }
                }
                cursor = page.next();
            } while (!cursor.isEnd());
        } finally {
            reader.shutdown();
        }
        return resent;
    }

    private boolean exists() throws ClientException, InterruptedException {
        TopicRouteData route = client.nameServer().route(topic);
        return route != null && route.queueDatas() != null && !route.queueDatas().isEmpty();
    }

    private AckConsumer reader() throws ClientException, InterruptedException {
        AckConsumer reader = new AckConsumer(topic, config);
        reader.start();
        try {
            reader.createGroup(topic, InitMode.EARLIEST);
        } catch (ClientException | InterruptedException | RuntimeException e) {
            reader.shutdown();
            throw e;
        }
        return reader;
    }

    private static boolean matches(MessageExt msg, String id) {
        return id.equals(msg.getMsgId()) || id.equals(msg.getOffsetMsgId())
                || id.equals(msg.getProperty(MessageProperties.ORIGIN_MESSAGE_ID));
    }

    private void send(MessageExt dead) throws ClientException, InterruptedException {
        // retried messages name their topic in RETRY_TOPIC; dead letters of per-message acknowledgement (JMS)
        // in DLQ_ORIGIN_TOPIC
        String original = dead.getProperty(MessageProperties.RETRY_TOPIC);
        if (original == null) {
            original = dead.getProperty(MessageProperties.DLQ_ORIGIN_TOPIC);
        }
        if (original == null) {
            original = dead.getProperty(MessageProperties.REAL_TOPIC);
        }
        if (original == null || SystemTopics.isRetryTopic(original) || SystemTopics.isDlqTopic(original)) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "Dead letter " + dead.getMsgId() + " does not name"
                    + " the topic it was first sent to (RETRY_TOPIC or DLQ_ORIGIN_TOPIC); send it again yourself.");
        }
        TopicRouteData route = client.nameServer().route(original);
        String address = route == null ? null : targetAddress(route, dead.getBrokerName());
        if (address == null) {
            throw new ClientException(ResponseCode.TOPIC_NOT_EXIST, "Dead letter " + dead.getMsgId() + " belongs to"
                    + " topic " + original + ", which no broker serves any more; create the topic, then resend.");
        }
        Map<String, String> properties = new HashMap<>(dead.getProperties());
        properties.remove(MessageProperties.RETRY_TOPIC);
        properties.remove(MessageProperties.FIRST_FAILURE_TIME);
        properties.remove(MessageProperties.DLQ_ORIGIN_TOPIC);
        properties.remove(MessageProperties.DLQ_ORIGIN_QUEUE_ID);
        properties.remove(MessageProperties.DLQ_ORIGIN_QUEUE_OFFSET);
        properties.remove(MessageProperties.DLQ_DELIVERY_COUNT);
        properties.remove(MessageProperties.DLQ_REASON);
        properties.remove(MessageProperties.SCHEDULE_SOURCE);
        properties.remove(MessageProperties.DELAY_TIME_LEVEL);
        properties.remove(MessageProperties.MIN_OFFSET);
        properties.remove(MessageProperties.MAX_OFFSET);
        properties.remove(MessageProperties.CONSUME_START_TIME);
        int sysFlag = MessageSysFlag.withTransactionType(dead.getSysFlag(), MessageSysFlag.TRANSACTION_NOT_TYPE);
        SendMessageRequest header = new SendMessageRequest(RESEND_PRODUCER_GROUP, original, 0, -1, sysFlag,
                System.currentTimeMillis(), dead.getFlag(), MessageDecoder.encodeProperties(properties), 0, null, false);
        client.messageApi().send(address, header, dead.getBody(), client.apiTimeoutMillis());
    }

    /** The broker the dead letter came from when it serves the topic, else the first one that does. */
    private static String targetAddress(TopicRouteData route, String preferredBroker) {
        String first = null;
        if (route.queueDatas() != null) {
            for (QueueData q : route.queueDatas()) {
                if ((q.perm() & TopicPerm.WRITE) == 0 || q.writeQueueNums() <= 0) {
                    continue;
                }
                String address = TopicRoutes.masterAddress(route, q.brokerName());
                if (address != null && q.brokerName().equals(preferredBroker)) {
                    return address;
                }
                if (first == null) {
                    first = address;
                }
            }
        }
        return first;
    }
}

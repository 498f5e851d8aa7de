package dev.wharf.server.admin;

import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.client.consumer.PullStatus;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A consumer group's dead-letter queue (the topic {@code %DLQ%{group}}): reading it without moving any offset,
 * and the copy of a dead letter that goes back to the topic it was first sent to.
 *
 * <p>Where a dead letter came from: the broker records the topic a message was first sent to in RETRY_TOPIC when
 * a consumer hands it back, and keeps it when the message moves on to the dead-letter queue; a message that was
 * scheduled carries its topic in REAL_TOPIC.
 */
final class DeadLetters {

    private static final int PULL_BATCH = 32;

    /** Broker bookkeeping of the dead letter that must not travel with the resent copy. */
    private static final Set<String> BOOKKEEPING = Set.of(
            MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, MessageProperties.RETRY_TOPIC, MessageProperties.REAL_TOPIC,
            MessageProperties.REAL_QUEUE_ID, MessageProperties.DELAY_TIME_LEVEL, MessageProperties.DELIVER_TIME_MS,
            MessageProperties.DELAY_MS, MessageProperties.MIN_OFFSET, MessageProperties.MAX_OFFSET,
            MessageProperties.CONSUME_START_TIME, MessageProperties.FIRST_FAILURE_TIME,
            MessageProperties.MAX_RECONSUME_TIMES, MessageProperties.TRANSACTION_PREPARED,
            MessageProperties.TRANSACTION_ID, MessageProperties.TRANSACTION_CHECK_TIMES,
            MessageProperties.PRODUCER_GROUP, MessageProperties.WAIT_STORE_MSG_OK);

    private DeadLetters() {
    }

    /**
     * Up to {@code max} dead letters of the group, queue by queue from the oldest; empty when the group has no
     * dead-letter queue. Reads with the group's name but commits nothing.
     */
    static List<MessageExt> read(AdminSession session, String group, int max)
            throws ClientException, InterruptedException {
        String topic = SystemTopics.dlqTopic(group);
        if (!exists(session, topic)) {
            return List.of();
        }
        PullConsumer consumer = session.pullConsumer(group);
        List<MessageExt> out = new ArrayList<>();
        for (MessageQueue mq : new TreeSet<>(consumer.fetchSubscribeMessageQueues(topic))) {
            long offset = consumer.minOffset(mq);
            long end = consumer.maxOffset(mq);
            while (offset < end && out.size() < max) {
                PullResult r = consumer.pull(mq, null, offset, Math.min(PULL_BATCH, max - out.size()));
                if (r.pullStatus() != PullStatus.FOUND || r.nextBeginOffset() <= offset) {
                    break;
                }
                for (MessageExt m : r.msgFoundList()) {
                    m.setBrokerName(mq.brokerName());
                    out.add(m);
                }
                offset = r.nextBeginOffset();
            }
        }
        return out;
    }

    private static boolean exists(AdminSession session, String topic) throws ClientException, InterruptedException {
        try {
            session.admin().route(topic);
            return true;
        } catch (ClientException e) {
            if (e.responseCode() == ResponseCode.TOPIC_NOT_EXIST) {
                return false;
            }
            throw e;
        }
    }

    /** Whether {@code id} is the dead letter's producer id or broker id. */
    static boolean hasId(MessageExt msg, String id) {
        return id.equalsIgnoreCase(msg.getMsgId()) || id.equalsIgnoreCase(msg.getOffsetMsgId());
    }

    /** The topic the dead letter was first sent to, or null when it does not say. */
    static String originalTopic(MessageExt msg) {
        for (String name : new String[] {MessageProperties.RETRY_TOPIC, MessageProperties.REAL_TOPIC}) {
            String topic = msg.getProperty(name);
            if (topic != null && !topic.isBlank() && !SystemTopics.isRetryTopic(topic) && !SystemTopics.isDlqTopic(topic)) {
                return topic;
            }
        }
        return null;
    }

    /**
     * A new message for the original topic: same body, flag and application properties (tags and keys included),
     * a fresh producer id (so consumers that drop duplicates by id do not drop it), a redelivery count of zero,
     * and ORIGIN_MESSAGE_ID naming the first message, for tracing.
     */
    static Message copyForResend(MessageExt msg, String topic) {
        Map<String, String> properties = new HashMap<>(msg.getProperties());
        BOOKKEEPING.forEach(properties::remove);
        properties.putIfAbsent(MessageProperties.ORIGIN_MESSAGE_ID, msg.getMsgId());
        Message copy = new Message(topic, msg.getBody());
        copy.setFlag(msg.getFlag());
        copy.setProperties(properties);
        return copy;
    }
}

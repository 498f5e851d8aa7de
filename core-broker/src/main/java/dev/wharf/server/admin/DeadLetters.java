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
 * A consumer group's dead-letter queue (the topic {@code %DLQ%{group}}) as operators see it: the dead letters
 * waiting there, and the copies that go back to the topic each was first sent to.
 *
 * <p>What was resent is remembered as the group's consumer offset on the dead-letter topic: listing starts there
 * (so the group's consumer progress shows the dead letters nobody handled as lag), resending everything moves it
 * to the end, and resending one message moves it past that message when it is the first one waiting in its queue.
 *
 * <p>Where a dead letter came from: the broker records the topic a message was first sent to in RETRY_TOPIC when
 * a consumer hands it back, and keeps it when the message moves on to the dead-letter queue; a message that was
 * scheduled carries its topic in REAL_TOPIC. Not thread-safe; one per command run.
 */
final class DeadLetters {

    /** A dead letter and the queue it waits in. */
    record Letter(MessageQueue queue, MessageExt msg) {
    }

    private static final int PULL_BATCH = 32;

    /** Broker bookkeeping of the dead letter that must not travel with the resent copy. */
    private static final Set<String> BOOKKEEPING = Set.of(
            MessageProperties.RETRY_TOPIC, MessageProperties.REAL_TOPIC, MessageProperties.REAL_QUEUE_ID,
            MessageProperties.DELAY_TIME_LEVEL, MessageProperties.DELIVER_TIME_MS, MessageProperties.DELAY_MS,
            MessageProperties.MIN_OFFSET, MessageProperties.MAX_OFFSET, MessageProperties.CONSUME_START_TIME,
            MessageProperties.FIRST_FAILURE_TIME, MessageProperties.TRANSACTION_PREPARED,
            MessageProperties.TRANSACTION_ID, MessageProperties.TRANSACTION_CHECK_TIMES,
            MessageProperties.PRODUCER_GROUP, MessageProperties.WAIT_STORE_MSG_OK);

    private final AdminSession session;
    private final String group;
    private final String topic;
    private PullConsumer consumer;
    /** The first waiting offset of each queue read. */
    private final Map<MessageQueue, Long> firstWaiting = new HashMap<>();

    DeadLetters(AdminSession session, String group) {
        this.session = session;
        this.group = group;
        this.topic = SystemTopics.dlqTopic(group);
    }

    String topic() {
        return topic;
    }

    /**
     * Up to {@code max} dead letters waiting (after the remembered position), queue by queue from the oldest;
     * empty when nothing was ever dead-lettered for the group.
     */
    List<Letter> waiting(int max) throws ClientException, InterruptedException {
        if (!exists()) {
            return List.of();
        }
        if (consumer == null) {
            consumer = session.pullConsumer(group);
        }
        List<Letter> out = new ArrayList<>();
        for (MessageQueue mq : new TreeSet<>(consumer.fetchSubscribeMessageQueues(topic))) {
            long committed = consumer.fetchConsumeOffset(mq, true);
            long offset = Math.max(committed, consumer.minOffset(mq));
            long end = consumer.maxOffset(mq);
            firstWaiting.put(mq, offset);
            while (offset < end && out.size() < max) {
                PullResult r = consumer.pull(mq, null, offset, Math.min(PULL_BATCH, max - out.size()));
                if (r.pullStatus() != PullStatus.FOUND || r.nextBeginOffset() <= offset) {
                    break;
                }
                for (MessageExt m : r.msgFoundList()) {
                    m.setBrokerName(mq.brokerName());
                    out.add(new Letter(mq, m));
                }
                offset = r.nextBeginOffset();
            }
        }
        return out;
    }

    /**
     * Remembers that the letter was resent: moves the group's offset past it when every letter before it in its
     * queue was resent too ({@code all}) or it is the first one waiting. Committed when the session closes.
     */
    void resent(Letter letter, boolean all) {
        long offset = letter.msg().getQueueOffset();
        Long first = firstWaiting.get(letter.queue());
        if (all || (first != null && first == offset)) {
            consumer.updateConsumeOffset(letter.queue(), offset + 1);
            firstWaiting.put(letter.queue(), offset + 1);
        }
    }

    private boolean exists() throws ClientException, InterruptedException {
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

    /** Whether {@code id} is the dead letter's producer id, broker id or original message id. */
    static boolean hasId(MessageExt msg, String id) {
        return id.equalsIgnoreCase(msg.getMsgId()) || id.equalsIgnoreCase(msg.getOffsetMsgId())
                || id.equalsIgnoreCase(msg.getProperty(MessageProperties.ORIGIN_MESSAGE_ID));
    }

    /** The topic the dead letter was first sent to, or null when it does not say. */
    static String originalTopic(MessageExt msg) {
        for (String name : new String[] {MessageProperties.RETRY_TOPIC, MessageProperties.REAL_TOPIC}) {
            String t = msg.getProperty(name);
            if (t != null && !t.isBlank() && !SystemTopics.isRetryTopic(t) && !SystemTopics.isDlqTopic(t)) {
                return t;
            }
        }
        return null;
    }

    /**
     * The message that goes back to the original topic: same body, flag, producer id (UNIQ_KEY) and application
     * properties (tags and keys included); the broker's retry bookkeeping is dropped, so its redelivery count
     * starts again at zero.
     */
    static Message copyForResend(MessageExt msg, String topic) {
        Map<String, String> properties = new HashMap<>(msg.getProperties());
        BOOKKEEPING.forEach(properties::remove);
        Message copy = new Message(topic, msg.getBody());
        copy.setFlag(msg.getFlag());
        copy.setProperties(properties);
        return copy;
    }
}

package dev.wharf.jms.engine;

import dev.wharf.client.ClientException;
import dev.wharf.client.producer.LocalTransaction;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Chooses the queue of every message one session sends, for the ordering Jakarta Messaging 3.1 promises
 * (6.2.9.1: messages sent by a session to a destination are received in the order sent).
 *
 * <p>A broker topic has several queues and consumers read them in parallel, so order holds only within a queue.
 * The session therefore sticks to one queue per destination: chosen from the topic's queues by a random key of
 * the session (so that sessions spread over the queues), kept while the route still lists it. A message with a
 * {@code JMSXGroupID} goes to the queue the hash of the group id picks, the same in every session and every JVM,
 * so a group stays in order whoever sends it. A topic the client has no route for yet (not created) is sent to
 * with "broker chooses"; the queue the broker chose becomes the session's queue (and the next messages go there
 * even before the new topic's route reaches the client), unless the message was scheduled (its answer names the
 * schedule's queue). When the session's queue does
 * not answer and another broker serves the topic, the session moves to a queue of that broker and sends once
 * more (order across the move is not kept; availability wins).
 *
 * <p>Not thread-safe: one per session, used by one thread at a time (the session's thread, or its async-send
 * thread while the session's thread waits for it).
 */
public final class SessionQueues {

    private final int sessionKey = ThreadLocalRandom.current().nextInt();
    private final Map<String, MessageQueue> pinned = new HashMap<>();

    /**
     * Sends a message to its topic's queue as described above.
     *
     * @param groupId the message's JMSXGroupID, or null
     */
    public SendResult send(Producer producer, Message message, String groupId)
            throws ClientException, InterruptedException {
        String topic = message.getTopic();
        List<MessageQueue> queues = routedQueues(producer, topic);
        MessageQueue mq = choose(queues, topic, groupId);
        if (mq == null) {
            SendResult result = producer.send(message);
            return isScheduled(message) ? result : remember(topic, groupId, result);
        }
        try {
            return producer.send(message, mq);
        } catch (ClientException e) {
            MessageQueue other = queues == null ? null : otherBroker(queues, mq, e);
            if (other == null) {
                throw e;
            }
            if (groupId == null) {
                pinned.put(topic, other);
            }
            return producer.send(message, other);
        }
    }

    /**
     * Sends a message of a transaction: to the session's queue of the topic like {@link #send}, but without moving
     * to another broker (a transaction's messages stay on one broker). A topic without a route (it does not exist
     * yet) is sent to with "broker chooses"; the answer to a half message does not say which queue the broker
     * chose, so the next messages of the topic may go to another queue: only the first transaction to a new topic
     * can therefore be consumed out of order.
     */
    public SendResult send(Producer producer, LocalTransaction transaction, Message message, String groupId)
            throws ClientException, InterruptedException {
        String topic = message.getTopic();
        MessageQueue mq = groupId == null ? transaction.queueOf(topic) : null;
        if (mq != null) {
            // the transaction placed the topic before this session knew a route for it: keep to that queue, now
            // and in the session's later transactions
            pinned.put(topic, mq);
            return transaction.send(message, mq);
        }
        mq = choose(routedQueues(producer, topic), topic, groupId);
        if (mq == null) {
            return transaction.send(message);
        }
        return transaction.send(message, mq);
    }

    /** The queue for a message, or null to let the client (or broker) choose because no route is known yet. */
    private MessageQueue choose(List<MessageQueue> queues, String topic, String groupId) {
        if (queues == null) {
            // the broker created the topic with an earlier message and the route has not reached the client yet:
            // keep to the queue that message went to
            return groupId == null ? pinned.get(topic) : null;
        }
        if (groupId != null) {
            return queues.get(Math.floorMod(groupId.hashCode(), queues.size()));
        }
        MessageQueue mq = pinned.get(topic);
        if (mq == null || !queues.contains(mq)) {
            mq = queues.get(Math.floorMod(sessionKey, queues.size()));
            pinned.put(topic, mq);
        }
        return mq;
    }

    /**
     * Whether the broker holds the message in its schedule first: the answer then names the schedule's queue,
     * not the one of the message's topic.
     */
    private static boolean isScheduled(Message message) {
        return message.getProperty(MessageProperties.DELIVER_TIME_MS) != null
                || message.getProperty(MessageProperties.DELAY_MS) != null
                || message.getProperty(MessageProperties.DELAY_TIME_LEVEL) != null;
    }

    private SendResult remember(String topic, String groupId, SendResult result) {
        if (groupId == null && result.messageQueue() != null && result.messageQueue().queueId() >= 0) {
            pinned.put(topic, result.messageQueue());
        }
        return result;
    }

    /** The topic's writable queues, or null when the client knows no route for it. */
    private static List<MessageQueue> routedQueues(Producer producer, String topic)
            throws ClientException, InterruptedException {
        try {
            return producer.fetchPublishMessageQueues(topic);
        } catch (ClientException e) {
            if (e.responseCode() == ResponseCode.TOPIC_NOT_EXIST || e.storedNothing()) {
                // no route, or no master in it now (a failover under way): the send waits for one
                return null;
            }
            throw e;
        }
    }

    /** A queue on another broker to retry on, when the failure says the broker did not work and one exists. */
    private MessageQueue otherBroker(List<MessageQueue> queues, MessageQueue failed, ClientException e) {
        boolean brokerTrouble = e.isNoResponse() || e.responseCode() == ResponseCode.SERVICE_NOT_AVAILABLE
                || e.responseCode() == ResponseCode.SYSTEM_BUSY;
        if (!brokerTrouble) {
            return null;
        }
        List<MessageQueue> others = new ArrayList<>();
        for (MessageQueue q : queues) {
            if (!q.brokerName().equals(failed.brokerName())) {
                others.add(q);
            }
        }
        return others.isEmpty() ? null : others.get(Math.floorMod(sessionKey, others.size()));
    }

    /** Forgets the queue chosen for a topic (e.g. after the topic was deleted). */
    public void forget(String topic) {
        pinned.remove(topic);
    }
}

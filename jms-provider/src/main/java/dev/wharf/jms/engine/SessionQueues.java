package dev.wharf.jms.engine;

import dev.wharf.client.ClientException;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.message.Message;
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
 * even before the new topic's route reaches the client). When the session's queue does
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
        if (queues == null) {
            MessageQueue known = groupId == null ? pinned.get(topic) : null;
            if (known != null) {
                // the broker created the topic with the first message, the route is not known yet: same queue
                return producer.send(message, known);
            }
            SendResult result = producer.send(message);
            if (groupId == null) {
                pinned.put(topic, result.messageQueue());
            }
            return result;
        }
        MessageQueue mq;
        if (groupId != null) {
            mq = queues.get(Math.floorMod(groupId.hashCode(), queues.size()));
        } else {
            mq = pinned.get(topic);
            if (mq == null || !queues.contains(mq)) {
                mq = queues.get(Math.floorMod(sessionKey, queues.size()));
                pinned.put(topic, mq);
            }
        }
        try {
            return producer.send(message, mq);
        } catch (ClientException e) {
            MessageQueue other = otherBroker(queues, mq, e);
            if (other == null) {
                throw e;
            }
            if (groupId == null) {
                pinned.put(topic, other);
            }
            return producer.send(message, other);
        }
    }

    /** The topic's writable queues, or null when the client knows no route for it. */
    private static List<MessageQueue> routedQueues(Producer producer, String topic)
            throws ClientException, InterruptedException {
        try {
            return producer.fetchPublishMessageQueues(topic);
        } catch (ClientException e) {
            if (e.responseCode() == ResponseCode.TOPIC_NOT_EXIST) {
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

package dev.wharf.jms.core;

import dev.wharf.client.ClientException;
import dev.wharf.common.message.UniqueIdGenerator;
import dev.wharf.jms.destination.WharfDestination;
import dev.wharf.jms.destination.WharfTemporaryDestination;
import dev.wharf.jms.engine.OrderedSends;
import dev.wharf.jms.engine.SessionQueues;
import dev.wharf.jms.error.JmsErrors;
import dev.wharf.jms.message.WharfMessage;
import dev.wharf.jms.message.WireProperties;
import jakarta.jms.CompletionListener;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;

/**
 * How one session sends: stamps the headers a send sets (Jakarta Messaging 3.1, 3.4), converts the message to
 * its stored form, and hands it to the broker through the session's queue choice ({@link SessionQueues}), or
 * queues it for the session's send thread when a completion listener is given ({@link OrderedSends}).
 *
 * <p>An asynchronous send converts the message before it returns, so what is sent is the message as it was at
 * the call; the application may reuse the object at once (7.3.6 leaves this to the provider; copying is the
 * safe choice). A synchronous send first waits for the session's queued asynchronous sends, so the session's
 * messages keep their order whichever way they were sent.
 *
 * <p>In a transacted session the messages are half messages of the session's transaction
 * ({@link SessionTransaction}), still in the session's queue of each destination.
 *
 * <p>Not thread-safe: it belongs to its session.
 */
final class SessionSender {

    private static final String GROUP_ID = "JMSXGroupID";

    private final WharfConnection connection;
    private final SessionQueues queues = new SessionQueues();
    private final OrderedSends async;
    /** The transaction of a transacted session, else null. */
    private final SessionTransaction transaction;

    SessionSender(WharfSession session, WharfConnection connection, SessionTransaction transaction) {
        this.connection = connection;
        this.transaction = transaction;
        this.async = new OrderedSends("wharf-jms-send-" + connection.link().connectionId().substring(24) + "-"
                + session.id());
    }

    void send(WharfDestination destination, Message message, int deliveryMode, int priority, long timeToLive,
              ProducerSettings settings, CompletionListener listener) throws JMSException {
        if (message == null) {
            throw new MessageFormatException("The message is null; create one with the session and send that.");
        }
        if (destination instanceof WharfTemporaryDestination t && t.isDeleted()) {
            throw new InvalidDestinationException("The " + t.kind().label() + " " + t.getName() + " was deleted;"
                    + " create a new one.");
        }
        stamp(message, destination, deliveryMode, priority, timeToLive, settings);
        // A message of another provider is copied once, through the interfaces only; everything after reads the
        // copy, whose absent optional properties (JMSXGroupID...) simply read as null (3.12).
        WharfMessage own = connection.codec().adopt(message);
        dev.wharf.common.message.Message wire = connection.codec().toWharf(own, destination.getName());
        wire.putProperty(WireProperties.CONNECTION_ID, connection.link().connectionId());
        String clientId = connection.clientIdForSends();
        if (clientId != null) {
            wire.putProperty(WireProperties.CLIENT_ID, clientId);
        }
        String groupId = groupId(own);
        if (listener == null) {
            if (!async.isCallbackThread()) {
                awaitAsync();
            }
            store(destination, wire, groupId);
            return;
        }
        try {
            async.submit(() -> {
                try {
                    store(destination, wire, groupId);
                } catch (JMSException e) {
                    listener.onException(message, e);
                    return;
                }
                listener.onCompletion(message);
            });
        } catch (java.lang.IllegalStateException e) {
            throw JmsErrors.closed("session");
        }
    }

    /** Sends a message already in the broker's form; see {@link WharfSession#sendNative}. */
    String sendNative(dev.wharf.common.message.Message wire, String shardingKey) throws JMSException {
        if (wire == null || wire.getTopic() == null) {
            throw new MessageFormatException("The message or its topic is null; give a message with a topic.");
        }
        if (wire.getUniqueKey() == null) {
            wire.putProperty(dev.wharf.common.message.MessageProperties.UNIQUE_CLIENT_MESSAGE_ID,
                    UniqueIdGenerator.next());
        }
        wire.putProperty(WireProperties.CONNECTION_ID, connection.link().connectionId());
        if (!async.isCallbackThread()) {
            awaitAsync();
        }
        String topic = wire.getTopic();
        WharfDestination destination = dev.wharf.jms.destination.Destinations.create(
                dev.wharf.jms.destination.DestinationKind.TOPIC, topic);
        store(destination, wire, shardingKey);
        return wire.getUniqueKey();
    }

    /**
     * Sets the headers a send sets, on the application's own message object (3.4.1 to 3.4.12), also when it is
     * a message of another provider: its setters are the only way to give the headers back to the application.
     */
    private static void stamp(Message message, WharfDestination destination, int deliveryMode, int priority,
                              long timeToLive, ProducerSettings settings) throws JMSException {
        long now = System.currentTimeMillis();
        message.setJMSDestination(destination);
        message.setJMSDeliveryMode(deliveryMode);
        message.setJMSPriority(priority);
        message.setJMSExpiration(timeToLive > 0 ? now + timeToLive : 0);
        message.setJMSTimestamp(settings.disableTimestamp() ? 0 : now);
        message.setJMSDeliveryTime(now + settings.deliveryDelay());
        message.setJMSMessageID(settings.disableMessageId() ? null : "ID:" + UniqueIdGenerator.next());
    }

    private static String groupId(WharfMessage message) {
        Object group = message.getObjectProperty(GROUP_ID);
        return group instanceof String s && !s.isEmpty() ? s : null;
    }

    private void store(WharfDestination destination, dev.wharf.common.message.Message wire, String groupId)
            throws JMSException {
        if (transaction != null) {
            transaction.send(queues, wire, groupId, destination.kind().label() + " " + destination.getName());
            return;
        }
        try {
            queues.send(connection.link().producer(), wire, groupId);
        } catch (ClientException e) {
            if (e.isNoResponse()) {
                connection.suspectBroker();
            }
            throw JmsErrors.fromClient(e, "send to the " + destination.kind().label() + " " + destination.getName());
        } catch (InterruptedException e) {
            throw JmsErrors.translate("send to the " + destination.kind().label() + " " + destination.getName(), e);
        }
    }

    /** Waits until the session's asynchronous sends completed and their listeners returned. */
    void awaitAsync() throws JMSException {
        if (!async.hasPending()) {
            return;
        }
        try {
            async.awaitIdle();
        } catch (InterruptedException e) {
            throw JmsErrors.translate("wait for the asynchronous sends of the session", e);
        }
    }

    boolean isCallbackThread() {
        return async.isCallbackThread();
    }

    /** Waits for the queued sends and ends the send thread. */
    void close() throws JMSException {
        try {
            async.shutdown();
        } catch (InterruptedException e) {
            throw JmsErrors.translate("wait for the asynchronous sends of the session", e);
        }
    }
}

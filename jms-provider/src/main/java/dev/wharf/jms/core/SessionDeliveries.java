package dev.wharf.jms.core;

import dev.wharf.client.ack.PoppedMessage;
import dev.wharf.jms.engine.Leased;
import dev.wharf.jms.error.JmsErrors;
import dev.wharf.jms.message.BodyType;
import dev.wharf.jms.message.MessageAcknowledger;
import dev.wharf.jms.message.WharfMessage;
import dev.wharf.jms.message.WireProperties;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageListener;
import jakarta.jms.Session;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands a session's popped messages to the application: checks them (expired messages and, for noLocal
 * consumers, the connection's own are finished and dropped: Jakarta Messaging 3.1, 3.4.9 and 8.3), converts them
 * to JMS messages, gives them to a receive or a listener, and tells {@link SessionAcks} what happened. A listener
 * that throws in AUTO_ACKNOWLEDGE or DUPS_OK_ACKNOWLEDGE gets the message again at once (8.7): with no redelivery
 * delay the consumer's prefetched messages are given back too, so the failed message comes before newer ones.
 */
final class SessionDeliveries {

    private static final Logger LOG = LoggerFactory.getLogger(SessionDeliveries.class);

    private final WharfSession session;
    private final WharfConnection connection;
    private final SessionAcks acks;
    private final int mode;
    private final long redeliveryDelay;
    private final MessageAcknowledger acknowledger;
    /** Receives between taking a message from a buffer and returning it; guarded by the session's lock. */
    private int receivesInProgress;

    SessionDeliveries(WharfSession session, WharfConnection connection, SessionAcks acks, int mode,
                      long redeliveryDelay, MessageAcknowledger acknowledger) {
        this.session = session;
        this.connection = connection;
        this.acks = acks;
        this.mode = mode;
        this.redeliveryDelay = redeliveryDelay;
        this.acknowledger = acknowledger;
    }

    private boolean lazyModes() {
        return mode == Session.AUTO_ACKNOWLEDGE || mode == Session.DUPS_OK_ACKNOWLEDGE;
    }

    /**
     * Refuses a receive while the session delivers to message listeners: such a session belongs to its delivery
     * thread (6.2.4).
     */
    void checkReceiveAllowed(WharfMessageConsumer consumer) throws JMSException {
        if (consumer.isClosed()) {
            throw JmsErrors.closed("message consumer");
        }
        session.checkOpen();
        for (WharfMessageConsumer c : session.consumers()) {
            if (c.listener() != null) {
                throw new IllegalStateException("This session delivers messages to a message listener, so its"
                        + " consumers cannot receive synchronously; use another session for receive().");
            }
        }
    }

    /** A receive took a message from the buffer (caller holds the lock). */
    void receiving(WharfMessageConsumer consumer) {
        receivesInProgress++;
    }

    private void received() {
        session.lock.lock();
        try {
            receivesInProgress--;
            session.changed.signalAll();
        } finally {
            session.lock.unlock();
        }
    }

    /** Hands a message to a receive: checked, converted and acknowledged per the mode; null when dropped. */
    Message deliverToReceiver(WharfMessageConsumer consumer, Leased l) {
        try {
            WharfMessage m = prepare(consumer, l);
            if (m != null) {
                acks.received(l);
            }
            return m;
        } finally {
            received();
        }
    }

    /** What a receiveBody got: a body, or nothing because the message was dropped (expired, own). */
    record Body<T>(boolean dropped, T value) {
    }

    /**
     * Hands a message's body to the simplified API's receiveBody (see
     * {@link WharfMessageConsumer#receiveBody}).
     */
    <T> Body<T> deliverBody(WharfMessageConsumer consumer, Leased l, Class<T> type) throws JMSException {
        try {
            WharfMessage m = prepare(consumer, l);
            if (m == null) {
                return new Body<>(true, null);
            }
            T value;
            try {
                if (m.bodyType() == BodyType.MESSAGE || m.bodyType() == BodyType.STREAM) {
                    throw new MessageFormatException("receiveBody cannot return the body of a " + (m.bodyType()
                            == BodyType.MESSAGE ? "message without a body" : "stream message") + "; use receive().");
                }
                value = m.getBody(type);
            } catch (MessageFormatException e) {
                if (lazyModes()) {
                    consumer.pushBack(l);
                } else {
                    acks.received(l);
                }
                throw e;
            }
            acks.received(l);
            return new Body<>(false, value);
        } finally {
            received();
        }
    }

    /** Hands a message to its consumer's listener, on the delivery thread. */
    void deliverToListener(WharfMessageConsumer consumer, Leased l) {
        MessageListener listener = consumer.listener();
        if (listener == null) {
            consumer.pushBack(l);
            return;
        }
        WharfMessage m = prepare(consumer, l);
        if (m == null) {
            return;
        }
        acks.beforeListener(l);
        boolean failed = false;
        try {
            listener.onMessage(m);
        } catch (RuntimeException e) {
            failed = true;
            LOG.warn("The message listener of {} threw {}; {}", consumer, e.toString(),
                    lazyModes() ? "the message will be delivered again"
                            : "the session goes on with the next message");
        }
        CompletableFuture<Void> givenBack = acks.afterListener(l, failed);
        if (givenBack != null && redeliveryDelay == 0) {
            try {
                givenBack.join();
            } catch (RuntimeException e) {
                return; // logged by the acknowledgements; the message comes back when its lease ends
            }
            List<PoppedMessage> buffered;
            session.lock.lock();
            try {
                buffered = consumer.takeBuffered();
            } finally {
                session.lock.unlock();
            }
            SessionAcks.release(consumer.group(), buffered, 0, false).exceptionally(e -> null).join();
        }
    }

    /** Whether this connection, or another with its client id, published the message (8.3.3 noLocal). */
    private boolean isLocal(PoppedMessage pm) {
        if (connection.link().connectionId().equals(pm.getProperty(WireProperties.CONNECTION_ID))) {
            return true;
        }
        String clientId = connection.clientIdForSends();
        return clientId != null && clientId.equals(pm.getProperty(WireProperties.CLIENT_ID));
    }

    /**
     * Checks a popped message and turns it into the application's message: expired messages and, for noLocal
     * consumers, this connection's own are acknowledged and dropped (null); a message that cannot be read is
     * given back as delivered, so it reaches the dead-letter queue after maxReconsumeTimes.
     */
    private WharfMessage prepare(WharfMessageConsumer consumer, Leased l) {
        PoppedMessage pm = l.message();
        String expiration = pm.getProperty(WireProperties.EXPIRATION);
        if (expiration != null && isPast(expiration)) {
            acks.discard(l);
            return null;
        }
        if (consumer.spec().noLocal() && isLocal(pm)) {
            acks.discard(l);
            return null;
        }
        try {
            return connection.codec().fromWharf(pm, Math.max(1, pm.deliveryCount()), consumer.spec().destination(),
                    acknowledger);
        } catch (JMSException | RuntimeException e) {
            LOG.warn("A message of {} cannot be read ({}); it is given back and will reach the dead-letter queue"
                    + " %DLQ%{} after {} deliveries", consumer.spec().destination(), e.getMessage(),
                    consumer.spec().group(), connection.link().options().getMaxReconsumeTimes() + 1);
            SessionAcks.release(l.group(), List.of(pm), 0, true);
            return null;
        }
    }

    private static boolean isPast(String expiration) {
        try {
            long at = Long.parseLong(expiration);
            return at > 0 && at <= System.currentTimeMillis();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Waits until no receive is handing out a message (the session closes). */
    void awaitReceives() {
        session.lock.lock();
        try {
            while (receivesInProgress > 0) {
                session.changed.awaitUninterruptibly();
            }
        } finally {
            session.lock.unlock();
        }
    }
}

package dev.wharf.jms.core;

import dev.wharf.jms.destination.Destinations;
import dev.wharf.jms.destination.WharfDestination;
import dev.wharf.jms.error.JmsErrors;
import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueSender;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;

/**
 * A message producer of a session: its settings ({@link ProducerSettings}) and, unless it is anonymous, its
 * destination; the session does the sending (Jakarta Messaging 3.1, 7 "Sending messages"). A send without a
 * completion listener returns once the broker stored the message (persistent) or accepted it (non-persistent);
 * a send with one returns at once and the listener is called on the session's send thread, in send order.
 *
 * <p>Not thread-safe: it belongs to its session's thread.
 */
public class WharfMessageProducer implements MessageProducer, QueueSender, TopicPublisher {

    private final WharfSession session;
    private final WharfDestination destination;
    private final ProducerSettings settings = new ProducerSettings();
    private volatile boolean closed;

    WharfMessageProducer(WharfSession session, WharfDestination destination) {
        this.session = session;
        this.destination = destination;
    }

    /** The settings a {@code JMSProducer} or a test may share; every send reads them. */
    ProducerSettings settings() {
        return settings;
    }

    // ---------------------------------------------------------------- settings

    @Override
    public void setDisableMessageID(boolean value) throws JMSException {
        checkOpen();
        settings.disableMessageId(value);
    }

    @Override
    public boolean getDisableMessageID() throws JMSException {
        checkOpen();
        return settings.disableMessageId();
    }

    @Override
    public void setDisableMessageTimestamp(boolean value) throws JMSException {
        checkOpen();
        settings.disableTimestamp(value);
    }

    @Override
    public boolean getDisableMessageTimestamp() throws JMSException {
        checkOpen();
        return settings.disableTimestamp();
    }

    @Override
    public void setDeliveryMode(int deliveryMode) throws JMSException {
        checkOpen();
        settings.deliveryMode(deliveryMode);
    }

    @Override
    public int getDeliveryMode() throws JMSException {
        checkOpen();
        return settings.deliveryMode();
    }

    @Override
    public void setPriority(int defaultPriority) throws JMSException {
        checkOpen();
        settings.priority(defaultPriority);
    }

    @Override
    public int getPriority() throws JMSException {
        checkOpen();
        return settings.priority();
    }

    @Override
    public void setTimeToLive(long timeToLive) throws JMSException {
        checkOpen();
        settings.timeToLive(timeToLive);
    }

    @Override
    public long getTimeToLive() throws JMSException {
        checkOpen();
        return settings.timeToLive();
    }

    @Override
    public void setDeliveryDelay(long deliveryDelay) throws JMSException {
        checkOpen();
        settings.deliveryDelay(deliveryDelay);
    }

    @Override
    public long getDeliveryDelay() throws JMSException {
        checkOpen();
        return settings.deliveryDelay();
    }

    @Override
    public Destination getDestination() throws JMSException {
        checkOpen();
        return destination;
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return destination instanceof Queue q ? q : null;
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        return destination instanceof Topic t ? t : null;
    }

    // ---------------------------------------------------------------- close

    /**
     * Closes the producer once its asynchronous sends completed (the session's, which run in one queue).
     *
     * @throws IllegalStateException when called from a completion listener of this session
     */
    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        if (session.isCompletionListenerThread()) {
            throw new IllegalStateException("A completion listener must not close its own producer; close it from"
                    + " another thread once the listener returned.");
        }
        session.awaitAsyncSends();
        closed = true;
        session.producerClosed(this);
    }

    /** Closes without waiting (the session closes its producers after it waited itself). */
    void closeQuietly() {
        closed = true;
    }

    private void checkOpen() throws IllegalStateException {
        if (closed) {
            throw JmsErrors.closed("message producer");
        }
        session.checkOpen();
    }

    // ---------------------------------------------------------------- sends to the producer's destination

    @Override
    public void send(Message message) throws JMSException {
        send(message, settings.deliveryMode(), settings.priority(), settings.timeToLive());
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive) throws JMSException {
        doSend(ownDestination(), message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Message message, CompletionListener completionListener) throws JMSException {
        send(message, settings.deliveryMode(), settings.priority(), settings.timeToLive(), completionListener);
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive,
                     CompletionListener completionListener) throws JMSException {
        doSend(ownDestination(), message, deliveryMode, priority, timeToLive, requireListener(completionListener));
    }

    // ---------------------------------------------------------------- sends of an anonymous producer

    @Override
    public void send(Destination destination, Message message) throws JMSException {
        send(destination, message, settings.deliveryMode(), settings.priority(), settings.timeToLive());
    }

    @Override
    public void send(Destination destination, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        doSend(givenDestination(destination), message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Destination destination, Message message, CompletionListener completionListener)
            throws JMSException {
        send(destination, message, settings.deliveryMode(), settings.priority(), settings.timeToLive(),
                completionListener);
    }

    @Override
    public void send(Destination destination, Message message, int deliveryMode, int priority, long timeToLive,
                     CompletionListener completionListener) throws JMSException {
        doSend(givenDestination(destination), message, deliveryMode, priority, timeToLive,
                requireListener(completionListener));
    }

    // ---------------------------------------------------------------- QueueSender and TopicPublisher

    @Override
    public void send(Queue queue, Message message) throws JMSException {
        send((Destination) queue, message);
    }

    @Override
    public void send(Queue queue, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        send((Destination) queue, message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void publish(Message message) throws JMSException {
        send(message);
    }

    @Override
    public void publish(Message message, int deliveryMode, int priority, long timeToLive) throws JMSException {
        send(message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void publish(Topic topic, Message message) throws JMSException {
        send(topic, message);
    }

    @Override
    public void publish(Topic topic, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        send(topic, message, deliveryMode, priority, timeToLive);
    }

    // ---------------------------------------------------------------- helpers

    private void doSend(WharfDestination target, Message message, int deliveryMode, int priority, long timeToLive,
                        CompletionListener listener) throws JMSException {
        checkOpen();
        ProducerSettings.checkDeliveryMode(deliveryMode);
        ProducerSettings.checkPriority(priority);
        ProducerSettings.checkTimeToLive(timeToLive);
        session.send(target, message, deliveryMode, priority, timeToLive, settings, listener);
    }

    /**
     * The producer's own destination.
     *
     * @throws UnsupportedOperationException for an anonymous producer, as Jakarta Messaging requires
     */
    private WharfDestination ownDestination() throws JMSException {
        checkOpen();
        if (destination == null) {
            throw new UnsupportedOperationException("This producer was created without a destination; use a send"
                    + " method that takes the destination.");
        }
        return destination;
    }

    /**
     * The destination given to a send of an anonymous producer.
     *
     * @throws UnsupportedOperationException for a producer created with a destination, as Jakarta Messaging
     *                                       requires
     */
    private WharfDestination givenDestination(Destination given) throws JMSException {
        checkOpen();
        if (destination != null) {
            throw new UnsupportedOperationException("This producer sends to " + destination + "; use a send method"
                    + " without a destination, or a producer created without one.");
        }
        if (given == null) {
            throw new InvalidDestinationException("The destination is null; give the queue or topic to send to.");
        }
        return Destinations.toWharf(given);
    }

    private static CompletionListener requireListener(CompletionListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("The completion listener is null; give one, or use a send method"
                    + " without a completion listener.");
        }
        return listener;
    }

    @Override
    public String toString() {
        return "WharfMessageProducer{" + (destination == null ? "anonymous" : destination) + "}";
    }
}

package dev.wharf.jms.core;

import dev.wharf.jms.destination.Destinations;
import dev.wharf.jms.destination.WharfDestination;
import dev.wharf.jms.destination.WharfQueue;
import dev.wharf.jms.destination.WharfTopic;
import dev.wharf.jms.error.JmsErrors;
import dev.wharf.jms.message.WharfBytesMessage;
import dev.wharf.jms.message.WharfMapMessage;
import dev.wharf.jms.message.WharfMessage;
import dev.wharf.jms.message.WharfObjectMessage;
import dev.wharf.jms.message.WharfStreamMessage;
import dev.wharf.jms.message.WharfTextMessage;
import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.QueueReceiver;
import jakarta.jms.QueueSender;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;
import jakarta.jms.TopicSession;
import jakarta.jms.TopicSubscriber;
import java.io.Serializable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A session: a single-threaded context for producing and consuming (Jakarta Messaging 3.1, 6.2).
 *
 * <p>Every method but {@link #close()} checks that the session is open and throws
 * {@link IllegalStateException} otherwise. A session created by {@code createQueueSession} or
 * {@code createTopicSession} refuses the other domain's methods with an {@link IllegalStateException}, as the
 * domain-specific interfaces require.
 *
 * <p>Not thread-safe, as the specification allows: one thread at a time, except {@link #close()}.
 */
public class WharfSession implements Session, QueueSession, TopicSession {

    /** Which interface the session was created for. */
    enum Domain { ANY, QUEUE, TOPIC }

    private final WharfConnection connection;
    private final int id;
    private final int mode;
    private final Domain domain;
    private final SessionSender sender;
    private final List<WharfMessageProducer> producers = new CopyOnWriteArrayList<>();
    private final Object closeLock = new Object();
    private volatile boolean closed;

    WharfSession(WharfConnection connection, int id, int mode, Domain domain) {
        this.connection = connection;
        this.id = id;
        this.mode = mode;
        this.domain = domain;
        this.sender = new SessionSender(this, connection);
    }

    int id() {
        return id;
    }

    WharfConnection connection() {
        return connection;
    }

    // ---------------------------------------------------------------- messages

    @Override
    public BytesMessage createBytesMessage() throws JMSException {
        checkOpen();
        return new WharfBytesMessage();
    }

    @Override
    public MapMessage createMapMessage() throws JMSException {
        checkOpen();
        return new WharfMapMessage();
    }

    @Override
    public Message createMessage() throws JMSException {
        checkOpen();
        return new WharfMessage();
    }

    @Override
    public ObjectMessage createObjectMessage() throws JMSException {
        checkOpen();
        return new WharfObjectMessage(connection.codec().policy());
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) throws JMSException {
        ObjectMessage m = createObjectMessage();
        m.setObject(object);
        return m;
    }

    @Override
    public StreamMessage createStreamMessage() throws JMSException {
        checkOpen();
        return new WharfStreamMessage();
    }

    @Override
    public TextMessage createTextMessage() throws JMSException {
        checkOpen();
        return new WharfTextMessage();
    }

    @Override
    public TextMessage createTextMessage(String text) throws JMSException {
        checkOpen();
        return new WharfTextMessage(text);
    }

    // ---------------------------------------------------------------- modes and transactions

    @Override
    public boolean getTransacted() throws JMSException {
        checkOpen();
        return mode == SESSION_TRANSACTED;
    }

    @Override
    public int getAcknowledgeMode() throws JMSException {
        checkOpen();
        return mode;
    }

    boolean isTransacted() {
        return mode == SESSION_TRANSACTED;
    }

    @Override
    public void commit() throws JMSException {
        checkOpen();
        checkTransacted("commit");
        checkNotInCompletionListener("commit");
        sender.awaitAsync();
        throw new JMSException("Transacted sessions need the broker's half-message transactions, which this build"
                + " of wharf-jms does not contain yet.");
    }

    @Override
    public void rollback() throws JMSException {
        checkOpen();
        checkTransacted("roll back");
        checkNotInCompletionListener("roll back");
        sender.awaitAsync();
        throw new JMSException("Transacted sessions need the broker's half-message transactions, which this build"
                + " of wharf-jms does not contain yet.");
    }

    @Override
    public void recover() throws JMSException {
        checkOpen();
        if (isTransacted()) {
            throw new IllegalStateException("recover() is for sessions that are not transacted; call rollback() to"
                    + " redeliver the messages of a transacted session.");
        }
    }

    private void checkTransacted(String what) throws IllegalStateException {
        if (!isTransacted()) {
            throw new IllegalStateException("Cannot " + what + ": the session is not transacted; create it with"
                    + " Session.SESSION_TRANSACTED to use transactions.");
        }
    }

    private void checkNotInCompletionListener(String what) throws IllegalStateException {
        if (sender.isCallbackThread()) {
            throw new IllegalStateException("A completion listener must not " + what + " its own session; do it"
                    + " from the session's thread once the listener returned.");
        }
    }

    // ---------------------------------------------------------------- producers

    @Override
    public MessageProducer createProducer(Destination destination) throws JMSException {
        checkOpen();
        WharfMessageProducer p = new WharfMessageProducer(this, Destinations.toWharf(destination));
        producers.add(p);
        return p;
    }

    @Override
    public QueueSender createSender(Queue queue) throws JMSException {
        checkDomain(Domain.QUEUE, "createSender");
        return (QueueSender) createProducer(queue);
    }

    @Override
    public TopicPublisher createPublisher(Topic topic) throws JMSException {
        checkDomain(Domain.TOPIC, "createPublisher");
        return (TopicPublisher) createProducer(topic);
    }

    void producerClosed(WharfMessageProducer producer) {
        producers.remove(producer);
    }

    void send(WharfDestination destination, Message message, int deliveryMode, int priority, long timeToLive,
              ProducerSettings settings, CompletionListener listener) throws JMSException {
        checkOpen();
        sender.send(destination, message, deliveryMode, priority, timeToLive, settings, listener);
    }

    /**
     * Sends with a producer's settings (the simplified API's {@code JMSProducer} sends through this).
     *
     * @param destination the destination; null is refused with an {@link jakarta.jms.InvalidDestinationException}
     * @param listener    null for a synchronous send
     */
    public void send(Destination destination, Message message, ProducerSettings settings, CompletionListener listener)
            throws JMSException {
        checkOpen();
        if (destination == null) {
            throw new jakarta.jms.InvalidDestinationException("The destination is null; give the queue or topic to"
                    + " send to.");
        }
        sender.send(Destinations.toWharf(destination), message, settings.deliveryMode(), settings.priority(),
                settings.timeToLive(), settings, listener);
    }

    void awaitAsyncSends() throws JMSException {
        sender.awaitAsync();
    }

    /** Whether the calling thread runs a completion listener of this session. */
    public boolean isCompletionListenerThread() {
        return sender.isCallbackThread();
    }

    // ---------------------------------------------------------------- consumers

    @Override
    public MessageConsumer createConsumer(Destination destination) throws JMSException {
        return createConsumer(destination, null, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector) throws JMSException {
        return createConsumer(destination, messageSelector, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal)
            throws JMSException {
        checkOpen();
        throw noConsumers();
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) throws JMSException {
        return createSharedConsumer(topic, sharedSubscriptionName, null);
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector)
            throws JMSException {
        checkDomain(Domain.ANY, "createSharedConsumer");
        throw noConsumers();
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        return createDurableSubscriber(topic, name, null, false);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        checkDomain(Domain.TOPIC, "createDurableSubscriber");
        throw noConsumers();
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        return createDurableConsumer(topic, name, null, false);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        checkDomain(Domain.TOPIC, "createDurableConsumer");
        throw noConsumers();
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        return createSharedDurableConsumer(topic, name, null);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector)
            throws JMSException {
        checkDomain(Domain.ANY, "createSharedDurableConsumer");
        throw noConsumers();
    }

    @Override
    public QueueReceiver createReceiver(Queue queue) throws JMSException {
        return createReceiver(queue, null);
    }

    @Override
    public QueueReceiver createReceiver(Queue queue, String messageSelector) throws JMSException {
        checkDomain(Domain.QUEUE, "createReceiver");
        return (QueueReceiver) createConsumer(queue, messageSelector);
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic) throws JMSException {
        return createSubscriber(topic, null, false);
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic, String messageSelector, boolean noLocal)
            throws JMSException {
        checkDomain(Domain.TOPIC, "createSubscriber");
        return (TopicSubscriber) createConsumer(topic, messageSelector, noLocal);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) throws JMSException {
        return createBrowser(queue, null);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) throws JMSException {
        checkDomain(Domain.QUEUE, "createBrowser");
        throw noConsumers();
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        checkDomain(Domain.TOPIC, "unsubscribe");
        throw noConsumers();
    }

    private JMSException noConsumers() {
        return new JMSException("Consumers need the broker's per-message acknowledgement, which this build of"
                + " wharf-jms does not contain yet.");
    }

    boolean hasConsumerOn(WharfDestination destination) {
        return false;
    }

    // ---------------------------------------------------------------- destinations

    @Override
    public Queue createQueue(String queueName) throws JMSException {
        checkDomain(Domain.QUEUE, "createQueue");
        return WharfQueue.of(queueName);
    }

    @Override
    public Topic createTopic(String topicName) throws JMSException {
        checkDomain(Domain.TOPIC, "createTopic");
        return WharfTopic.of(topicName);
    }

    @Override
    public TemporaryQueue createTemporaryQueue() throws JMSException {
        checkDomain(Domain.QUEUE, "createTemporaryQueue");
        return connection.createTemporaryQueue();
    }

    @Override
    public TemporaryTopic createTemporaryTopic() throws JMSException {
        checkDomain(Domain.TOPIC, "createTemporaryTopic");
        return connection.createTemporaryTopic();
    }

    /**
     * Checks that the session is open and that a method of {@code allowed}'s domain may be called on it: a
     * queue session refuses topic methods and a topic session queue methods ({@link Domain#ANY} = methods of
     * the unified API that neither domain interface has).
     */
    private void checkDomain(Domain allowed, String method) throws IllegalStateException {
        checkOpen();
        if (domain == Domain.ANY || domain == allowed) {
            return;
        }
        String kind = domain == Domain.QUEUE ? "QueueSession" : "TopicSession";
        throw new IllegalStateException(method + " cannot be used on a " + kind + "; create the session with"
                + " Connection.createSession to use both queues and topics.");
    }

    // ---------------------------------------------------------------- distinguished listener (optional)

    /**
     * Not supported: the distinguished session listener belongs to the optional application server facilities
     * (Jakarta Messaging 3.1, chapter 9); set listeners on consumers instead.
     */
    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        throw noDistinguishedListener();
    }

    /** Not supported; see {@link #getMessageListener()}. */
    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        throw noDistinguishedListener();
    }

    /** Not supported; see {@link #getMessageListener()}. */
    @Override
    public void run() {
        throw JmsErrors.toRuntime(noDistinguishedListener());
    }

    private static JMSException noDistinguishedListener() {
        return new JMSException("Wharf does not provide the session's distinguished message listener (an optional"
                + " application server facility); set a message listener on a consumer instead.");
    }

    /**
     * Acknowledges every message the session consumed so far, as {@code Message.acknowledge()} does in
     * CLIENT_ACKNOWLEDGE mode; in the other modes it does nothing (the simplified API's
     * {@code JMSContext.acknowledge()}).
     */
    public void acknowledgeAll() throws JMSException {
        checkOpen();
    }

    /** Whether the calling thread delivers this session's messages to its message listeners. */
    public boolean isDeliveryThread() {
        return false;
    }

    // ---------------------------------------------------------------- connection events

    void connectionStarted() {
    }

    /** Returns once no message listener of this session runs, unless the caller is that listener. */
    void awaitDeliveryPaused() {
    }

    void brokerLost() {
    }

    void brokerRecovered() {
    }

    // ---------------------------------------------------------------- close

    /**
     * Closes the session: waits for its asynchronous sends and their completion listeners, closes its producers,
     * and (once consumers exist) rolls back its transaction and gives its unacknowledged messages back.
     *
     * @throws IllegalStateException when called from a completion listener of this session
     */
    @Override
    public void close() throws JMSException {
        checkNotInCompletionListener("close");
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            sender.close();
        } finally {
            producers.forEach(WharfMessageProducer::closeQuietly);
            producers.clear();
            connection.sessionClosed(this);
        }
    }

    void checkOpen() throws IllegalStateException {
        if (closed) {
            throw JmsErrors.closed("session");
        }
    }

    @Override
    public String toString() {
        return "WharfSession{" + id + ", mode=" + mode + (closed ? ", closed" : "") + "}";
    }
}

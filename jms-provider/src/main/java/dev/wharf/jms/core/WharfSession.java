package dev.wharf.jms.core;

import dev.wharf.client.ack.PoppedMessage;
import dev.wharf.jms.destination.Destinations;
import dev.wharf.jms.destination.WharfDestination;
import dev.wharf.jms.destination.WharfQueue;
import dev.wharf.jms.destination.WharfTopic;
import dev.wharf.jms.engine.BrokerLink;
import dev.wharf.jms.engine.LeaseKeeper;
import dev.wharf.jms.engine.Leased;
import dev.wharf.jms.error.JmsErrors;
import dev.wharf.jms.message.MessageAcknowledger;
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
import jakarta.jms.InvalidDestinationException;
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
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger LOG = LoggerFactory.getLogger(WharfSession.class);

    /** Guards the consumers' buffers and the delivery state; {@link #changed} is signalled on every change. */
    final ReentrantLock lock = new ReentrantLock();
    final Condition changed = lock.newCondition();

    private final WharfConnection connection;
    private final int id;
    private final int mode;
    private final Domain domain;
    private final long redeliveryDelay;
    private final SessionSender sender;
    /** The sending half of a transacted session's transaction; null when not transacted. */
    private final SessionTransaction transaction;
    private final SessionAcks acks;
    private final SessionDeliveries deliveries;
    private final SessionSubscriptions subscriptions;
    private final SessionDelivery delivery;
    private final MessageAcknowledger acknowledger = this::acknowledgeFromMessage;
    private final LeaseKeeper.Holder holder;
    private final List<WharfMessageProducer> producers = new CopyOnWriteArrayList<>();
    private final List<WharfMessageConsumer> consumers = new CopyOnWriteArrayList<>();
    private final List<WharfQueueBrowser> browsers = new CopyOnWriteArrayList<>();
    private final Object closeLock = new Object();
    private volatile boolean closed;

    WharfSession(WharfConnection connection, int id, int mode, Domain domain) {
        this.connection = connection;
        this.id = id;
        this.mode = mode;
        this.domain = domain;
        BrokerLink link = connection.link();
        this.redeliveryDelay = link.options().getRedeliveryDelay();
        this.transaction = mode == SESSION_TRANSACTED ? new SessionTransaction(link, this::awaitSendsBeforeFlush) : null;
        this.sender = new SessionSender(this, connection, transaction);
        this.acks = new SessionAcks(this, mode, redeliveryDelay, 2L * link.clientConfig().getMqClientApiTimeout());
        this.deliveries = new SessionDeliveries(this, connection, acks, mode, redeliveryDelay, acknowledger);
        this.subscriptions = new SessionSubscriptions(this, connection);
        this.delivery = new SessionDelivery(this, "wharf-jms-session-" + link.connectionId().substring(24) + "-" + id);
        this.holder = new LeaseKeeper.Holder() {
            @Override
            public void forEachHeld(java.util.function.Consumer<Leased> sink) {
                lock.lock();
                try {
                    for (WharfMessageConsumer c : consumers) {
                        c.forEachBuffered(sink);
                    }
                    acks.forEachHeld(sink);
                } finally {
                    lock.unlock();
                }
            }

            @Override
            public void tick() {
                acks.tick();
                lock.lock();
                try {
                    consumers.forEach(WharfMessageConsumer::refill);
                } finally {
                    lock.unlock();
                }
            }
        };
        link.leases().add(holder);
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
        return created(new WharfBytesMessage());
    }

    @Override
    public MapMessage createMapMessage() throws JMSException {
        return created(new WharfMapMessage());
    }

    @Override
    public Message createMessage() throws JMSException {
        return created(new WharfMessage());
    }

    @Override
    public ObjectMessage createObjectMessage() throws JMSException {
        return created(new WharfObjectMessage(connection.codec().policy()));
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) throws JMSException {
        ObjectMessage m = createObjectMessage();
        m.setObject(object);
        return m;
    }

    @Override
    public StreamMessage createStreamMessage() throws JMSException {
        return created(new WharfStreamMessage());
    }

    @Override
    public TextMessage createTextMessage() throws JMSException {
        return created(new WharfTextMessage());
    }

    @Override
    public TextMessage createTextMessage(String text) throws JMSException {
        return created(new WharfTextMessage(text));
    }

    /** A new message, once the session is known to be open (a closed session creates none). */
    private <M extends Message> M created(M message) throws JMSException {
        checkOpen();
        return message;
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

    /**
     * Commits the transaction (6.2.7): the messages sent in it become visible, all at once, and then the messages
     * consumed in it are acknowledged. When the broker refuses the commit, the consumed messages are given back
     * for redelivery and a {@link jakarta.jms.TransactionRolledBackException} is thrown.
     *
     * @throws IllegalStateException when the session is not transacted or a completion listener calls this
     */
    @Override
    public void commit() throws JMSException {
        checkOpen();
        checkTransacted("commit");
        checkNotInCompletionListener("commit");
        sender.awaitAsync();
        try {
            transaction.commit();
        } catch (jakarta.jms.TransactionRolledBackException e) {
            restartDelivery();
            throw e;
        }
        acks.commitConsumed();
    }

    /**
     * Rolls the transaction back: the messages sent in it are dropped, and the messages consumed in it are given
     * back for redelivery (JMSRedelivered set, JMSXDeliveryCount one higher).
     *
     * @throws IllegalStateException when the session is not transacted or a completion listener calls this
     */
    @Override
    public void rollback() throws JMSException {
        checkOpen();
        checkTransacted("roll back");
        checkNotInCompletionListener("roll back");
        sender.awaitAsync();
        transaction.rollback();
        restartDelivery();
    }

    /** A flush of the transaction covers the session's queued asynchronous sends (unless it runs in their thread). */
    private void awaitSendsBeforeFlush() throws JMSException {
        if (!sender.isCallbackThread()) {
            sender.awaitAsync();
        }
    }

    /** The id of the Wharf transaction in progress (null before the transaction's first send, or not transacted). */
    public String transactionId() {
        return transaction == null ? null : transaction.transactionId();
    }

    /**
     * Gives every delivered and unacknowledged message back for redelivery, and delivery starts again with the
     * oldest of them (6.2.11).
     *
     * @throws IllegalStateException in a transacted session (use rollback)
     */
    @Override
    public void recover() throws JMSException {
        checkOpen();
        if (isTransacted()) {
            throw new IllegalStateException("recover() is for sessions that are not transacted; call rollback() to"
                    + " redeliver the messages of a transacted session.");
        }
        restartDelivery();
    }

    private void restartDelivery() throws JMSException {
        acks.recover(consumers);
        lock.lock();
        try {
            consumers.forEach(WharfMessageConsumer::refill);
            changed.signalAll();
        } finally {
            lock.unlock();
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

    /**
     * Sends a message already in the broker's form (built by a non-JMS API on top of this provider, such as a
     * Spring template) through this session: in a transacted session as a half message of the session's
     * transaction, so it commits or rolls back with the session's JMS messages; otherwise at once. Messages with the
     * same {@code shardingKey} go to the same queue of the topic, as JMS messages with that JMSXGroupID do.
     *
     * @param message     the message; its topic is the destination
     * @param shardingKey the key that picks the queue, or null for the session's queue of the topic
     * @return the message's unique id (its UNIQ_KEY)
     */
    public String sendNative(dev.wharf.common.message.Message message, String shardingKey) throws JMSException {
        checkOpen();
        checkNotInCompletionListener("sendNative");
        return sender.sendNative(message, shardingKey);
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

    /**
     * A consumer of a queue (the queue's group: each message to one consumer) or a topic (a private subscription
     * that starts now and ends when the consumer closes; {@code noLocal} skips this connection's own messages).
     *
     * @throws jakarta.jms.InvalidDestinationException for null, a deleted temporary destination, or one created by
     *                                                 another connection
     * @throws jakarta.jms.InvalidSelectorException    for a selector that does not parse
     */
    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal)
            throws JMSException {
        checkOpen();
        return subscriptions.consumer(destination, messageSelector, noLocal);
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) throws JMSException {
        return createSharedConsumer(topic, sharedSubscriptionName, null);
    }

    /**
     * A consumer on a shared non-durable subscription: all its consumers share the messages. The subscription's
     * state is deleted when the last consumer of this JVM closes.
     */
    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector)
            throws JMSException {
        checkDomain(Domain.ANY, "createSharedConsumer");
        return subscriptions.subscribe(topic, sharedSubscriptionName, messageSelector, false, ConsumerSpec.Kind.SHARED);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        return createDurableSubscriber(topic, name, null, false);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        checkDomain(Domain.TOPIC, "createDurableSubscriber");
        return (TopicSubscriber) subscriptions.subscribe(topic, name, messageSelector, noLocal,
                ConsumerSpec.Kind.DURABLE);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        return createDurableConsumer(topic, name, null, false);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        checkDomain(Domain.TOPIC, "createDurableConsumer");
        return subscriptions.subscribe(topic, name, messageSelector, noLocal, ConsumerSpec.Kind.DURABLE);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        return createSharedDurableConsumer(topic, name, null);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector)
            throws JMSException {
        checkDomain(Domain.ANY, "createSharedDurableConsumer");
        return subscriptions.subscribe(topic, name, messageSelector, false, ConsumerSpec.Kind.SHARED_DURABLE);
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

    /** A browser of the queue's messages (those not acknowledged yet), without consuming them. */
    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) throws JMSException {
        checkDomain(Domain.QUEUE, "createBrowser");
        WharfDestination d = subscriptions.consumable(queue);
        if (!d.kind().isQueue()) {
            throw new InvalidDestinationException(d + " is not a queue; only queues can be browsed.");
        }
        ConsumerSpec spec = ConsumerSpec.queue(d, messageSelector);
        WharfQueueBrowser browser = new WharfQueueBrowser(this, spec, link().ackConsumer(spec.group()));
        browsers.add(browser);
        return browser;
    }

    /** Before a browse: the session's own acknowledgements reach the broker first, so it does not see them. */
    void settleAcknowledgements() {
        acks.awaitInFlight();
    }

    void browserClosed(WharfQueueBrowser browser) {
        browsers.remove(browser);
    }

    /**
     * Deletes a durable subscription (8.3.4): the one of this connection's client id with that name, or the
     * shared durable one with that name.
     *
     * @throws IllegalStateException       when the subscription has an open consumer in this JVM, or messages of
     *                                     it wait for acknowledgement in this session
     * @throws InvalidDestinationException when no durable subscription has that name
     */
    @Override
    public void unsubscribe(String name) throws JMSException {
        checkDomain(Domain.TOPIC, "unsubscribe");
        subscriptions.unsubscribe(name, acks);
    }

    SessionDeliveries deliveries() {
        return deliveries;
    }

    SessionSubscriptions subscriptions() {
        return subscriptions;
    }

    /** Adds a new consumer. */
    void consumerOpened(WharfMessageConsumer consumer) throws IllegalStateException {
        lock.lock();
        try {
            checkOpen();
            consumers.add(consumer);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes a consumer: waits for its running listener unless that listener is the caller, marks it closed and
     * removes it.
     *
     * @return its buffered messages (to give back), or null when it was closed already
     */
    List<PoppedMessage> consumerClosing(WharfMessageConsumer consumer) {
        delivery.awaitIdle(consumer);
        lock.lock();
        try {
            if (consumer.isClosed()) {
                return null;
            }
            consumers.remove(consumer);
            return consumer.markClosed();
        } finally {
            lock.unlock();
        }
    }

    boolean hasConsumerOn(WharfDestination destination) {
        for (WharfMessageConsumer c : consumers) {
            if (c.spec().destination().equals(destination)) {
                return true;
            }
        }
        return false;
    }

    List<WharfMessageConsumer> consumers() {
        return consumers;
    }

    // ---------------------------------------------------------------- delivery

    /** Whether messages may be handed out now: the connection is started and the session open. */
    boolean deliveryAllowed() {
        return connection.isStarted() && !closed;
    }

    boolean isClosed() {
        return closed;
    }

    long leaseMillis() {
        return link().leases().leaseMillis();
    }

    private BrokerLink link() {
        return connection.link();
    }

    /** A consumer got a listener: the delivery thread runs from now on. Caller holds the lock. */
    void listenerSet() {
        delivery.ensureStarted();
    }

    /** What Message.acknowledge() does for the messages of this session. */
    private void acknowledgeFromMessage(WharfMessage message) throws JMSException {
        if (closed) {
            throw new IllegalStateException("The session of this message is closed; its messages can no longer be"
                    + " acknowledged (they will be delivered again).");
        }
        acks.acknowledge();
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
        acks.acknowledge();
    }

    /** Whether the calling thread delivers this session's messages to its message listeners. */
    public boolean isDeliveryThread() {
        return delivery.isDeliveryThread();
    }

    // ---------------------------------------------------------------- connection events

    void connectionStarted() {
        lock.lock();
        try {
            consumers.forEach(WharfMessageConsumer::refill);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Returns once no message listener of this session runs, unless the caller is that listener. */
    void awaitDeliveryPaused() {
        delivery.awaitIdle(null);
    }

    /** The broker answers again: consumers that were waiting after failures fetch at once. */
    void brokerRecovered() {
        lock.lock();
        try {
            consumers.forEach(WharfMessageConsumer::retryNow);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    // ---------------------------------------------------------------- close

    /**
     * Closes the session (6.2.15): waits for its asynchronous sends and their completion listeners and for a
     * running message listener; a blocked receive returns null; the transaction is rolled back; unacknowledged
     * messages are given back for redelivery and prefetched ones uncounted; non-durable subscriptions end.
     * Closing a closed session does nothing.
     *
     * @throws IllegalStateException when called from a message listener of this session (it would wait for
     *                               itself; 6.2.15) or from a completion listener of this session (7.3.8)
     */
    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        checkNotInCompletionListener("close");
        if (delivery.isDeliveryThread()) {
            throw new IllegalStateException("A message listener must not close its own session: that waits until"
                    + " the listener returned, so it would wait for itself. Close the consumer, or close the session"
                    + " from another thread.");
        }
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        delivery.awaitIdle(null);
        deliveries.awaitReceives();
        try {
            sender.close();
        } finally {
            if (transaction != null) {
                transaction.rollback();
            }
            for (WharfMessageConsumer c : consumers) {
                List<PoppedMessage> buffered;
                lock.lock();
                try {
                    buffered = c.markClosed();
                } finally {
                    lock.unlock();
                }
                SessionAcks.release(c.group(), buffered, 0, false);
                subscriptions.endSubscription(c);
            }
            consumers.clear();
            acks.close();
            browsers.forEach(WharfQueueBrowser::closeQuietly);
            browsers.clear();
            connection.link().leases().remove(holder);
            delivery.join();
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

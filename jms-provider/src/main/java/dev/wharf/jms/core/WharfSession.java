package dev.wharf.jms.core;

import dev.wharf.client.ack.AckConsumer;
import dev.wharf.jms.destination.DestinationKind;
import dev.wharf.jms.destination.Destinations;
import dev.wharf.jms.destination.WharfDestination;
import dev.wharf.jms.destination.WharfQueue;
import dev.wharf.jms.destination.WharfTemporaryDestination;
import dev.wharf.jms.destination.WharfTopic;
import dev.wharf.jms.engine.ActiveSubscriptions;
import dev.wharf.jms.engine.BrokerLink;
import dev.wharf.jms.engine.LeaseKeeper;
import dev.wharf.jms.engine.Leased;
import dev.wharf.jms.engine.SubscriptionNames;
import dev.wharf.jms.error.JmsErrors;
import dev.wharf.jms.message.BodyType;
import dev.wharf.jms.message.MessageAcknowledger;
import dev.wharf.jms.message.WharfBytesMessage;
import dev.wharf.jms.message.WharfMapMessage;
import dev.wharf.jms.message.WharfMessage;
import dev.wharf.jms.message.WharfObjectMessage;
import dev.wharf.jms.message.WharfStreamMessage;
import dev.wharf.jms.message.WharfTextMessage;
import dev.wharf.jms.message.WireProperties;
import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageFormatException;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    private final SessionAcks acks;
    private final SessionDelivery delivery;
    private final MessageAcknowledger acknowledger = this::acknowledgeFromMessage;
    private final LeaseKeeper.Holder holder;
    private final List<WharfMessageProducer> producers = new CopyOnWriteArrayList<>();
    private final List<WharfMessageConsumer> consumers = new CopyOnWriteArrayList<>();
    private final List<WharfQueueBrowser> browsers = new CopyOnWriteArrayList<>();
    private final Object closeLock = new Object();
    private int receivesInProgress;
    private volatile boolean closed;

    WharfSession(WharfConnection connection, int id, int mode, Domain domain) {
        this.connection = connection;
        this.id = id;
        this.mode = mode;
        this.domain = domain;
        BrokerLink link = connection.link();
        this.redeliveryDelay = link.options().getRedeliveryDelay();
        this.sender = new SessionSender(this, connection);
        this.acks = new SessionAcks(this, mode, redeliveryDelay, 2L * link.clientConfig().getMqClientApiTimeout());
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

    /**
     * Commits the transaction: the messages consumed in it are acknowledged (the sends part arrives with the
     * broker's half-message transactions).
     *
     * @throws IllegalStateException when the session is not transacted or a completion listener calls this
     */
    @Override
    public void commit() throws JMSException {
        checkOpen();
        checkTransacted("commit");
        checkNotInCompletionListener("commit");
        sender.awaitAsync();
        acks.commitConsumed();
    }

    /**
     * Rolls the transaction back: the messages consumed in it are given back for redelivery (JMSRedelivered set,
     * JMSXDeliveryCount one higher).
     *
     * @throws IllegalStateException when the session is not transacted or a completion listener calls this
     */
    @Override
    public void rollback() throws JMSException {
        checkOpen();
        checkTransacted("roll back");
        checkNotInCompletionListener("roll back");
        sender.awaitAsync();
        restartDelivery();
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
        WharfDestination d = consumable(destination);
        if (d.kind().isQueue()) {
            return open(ConsumerSpec.queue(d, messageSelector));
        }
        ConsumerSpec spec = ConsumerSpec.subscription(d, SubscriptionNames.privateGroup(), messageSelector, noLocal,
                ConsumerSpec.Kind.SUBSCRIBER);
        link().anchorGroup(spec.group(), spec.topic());
        return open(spec);
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
        return subscribe(topic, sharedSubscriptionName, messageSelector, false, ConsumerSpec.Kind.SHARED);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        return createDurableSubscriber(topic, name, null, false);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        checkDomain(Domain.TOPIC, "createDurableSubscriber");
        return (TopicSubscriber) subscribe(topic, name, messageSelector, noLocal, ConsumerSpec.Kind.DURABLE);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        return createDurableConsumer(topic, name, null, false);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        checkDomain(Domain.TOPIC, "createDurableConsumer");
        return subscribe(topic, name, messageSelector, noLocal, ConsumerSpec.Kind.DURABLE);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        return createSharedDurableConsumer(topic, name, null);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector)
            throws JMSException {
        checkDomain(Domain.ANY, "createSharedDurableConsumer");
        return subscribe(topic, name, messageSelector, false, ConsumerSpec.Kind.SHARED_DURABLE);
    }

    /**
     * A consumer on a named subscription (8.3). An unshared durable subscription needs the client id and has one
     * consumer at a time; a shared one is joined with the same topic and selector. A durable subscription named
     * again with another topic starts over on that topic (the old one is deleted); its state on the broker
     * survives disconnects and restarts until {@link #unsubscribe}.
     */
    private WharfMessageConsumer subscribe(Topic topic, String name, String messageSelector, boolean noLocal,
                                           ConsumerSpec.Kind kind) throws JMSException {
        WharfDestination d = consumable(topic);
        if (d.kind() != DestinationKind.TOPIC) {
            throw new InvalidDestinationException("A " + (kind.durable ? "durable" : "shared") + " subscription needs"
                    + " a topic that is not temporary; " + d + " is a " + d.kind().label() + ".");
        }
        if (name == null || name.isEmpty()) {
            throw new InvalidDestinationException("The subscription name is " + (name == null ? "null" : "empty")
                    + "; give the subscription a name.");
        }
        String clientId = connection.clientIdOrNull();
        String group;
        String description;
        String other = null;
        switch (kind) {
            case DURABLE -> {
                if (clientId == null) {
                    throw new IllegalStateException("The durable subscription \"" + name + "\" needs a client id;"
                            + " set one on the connection (or the factory) first, or use a shared durable"
                            + " subscription.");
                }
                group = SubscriptionNames.durable(clientId, name);
                other = SubscriptionNames.sharedDurable(clientId, name);
                description = "durable subscription \"" + name + "\" of client id " + clientId;
            }
            case SHARED_DURABLE -> {
                group = SubscriptionNames.sharedDurable(clientId, name);
                other = clientId == null ? null : SubscriptionNames.durable(clientId, name);
                description = "shared durable subscription \"" + name + "\"";
            }
            default -> {
                group = SubscriptionNames.shared(clientId, name);
                description = "shared subscription \"" + name + "\"";
            }
        }
        ConsumerSpec spec = ConsumerSpec.subscription(d, group, messageSelector, noLocal, kind);
        ActiveSubscriptions.open(group, new ActiveSubscriptions.Terms(d.getName(), spec.selectorText(), noLocal),
                kind.shared, description);
        try {
            if (other != null && (ActiveSubscriptions.isActive(other) || !link().groupTopics(other).isEmpty())) {
                throw new JMSException("A " + (kind.shared ? "durable" : "shared durable") + " subscription with"
                        + " the name \"" + name + "\"" + (clientId == null ? "" : " and client id " + clientId)
                        + " exists; shared and unshared durable subscriptions cannot share a name. Unsubscribe it"
                        + " or choose another name.");
            }
            if (kind.durable) {
                Map<String, Set<String>> existing = link().groupTopics(group);
                existing.values().forEach(topics -> topics.remove(d.getName()));
                link().deleteGroupState(group, existing);
            }
            link().anchorGroup(group, d.getName());
            return open(spec);
        } catch (JMSException | RuntimeException e) {
            ActiveSubscriptions.close(group);
            throw e;
        }
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
        WharfDestination d = consumable(queue);
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
        if (name == null || name.isEmpty()) {
            throw new InvalidDestinationException("The subscription name is " + (name == null ? "null" : "empty")
                    + "; give the name of the durable subscription to delete.");
        }
        String clientId = connection.clientIdOrNull();
        List<String> groups = new ArrayList<>();
        if (clientId != null) {
            groups.add(SubscriptionNames.durable(clientId, name));
        }
        groups.add(SubscriptionNames.sharedDurable(clientId, name));
        for (String g : groups) {
            if (ActiveSubscriptions.isActive(g)) {
                throw new IllegalStateException("The durable subscription \"" + name + "\" has an active consumer;"
                        + " close it before unsubscribing.");
            }
            if (acks.holds(g)) {
                throw new IllegalStateException("Messages of the durable subscription \"" + name + "\" wait for"
                        + " acknowledgement or commit in this session; finish them before unsubscribing.");
            }
        }
        boolean found = false;
        for (String g : groups) {
            Map<String, Set<String>> state = link().groupTopics(g);
            if (!state.isEmpty()) {
                link().deleteGroupState(g, state);
                found = true;
            }
        }
        if (!found) {
            throw new InvalidDestinationException("There is no durable subscription named \"" + name + "\""
                    + (clientId == null ? " without a client id" : " for client id " + clientId) + "; check the"
                    + " name and the client id.");
        }
    }

    private WharfMessageConsumer open(ConsumerSpec spec) throws JMSException {
        int prefetch = Math.min(AckConsumer.MAX_POP_NUMS, link().options().getPullBatchSize());
        WharfMessageConsumer c = new WharfMessageConsumer(this, spec, link().ackConsumer(spec.group()), prefetch);
        lock.lock();
        try {
            checkOpen();
            consumers.add(c);
        } finally {
            lock.unlock();
        }
        return c;
    }

    /**
     * The destination a consumer may read.
     *
     * @throws InvalidDestinationException for null, a deleted temporary destination, or a temporary destination
     *                                     another connection created
     */
    private WharfDestination consumable(Destination destination) throws JMSException {
        if (destination == null) {
            throw new InvalidDestinationException("The destination is null; give the queue or topic to consume from.");
        }
        WharfDestination d = Destinations.toWharf(destination);
        if (d instanceof WharfTemporaryDestination t) {
            if (!connection.created(t)) {
                throw new InvalidDestinationException("The " + t.kind().label() + " " + t.getName() + " was created"
                        + " by another connection; only the connection that created a temporary destination may"
                        + " consume from it.");
            }
            if (t.isDeleted()) {
                throw new InvalidDestinationException("The " + t.kind().label() + " " + t.getName() + " was"
                        + " deleted; create a new one.");
            }
        }
        return d;
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

    /**
     * Refuses a receive while the session delivers to message listeners: such a session belongs to its delivery
     * thread (6.2.4).
     */
    void checkReceiveAllowed(WharfMessageConsumer consumer) throws JMSException {
        if (consumer.isClosed()) {
            throw JmsErrors.closed("message consumer");
        }
        checkOpen();
        for (WharfMessageConsumer c : consumers) {
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
        lock.lock();
        try {
            receivesInProgress--;
            changed.signalAll();
        } finally {
            lock.unlock();
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
                if (mode == AUTO_ACKNOWLEDGE || mode == DUPS_OK_ACKNOWLEDGE) {
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
                    mode == AUTO_ACKNOWLEDGE || mode == DUPS_OK_ACKNOWLEDGE ? "the message will be delivered again"
                            : "the session goes on with the next message");
        }
        if (acks.afterListener(l, failed) && redeliveryDelay == 0) {
            List<dev.wharf.client.ack.PoppedMessage> buffered;
            lock.lock();
            try {
                buffered = consumer.drain();
            } finally {
                lock.unlock();
            }
            SessionAcks.release(consumer.group(), buffered, 0, false).join();
        }
    }

    /**
     * Checks a popped message and turns it into the application's message: expired messages and, for noLocal
     * consumers, this connection's own are acknowledged and dropped (null); a message that cannot be read is
     * given back as delivered, so it reaches the dead-letter queue after maxReconsumeTimes.
     */
    private WharfMessage prepare(WharfMessageConsumer consumer, Leased l) {
        dev.wharf.client.ack.PoppedMessage pm = l.message();
        String expiration = pm.getProperty(WireProperties.EXPIRATION);
        if (expiration != null && isPast(expiration)) {
            acks.discard(l);
            return null;
        }
        if (consumer.spec().noLocal() && link().connectionId().equals(pm.getProperty(WireProperties.CONNECTION_ID))) {
            acks.discard(l);
            return null;
        }
        try {
            return connection.codec().fromWharf(pm, Math.max(1, pm.deliveryCount()), consumer.spec().destination(),
                    acknowledger);
        } catch (JMSException | RuntimeException e) {
            LOG.warn("A message of {} cannot be read ({}); it is given back and will reach the dead-letter queue"
                    + " %DLQ%{} after {} deliveries", consumer.spec().destination(), e.getMessage(),
                    consumer.spec().group(), link().options().getMaxReconsumeTimes() + 1);
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

    /** What Message.acknowledge() does for the messages of this session. */
    private void acknowledgeFromMessage(WharfMessage message) throws JMSException {
        if (closed) {
            throw new IllegalStateException("The session of this message is closed; its messages can no longer be"
                    + " acknowledged (they will be delivered again).");
        }
        acks.acknowledge();
    }

    /**
     * Closes a consumer (from {@link WharfMessageConsumer#close()}): waits for its running listener unless that
     * listener is the caller, gives its buffer back, and ends a non-durable subscription.
     */
    void closeConsumer(WharfMessageConsumer consumer) throws JMSException {
        delivery.awaitIdle(consumer);
        List<dev.wharf.client.ack.PoppedMessage> buffered;
        lock.lock();
        try {
            if (consumer.isClosed()) {
                return;
            }
            buffered = consumer.markClosed();
            consumers.remove(consumer);
        } finally {
            lock.unlock();
        }
        SessionAcks.release(consumer.group(), buffered, 0, false);
        endSubscription(consumer);
    }

    /** After a consumer closed: a private subscription is deleted, a named one loses a consumer. */
    private void endSubscription(WharfMessageConsumer consumer) {
        ConsumerSpec spec = consumer.spec();
        switch (spec.kind()) {
            case SUBSCRIBER -> deleteState(spec);
            case SHARED -> {
                ActiveSubscriptions.close(spec.group());
                if (!ActiveSubscriptions.isActive(spec.group())) {
                    deleteState(spec);
                }
            }
            case DURABLE, SHARED_DURABLE -> ActiveSubscriptions.close(spec.group());
            default -> {
            }
        }
    }

    private void deleteState(ConsumerSpec spec) {
        try {
            link().ackConsumer(spec.group()).deleteGroup(spec.topic());
        } catch (Exception e) {
            LOG.debug("Could not delete the state of subscription group {}: {}", spec.group(), e.toString());
        } finally {
            link().dropGroup(spec.group());
        }
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

    void brokerLost() {
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
     * running message listener (unless that listener is the caller: the session then closes as it returns, and
     * an AUTO_ACKNOWLEDGE message is still acknowledged); a blocked receive returns null; the transaction is
     * rolled back; unacknowledged messages are given back for redelivery and prefetched ones uncounted;
     * non-durable subscriptions end.
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
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        delivery.awaitIdle(null);
        awaitReceives();
        try {
            sender.close();
        } finally {
            for (WharfMessageConsumer c : consumers) {
                List<dev.wharf.client.ack.PoppedMessage> buffered;
                lock.lock();
                try {
                    buffered = c.markClosed();
                } finally {
                    lock.unlock();
                }
                SessionAcks.release(c.group(), buffered, 0, false);
                endSubscription(c);
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

    private void awaitReceives() {
        lock.lock();
        try {
            while (receivesInProgress > 0) {
                changed.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
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

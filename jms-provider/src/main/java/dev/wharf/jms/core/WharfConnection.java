package dev.wharf.jms.core;

import dev.wharf.common.util.NamedThreadFactory;
import dev.wharf.jms.config.ConnectionOptions;
import dev.wharf.jms.config.WharfConnectionConfig;
import dev.wharf.jms.destination.WharfDestination;
import dev.wharf.jms.destination.WharfTemporaryDestination;
import dev.wharf.jms.destination.WharfTemporaryQueue;
import dev.wharf.jms.destination.WharfTemporaryTopic;
import dev.wharf.jms.engine.BrokerLink;
import dev.wharf.jms.engine.ClientIds;
import dev.wharf.jms.engine.ConnectionMonitor;
import dev.wharf.jms.engine.ProviderHooks;
import dev.wharf.jms.error.JmsErrors;
import dev.wharf.jms.message.DeserializationPolicy;
import dev.wharf.jms.message.JmsMessageCodec;
import jakarta.jms.ConnectionConsumer;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueSession;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection to Wharf: one low-level client instance ({@link BrokerLink}), its sessions, its temporary
 * destinations and its client identifier.
 *
 * <p><b>Lifecycle</b> (Jakarta Messaging 3.1, 6.1): a connection is created stopped; {@link #start()} starts
 * delivery to every consumer of every session, {@link #stop()} pauses it and returns once no message listener of
 * the connection runs any more. {@link #close()} closes every session (rolling back their transactions, releasing
 * their unacknowledged messages), deletes the temporary destinations, and frees the client; a blocked
 * {@code receive} returns null. Both wait for the running listeners, so a message listener of this connection
 * must not call them: that is refused with an {@link IllegalStateException} (6.1.4, 6.1.5). A completion
 * listener must not close its own connection (7.3.8); it may stop or start it.
 *
 * <p><b>Client identifier</b> (6.1.2): from the factory, or set with {@link #setClientID} before anything else is
 * done with the connection; an identifier held by another open connection of this JVM is refused with an
 * {@link InvalidClientIDException}.
 *
 * <p><b>Broker loss</b>: the connection probes its broker every {@code heartbeatBrokerInterval} and when an
 * operation finds no broker; the first failure of an outage calls the {@link ExceptionListener} once (on a
 * thread of its own). The connection stays usable: the client reconnects by itself, operations fail with a
 * {@link JMSException} while no broker answers and work again once one does (consumers resume).
 */
public class WharfConnection implements QueueConnection, TopicConnection {

    /** The prefix of a client identifier's claim on the brokers. */
    private static final String CLIENT_ID_CLAIM = "jms-client-id:";

    private static final Logger LOG = LoggerFactory.getLogger(WharfConnection.class);
    private static final ExecutorService EXCEPTION_LISTENERS =
            Executors.newCachedThreadPool(new NamedThreadFactory("wharf-jms-exception-listener", true));

    private final BrokerLink link;
    private final JmsMessageCodec codec;
    private final ConnectionMonitor monitor;
    private final Object lifecycle = new Object();
    private final List<WharfSession> sessions = new CopyOnWriteArrayList<>();
    private final TemporaryDestinations temporaries;
    private final AtomicInteger sessionIds = new AtomicInteger();

    /** Written under {@link #lifecycle}; volatile so that every send can read it without the lock. */
    private volatile String clientId;
    private boolean clientIdClaimed;
    private boolean used;
    private volatile ExceptionListener exceptionListener;
    private volatile boolean started;
    private volatile boolean closed;

    private WharfConnection(BrokerLink link) {
        this.link = link;
        this.temporaries = new TemporaryDestinations(this, link);
        this.codec = new JmsMessageCodec(link.config().deserializationPolicy());
        this.monitor = new ConnectionMonitor(link.connectionId(), link::probe, new ConnectionMonitor.Listener() {
            @Override
            public void lost(JMSException cause) {
                onBrokerLost(cause);
            }

            @Override
            public void recovered() {
                sessions.forEach(WharfSession::brokerRecovered);
            }
        }, link.options().getHeartbeatBrokerInterval());
    }

    /**
     * Opens a connection: starts the vm:// broker if the URL names one, connects the client and checks that a
     * broker answers; claims the factory's client identifier if it has one.
     *
     * @param hooks the factory's transaction hooks
     *
     * @throws InvalidClientIDException when the factory's client identifier is in use
     * @throws JMSException             when no broker can be reached
     */
    public static WharfConnection open(WharfConnectionConfig config, ProviderHooks hooks) throws JMSException {
        BrokerLink link = BrokerLink.open(config, hooks);
        WharfConnection connection = new WharfConnection(link);
        String configured = link.options().getClientID();
        if (configured != null) {
            try {
                claimClientId(link, configured);
            } catch (JMSException e) {
                link.close();
                throw e;
            }
            connection.clientId = configured;
            connection.clientIdClaimed = true;
        }
        try {
            // join the producer group now: the broker asks a live member about transactions whose client died
            link.producer();
        } catch (JMSException e) {
            link.close();
            ClientIds.release(connection.clientIdClaimed ? configured : null);
            throw e;
        }
        connection.monitor.start();
        return connection;
    }

    // ---------------------------------------------------------------- sessions

    @Override
    public Session createSession(boolean transacted, int acknowledgeMode) throws JMSException {
        if (transacted) {
            return newSession(Session.SESSION_TRANSACTED, WharfSession.Domain.ANY);
        }
        checkAcknowledgeMode(acknowledgeMode);
        return newSession(acknowledgeMode, WharfSession.Domain.ANY);
    }

    @Override
    public Session createSession(int sessionMode) throws JMSException {
        if (sessionMode != Session.SESSION_TRANSACTED) {
            checkAcknowledgeMode(sessionMode);
        }
        return newSession(sessionMode, WharfSession.Domain.ANY);
    }

    @Override
    public Session createSession() throws JMSException {
        return newSession(Session.AUTO_ACKNOWLEDGE, WharfSession.Domain.ANY);
    }

    @Override
    public QueueSession createQueueSession(boolean transacted, int acknowledgeMode) throws JMSException {
        if (!transacted) {
            checkAcknowledgeMode(acknowledgeMode);
        }
        return newSession(transacted ? Session.SESSION_TRANSACTED : acknowledgeMode, WharfSession.Domain.QUEUE);
    }

    @Override
    public TopicSession createTopicSession(boolean transacted, int acknowledgeMode) throws JMSException {
        if (!transacted) {
            checkAcknowledgeMode(acknowledgeMode);
        }
        return newSession(transacted ? Session.SESSION_TRANSACTED : acknowledgeMode, WharfSession.Domain.TOPIC);
    }

    private static void checkAcknowledgeMode(int mode) throws JMSException {
        if (mode != Session.AUTO_ACKNOWLEDGE && mode != Session.CLIENT_ACKNOWLEDGE
                && mode != Session.DUPS_OK_ACKNOWLEDGE) {
            throw new JMSException("Acknowledge mode " + mode + " is not valid for a session that is not"
                    + " transacted; use Session.AUTO_ACKNOWLEDGE (1), CLIENT_ACKNOWLEDGE (2) or DUPS_OK_ACKNOWLEDGE"
                    + " (3), or create a transacted session (SESSION_TRANSACTED, 0).");
        }
    }

    private WharfSession newSession(int mode, WharfSession.Domain domain) throws JMSException {
        synchronized (lifecycle) {
            checkOpen();
            used = true;
            WharfSession session = new WharfSession(this, sessionIds.incrementAndGet(), mode, domain);
            sessions.add(session);
            return session;
        }
    }

    void sessionClosed(WharfSession session) {
        sessions.remove(session);
    }

    // ---------------------------------------------------------------- client id, metadata, listener

    @Override
    public String getClientID() throws JMSException {
        checkOpen();
        synchronized (lifecycle) {
            return clientId;
        }
    }

    /**
     * Sets the client identifier; allowed once, before anything else is done with the connection and only when
     * the factory did not configure one.
     *
     * @throws IllegalStateException    when an identifier is already set or the connection was already used
     * @throws InvalidClientIDException when the identifier is malformed or held by another connection
     */
    @Override
    public void setClientID(String id) throws JMSException {
        synchronized (lifecycle) {
            checkOpen();
            if (clientId != null) {
                throw new IllegalStateException("The client id of this connection is already \"" + clientId
                        + "\"; a client id can be set once (here or on the connection factory).");
            }
            if (used) {
                throw new IllegalStateException("The client id must be set right after the connection is created,"
                        + " before it is used; create a new connection and set the client id first.");
            }
            String problem = id == null ? "The client id is null; give a client id or leave it unset."
                    : ConnectionOptions.clientIdProblem(id);
            if (problem != null) {
                throw new InvalidClientIDException(problem);
            }
            claimClientId(link, id);
            clientId = id;
            clientIdClaimed = true;
            used = true;
        }
    }

    /**
     * Takes a client identifier for this connection: first among the connections of this JVM, then on every broker
     * (so a connection of another process cannot hold it at the same time; a broker frees it when this
     * connection's link to it closes, also when the process dies). With the identifier the connection also holds
     * its unshared durable subscriptions, so their one-consumer rule holds across processes too.
     *
     * @throws InvalidClientIDException when a connection of this or another process holds it
     */
    private static void claimClientId(BrokerLink link, String id) throws JMSException {
        ClientIds.claim(id);
        String heldAt;
        try {
            heldAt = link.claimExclusive(CLIENT_ID_CLAIM + id);
        } catch (JMSException | RuntimeException e) {
            ClientIds.release(id);
            throw e;
        }
        if (heldAt != null) {
            ClientIds.release(id);
            throw new InvalidClientIDException("The client id \"" + id + "\" is used by a connection of another"
                    + " process (the broker at " + heldAt + " says so); a client id identifies one connection at a"
                    + " time. Close that connection first or give this one another client id.");
        }
    }

    /** The client id, or null, without marking the connection used (for sends, which already did). */
    String clientIdForSends() {
        return clientId;
    }

    /** The client id, or null; no checks (for the sessions, which are open while the connection is). */
    String clientIdOrNull() {
        synchronized (lifecycle) {
            used = true;
            return clientId;
        }
    }

    @Override
    public ConnectionMetaData getMetaData() throws JMSException {
        checkOpen();
        markUsed();
        return WharfConnectionMetaData.INSTANCE;
    }

    @Override
    public ExceptionListener getExceptionListener() throws JMSException {
        checkOpen();
        markUsed();
        return exceptionListener;
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) throws JMSException {
        checkOpen();
        markUsed();
        this.exceptionListener = listener;
    }

    private void markUsed() {
        synchronized (lifecycle) {
            used = true;
        }
    }

    private void onBrokerLost(JMSException cause) {
        ExceptionListener listener = exceptionListener;
        if (listener == null || closed) {
            return;
        }
        JMSException report = JmsErrors.withCause(new JMSException("Connection " + link.connectionId()
                + " lost its broker: " + cause.getMessage() + " The connection keeps trying and works again once"
                + " the broker answers; close it if you would rather reconnect yourself.", "CONNECTION_LOST"), cause);
        EXCEPTION_LISTENERS.execute(() -> {
            try {
                listener.onException(report);
            } catch (RuntimeException e) {
                LOG.warn("The exception listener of connection {} threw {}", link.connectionId(), e.toString());
            }
        });
    }

    /** An operation found no broker: check the link now rather than at the next probe. */
    void suspectBroker() {
        monitor.suspect();
    }

    // ---------------------------------------------------------------- start, stop, close

    @Override
    public void start() throws JMSException {
        synchronized (lifecycle) {
            checkOpen();
            used = true;
            if (started) {
                return;
            }
            started = true;
        }
        for (WharfSession s : sessions) {
            s.connectionStarted();
        }
    }

    /**
     * Pauses delivery; returns when no message listener of the connection runs. A completion listener may call
     * it: the message listener of its own session is then not waited for, as it may itself be waiting for the
     * session's asynchronous sends, that is for the caller.
     *
     * @throws IllegalStateException when a message listener of this connection calls it (it would wait for
     *                               itself; 6.1.4)
     */
    @Override
    public void stop() throws JMSException {
        checkNotInMessageListener("stop");
        synchronized (lifecycle) {
            checkOpen();
            used = true;
            if (!started) {
                return;
            }
            started = false;
        }
        for (WharfSession s : sessions) {
            if (!s.isCompletionListenerThread()) {
                s.awaitDeliveryPaused();
            }
        }
    }

    public boolean isStarted() {
        return started;
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * Closes the connection and everything it made; closing a closed connection does nothing.
     *
     * @throws IllegalStateException when a message listener (6.1.5) or a completion listener (7.3.8) of this
     *                               connection calls it
     */
    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        checkNotInCompletionListener("close");
        checkNotInMessageListener("close");
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            started = false;
        }
        monitor.stop();
        JMSException first = null;
        for (WharfSession s : sessions) {
            try {
                s.close();
            } catch (JMSException e) {
                first = first == null ? e : first;
            }
        }
        temporaries.deleteAll();
        link.close();
        synchronized (lifecycle) {
            if (clientIdClaimed) {
                ClientIds.release(clientId);
                clientIdClaimed = false;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private void checkNotInCompletionListener(String what) throws IllegalStateException {
        for (WharfSession s : sessions) {
            if (s.isCompletionListenerThread()) {
                throw new IllegalStateException("A completion listener must not " + what
                        + " its own connection; do it from another thread once the listener returned.");
            }
        }
    }

    /** Refuses what would make a message listener of this connection wait for itself to return. */
    private void checkNotInMessageListener(String what) throws IllegalStateException {
        if (isMessageListenerThread()) {
            throw new IllegalStateException("A message listener must not " + what + " its own connection: that"
                    + " waits until the listeners returned, so it would wait for itself. Do it from another thread.");
        }
    }

    /** Whether the calling thread runs a message listener of a session of this connection. */
    public boolean isMessageListenerThread() {
        for (WharfSession s : sessions) {
            if (s.isDeliveryThread()) {
                return true;
            }
        }
        return false;
    }

    void checkOpen() throws IllegalStateException {
        if (closed) {
            throw JmsErrors.closed("connection");
        }
    }

    // ---------------------------------------------------------------- temporary destinations

    WharfTemporaryQueue createTemporaryQueue() throws JMSException {
        checkOpen();
        markUsed();
        return temporaries.createQueue();
    }

    WharfTemporaryTopic createTemporaryTopic() throws JMSException {
        checkOpen();
        markUsed();
        return temporaries.createTopic();
    }

    /** Whether this connection created the temporary destination (and so may consume from it). */
    boolean created(WharfTemporaryDestination destination) {
        return temporaries.createdHere(destination);
    }

    /** Whether a session of this connection has a consumer on the destination. */
    boolean hasConsumerOn(WharfDestination destination) {
        for (WharfSession s : sessions) {
            if (s.hasConsumerOn(destination)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- application server facilities

    /**
     * Not supported: connection consumers belong to the optional application server facilities (Jakarta
     * Messaging 3.1, chapter 9), which Wharf does not provide; use sessions with message listeners.
     */
    @Override
    public ConnectionConsumer createConnectionConsumer(Destination destination, String messageSelector,
                                                       ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw noConnectionConsumers();
    }

    /** Not supported; see {@link #createConnectionConsumer(Destination, String, ServerSessionPool, int)}. */
    @Override
    public ConnectionConsumer createConnectionConsumer(Queue queue, String messageSelector,
                                                       ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw noConnectionConsumers();
    }

    /** Not supported; see {@link #createConnectionConsumer(Destination, String, ServerSessionPool, int)}. */
    @Override
    public ConnectionConsumer createConnectionConsumer(Topic topic, String messageSelector,
                                                       ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw noConnectionConsumers();
    }

    /** Not supported; see {@link #createConnectionConsumer(Destination, String, ServerSessionPool, int)}. */
    @Override
    public ConnectionConsumer createSharedConnectionConsumer(Topic topic, String subscriptionName,
                                                             String messageSelector, ServerSessionPool sessionPool,
                                                             int maxMessages) throws JMSException {
        throw noConnectionConsumers();
    }

    /** Not supported; see {@link #createConnectionConsumer(Destination, String, ServerSessionPool, int)}. */
    @Override
    public ConnectionConsumer createDurableConnectionConsumer(Topic topic, String subscriptionName,
                                                              String messageSelector, ServerSessionPool sessionPool,
                                                              int maxMessages) throws JMSException {
        throw noConnectionConsumers();
    }

    /** Not supported; see {@link #createConnectionConsumer(Destination, String, ServerSessionPool, int)}. */
    @Override
    public ConnectionConsumer createSharedDurableConnectionConsumer(Topic topic, String subscriptionName,
                                                                    String messageSelector,
                                                                    ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw noConnectionConsumers();
    }

    private JMSException noConnectionConsumers() throws JMSException {
        checkOpen();
        return new JMSException("Wharf does not provide connection consumers (the optional application server"
                + " facilities); create sessions and set message listeners on their consumers instead.");
    }

    // ---------------------------------------------------------------- for sessions

    BrokerLink link() {
        return link;
    }

    JmsMessageCodec codec() {
        return codec;
    }

    /** What object messages received on this connection may deserialize. */
    public DeserializationPolicy deserializationPolicy() {
        return codec.policy();
    }

    @Override
    public String toString() {
        return "WharfConnection{" + link.connectionId() + ", " + link.config().url()
                + (clientId == null ? "" : ", clientID=" + clientId) + (closed ? ", closed" : "") + "}";
    }
}

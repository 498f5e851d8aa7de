package dev.wharf.jms.context;

import static dev.wharf.jms.error.JmsErrors.unchecked;
import static dev.wharf.jms.error.JmsErrors.uncheckedRun;

import dev.wharf.jms.core.WharfConnection;
import dev.wharf.jms.core.WharfMessageConsumer;
import dev.wharf.jms.core.WharfSession;
import dev.wharf.jms.message.DeserializationPolicy;
import dev.wharf.jms.message.WharfBytesMessage;
import dev.wharf.jms.message.WharfMapMessage;
import dev.wharf.jms.message.WharfMessage;
import dev.wharf.jms.message.WharfObjectMessage;
import dev.wharf.jms.message.WharfStreamMessage;
import dev.wharf.jms.message.WharfTextMessage;
import jakarta.jms.BytesMessage;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A {@link JMSContext}: a connection (shared with every context created from this one by
 * {@link #createContext(int)}, closed with the last of them) and one session, created on first use so that
 * {@link #setClientID} can still be called right after the context was made (Jakarta Messaging 3.1, 6.1.2).
 * Consumers start the connection when auto-start is on (the default).
 *
 * <p>A message listener or completion listener of this context must not close or stop it: that throws
 * {@link IllegalStateRuntimeException}, as the {@code JMSContext} Javadoc requires. Not thread-safe, like a session.
 */
public final class WharfJMSContext implements JMSContext {

    /** A connection and how many contexts use it. */
    private static final class SharedConnection {
        final WharfConnection connection;
        final AtomicInteger users = new AtomicInteger(1);

        SharedConnection(WharfConnection connection) {
            this.connection = connection;
        }

        void release() throws JMSException {
            if (users.decrementAndGet() == 0) {
                connection.close();
            }
        }
    }

    private final SharedConnection shared;
    private final int sessionMode;
    private WharfSession session;
    private boolean autoStart = true;
    private volatile boolean closed;

    private WharfJMSContext(SharedConnection shared, int sessionMode) {
        this.shared = shared;
        this.sessionMode = sessionMode;
    }

    /**
     * A context on a new connection; the connection is closed again when the context cannot be made.
     *
     * @param sessionMode one of the four session modes (checked by the caller)
     */
    public static WharfJMSContext open(WharfConnection connection, int sessionMode) {
        return new WharfJMSContext(new SharedConnection(connection), sessionMode);
    }

    // ---------------------------------------------------------------- connection and session

    @Override
    public JMSContext createContext(int sessionMode) {
        checkOpen();
        checkSessionMode(sessionMode);
        shared.users.incrementAndGet();
        return new WharfJMSContext(shared, sessionMode);
    }

    /** Refuses a session mode that is not one of the four {@link JMSContext} modes. */
    public static void checkSessionMode(int sessionMode) {
        if (sessionMode != AUTO_ACKNOWLEDGE && sessionMode != CLIENT_ACKNOWLEDGE
                && sessionMode != DUPS_OK_ACKNOWLEDGE && sessionMode != SESSION_TRANSACTED) {
            throw new jakarta.jms.JMSRuntimeException("Session mode " + sessionMode + " is not a JMSContext mode;"
                    + " use JMSContext.AUTO_ACKNOWLEDGE (1), CLIENT_ACKNOWLEDGE (2), DUPS_OK_ACKNOWLEDGE (3) or"
                    + " SESSION_TRANSACTED (0).");
        }
    }

    /** The context's session, created on first use. */
    WharfSession session() {
        checkOpen();
        if (session == null) {
            session = (WharfSession) unchecked(() -> shared.connection.createSession(sessionMode));
        }
        return session;
    }

    private WharfConnection connection() {
        checkOpen();
        return shared.connection;
    }

    DeserializationPolicy deserializationPolicy() {
        return connection().deserializationPolicy();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateRuntimeException("The JMSContext is closed; create a new one to continue.");
        }
    }

    @Override
    public String getClientID() {
        return unchecked(() -> connection().getClientID());
    }

    @Override
    public void setClientID(String clientID) {
        uncheckedRun(() -> connection().setClientID(clientID));
    }

    @Override
    public ConnectionMetaData getMetaData() {
        return unchecked(() -> connection().getMetaData());
    }

    @Override
    public ExceptionListener getExceptionListener() {
        return unchecked(() -> connection().getExceptionListener());
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) {
        uncheckedRun(() -> connection().setExceptionListener(listener));
    }

    @Override
    public void start() {
        uncheckedRun(() -> connection().start());
    }

    /**
     * Pauses delivery of the shared connection. A completion listener may call it (only close, commit and
     * rollback are forbidden there, 7.3.8).
     *
     * @throws IllegalStateRuntimeException when a message listener of the connection calls it (it would wait
     *                                      for itself)
     */
    @Override
    public void stop() {
        WharfConnection c = connection();
        if (c.isMessageListenerThread()) {
            throw new IllegalStateRuntimeException("A message listener must not stop its own JMSContext: that"
                    + " waits until the listeners returned, so it would wait for itself. Do it from another thread.");
        }
        uncheckedRun(c::stop);
    }

    @Override
    public void setAutoStart(boolean autoStart) {
        checkOpen();
        this.autoStart = autoStart;
    }

    @Override
    public boolean getAutoStart() {
        checkOpen();
        return autoStart;
    }

    /**
     * Closes the session and, when no other context shares it, the connection. Closing a closed context does
     * nothing.
     *
     * @throws IllegalStateRuntimeException when called from a message or completion listener of this context
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        checkNotInOwnListener("close");
        closed = true;
        uncheckedRun(() -> {
            try {
                if (session != null) {
                    session.close();
                }
            } finally {
                shared.release();
            }
        });
    }

    private void checkNotInOwnListener(String what) {
        WharfSession s = session;
        if (s != null && (s.isCompletionListenerThread() || s.isDeliveryThread())) {
            throw new IllegalStateRuntimeException("A listener of this JMSContext must not " + what + " it; do it"
                    + " from another thread once the listener returned.");
        }
    }

    // ---------------------------------------------------------------- messages

    <M extends WharfMessage> M newMessage(Supplier<M> factory) {
        checkOpen();
        return factory.get();
    }

    @Override
    public BytesMessage createBytesMessage() {
        return newMessage(WharfBytesMessage::new);
    }

    @Override
    public MapMessage createMapMessage() {
        return newMessage(WharfMapMessage::new);
    }

    @Override
    public Message createMessage() {
        return newMessage(WharfMessage::new);
    }

    @Override
    public ObjectMessage createObjectMessage() {
        return newMessage(() -> new WharfObjectMessage(deserializationPolicy()));
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) {
        ObjectMessage m = createObjectMessage();
        uncheckedRun(() -> m.setObject(object));
        return m;
    }

    @Override
    public StreamMessage createStreamMessage() {
        return newMessage(WharfStreamMessage::new);
    }

    @Override
    public TextMessage createTextMessage() {
        return newMessage(WharfTextMessage::new);
    }

    @Override
    public TextMessage createTextMessage(String text) {
        return newMessage(() -> new WharfTextMessage(text));
    }

    // ---------------------------------------------------------------- transactions and acknowledgement

    @Override
    public boolean getTransacted() {
        checkOpen();
        return sessionMode == SESSION_TRANSACTED;
    }

    @Override
    public int getSessionMode() {
        checkOpen();
        return sessionMode;
    }

    @Override
    public void commit() {
        uncheckedRun(() -> session().commit());
    }

    @Override
    public void rollback() {
        uncheckedRun(() -> session().rollback());
    }

    @Override
    public void recover() {
        uncheckedRun(() -> session().recover());
    }

    /** Acknowledges every message the session consumed so far (CLIENT_ACKNOWLEDGE; nothing in other modes). */
    @Override
    public void acknowledge() {
        uncheckedRun(() -> session().acknowledgeAll());
    }

    // ---------------------------------------------------------------- producers and consumers

    @Override
    public JMSProducer createProducer() {
        checkOpen();
        session();
        return new WharfJMSProducer(this);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination) {
        return createConsumer(destination, null, false);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector) {
        return createConsumer(destination, messageSelector, false);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal) {
        return started(unchecked(() -> session().createConsumer(destination, messageSelector, noLocal)));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        return createDurableConsumer(topic, name, null, false);
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        return started(unchecked(() -> session().createDurableConsumer(topic, name, messageSelector, noLocal)));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        return createSharedDurableConsumer(topic, name, null);
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        return started(unchecked(() -> session().createSharedDurableConsumer(topic, name, messageSelector)));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        return createSharedConsumer(topic, sharedSubscriptionName, null);
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector) {
        return started(unchecked(() -> session().createSharedConsumer(topic, sharedSubscriptionName,
                messageSelector)));
    }

    private JMSConsumer started(jakarta.jms.MessageConsumer consumer) {
        if (autoStart) {
            uncheckedRun(() -> shared.connection.start());
        }
        return new WharfJMSConsumer((WharfMessageConsumer) consumer);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) {
        return createBrowser(queue, null);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) {
        return unchecked(() -> session().createBrowser(queue, messageSelector));
    }

    @Override
    public void unsubscribe(String name) {
        uncheckedRun(() -> session().unsubscribe(name));
    }

    // ---------------------------------------------------------------- destinations

    @Override
    public Queue createQueue(String queueName) {
        return unchecked(() -> session().createQueue(queueName));
    }

    @Override
    public Topic createTopic(String topicName) {
        return unchecked(() -> session().createTopic(topicName));
    }

    @Override
    public TemporaryQueue createTemporaryQueue() {
        return unchecked(() -> session().createTemporaryQueue());
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        return unchecked(() -> session().createTemporaryTopic());
    }

    @Override
    public String toString() {
        return "WharfJMSContext{" + shared.connection + ", mode=" + sessionMode + (closed ? ", closed" : "") + "}";
    }
}

package dev.wharf.jms;

import dev.wharf.jms.config.AbstractConnectionOptions;
import dev.wharf.jms.config.ConnectionOptionTable;
import dev.wharf.jms.config.ConnectionOptions;
import dev.wharf.jms.config.WharfConnectionConfig;
import dev.wharf.jms.config.WharfUrl;
import dev.wharf.jms.context.WharfJMSContext;
import dev.wharf.jms.core.WharfConnection;
import dev.wharf.jms.engine.ProviderHooks;
import dev.wharf.jms.spi.DefaultTransactionChecker;
import dev.wharf.jms.spi.TransactionChecker;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import dev.wharf.jms.error.JmsErrors;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import javax.naming.Reference;
import javax.naming.Referenceable;
import javax.naming.StringRefAddr;

/**
 * The entry point of the provider: a JMS connection factory for a Wharf broker, configured by a broker URL and
 * JavaBean options.
 *
 * <pre>
 * ConnectionFactory cf = new WharfConnectionFactory("wharf://ns1:9876,ns2:9876?maxReconsumeTimes=3");
 * ConnectionFactory local = new WharfConnectionFactory("vm://local?flushDiskType=SYNC_FLUSH");
 * </pre>
 *
 * See {@link WharfUrl} for the URL forms and {@link ConnectionOptionTable} for the options (URL parameters and
 * setters, inherited from {@link AbstractConnectionOptions}, are the same options; the last call wins). A bad URL
 * or option is refused at once with an {@link IllegalArgumentException} saying what is wrong. The first connection
 * freezes the options: a later setter throws {@link IllegalStateException}. The factory is {@link Serializable} and
 * {@link Referenceable}, so it can be bound in any JNDI tree; {@code dev.wharf.jms.jndi.WharfInitialContextFactory}
 * provides a properties-based one.
 *
 * <p>Thread-safety: configure first, then share; creating connections from many threads is safe. The transaction
 * hooks are not options and stay settable.
 */
public class WharfConnectionFactory extends AbstractConnectionOptions implements ConnectionFactory,
        QueueConnectionFactory, TopicConnectionFactory, Serializable, Referenceable {

    @Serial
    private static final long serialVersionUID = 2L;

    /** The URL of a factory created without one: a NameServer on this host at RocketMQ's default port. */
    public static final String DEFAULT_BROKER_URL = "wharf://localhost:" + WharfUrl.DEFAULT_NAMESRV_PORT;
    /** Name of the JNDI reference address holding the broker URL; the other addresses are option names. */
    public static final String REFERENCE_BROKER_URL = "brokerURL";
    private static final String OBJECT_FACTORY = "dev.wharf.jms.jndi.WharfObjectFactory";

    private WharfUrl url;
    /** Set by the first connection attempt; from then on the options are read-only. Not serialized. */
    private transient volatile boolean frozen;
    /** Not serialized (and not in the JNDI reference): hooks are code, set by the framework that owns the factory. */
    private transient volatile TransactionLifecycleListener transactionLifecycleListener;
    private transient volatile TransactionChecker transactionChecker;

    /** A factory for {@value #DEFAULT_BROKER_URL}. */
    public WharfConnectionFactory() {
        this(DEFAULT_BROKER_URL);
    }

    /**
     * @throws IllegalArgumentException when the URL is malformed or sets an unknown or invalid option
     */
    public WharfConnectionFactory(String brokerURL) {
        setBrokerURL(brokerURL);
    }

    /** The configuration connections are opened with, a snapshot of the current URL and options. */
    public WharfConnectionConfig getConfig() {
        return WharfConnectionConfig.of(url, this);
    }

    // ---------------------------------------------------------------- ConnectionFactory

    @Override
    public Connection createConnection() throws JMSException {
        return createConnection(null, null);
    }

    /**
     * Opens a connection whose requests are signed as {@code userName} (null: the factory's {@code user} option, if
     * any). The password never leaves this process: a key derived from it signs each request.
     *
     * @throws JMSException when no broker can be reached (the message names the address), with
     *                      {@link jakarta.jms.JMSSecurityException} when the servers refuse the user or password, or
     *                      with {@link jakarta.jms.InvalidClientIDException} when the factory's client id is in use
     */
    @Override
    public Connection createConnection(String userName, String password) throws JMSException {
        return open(userName, password);
    }

    /** Opens a connection; the first call freezes the options. */
    private WharfConnection open(String userName, String password) throws JMSException {
        frozen = true;
        return WharfConnection.open(configFor(userName, password), hooks());
    }

    /** The configuration with the caller's user and password in place of the factory's, when a user is given. */
    private WharfConnectionConfig configFor(String userName, String password) {
        WharfConnectionConfig config = getConfig();
        if (userName == null) {
            return config;
        }
        ConnectionOptions withUser = config.options();
        withUser.setUser(userName);
        withUser.setPassword(password);
        return WharfConnectionConfig.of(config.url(), withUser);
    }

    @Override
    public QueueConnection createQueueConnection() throws JMSException {
        return createQueueConnection(null, null);
    }

    @Override
    public QueueConnection createQueueConnection(String userName, String password) throws JMSException {
        return open(userName, password);
    }

    @Override
    public TopicConnection createTopicConnection() throws JMSException {
        return createTopicConnection(null, null);
    }

    @Override
    public TopicConnection createTopicConnection(String userName, String password) throws JMSException {
        return open(userName, password);
    }

    @Override
    public JMSContext createContext() {
        return createContext(null, null, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        return createContext(userName, password, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        return createContext(null, null, sessionMode);
    }

    /**
     * @throws JMSRuntimeException when {@code sessionMode} is not one of the four {@link JMSContext} modes
     */
    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        checkSessionMode(sessionMode);
        return WharfJMSContext.open(JmsErrors.unchecked(() -> open(userName, password)), sessionMode);
    }

    /** Refuses a session mode that is not AUTO_ACKNOWLEDGE, CLIENT_ACKNOWLEDGE, DUPS_OK_ACKNOWLEDGE or SESSION_TRANSACTED. */
    static void checkSessionMode(int sessionMode) {
        if (sessionMode != JMSContext.AUTO_ACKNOWLEDGE && sessionMode != JMSContext.CLIENT_ACKNOWLEDGE
                && sessionMode != JMSContext.DUPS_OK_ACKNOWLEDGE && sessionMode != JMSContext.SESSION_TRANSACTED) {
            throw new JMSRuntimeException("Session mode " + sessionMode + " is not a JMSContext mode; use"
                    + " JMSContext.AUTO_ACKNOWLEDGE (1), CLIENT_ACKNOWLEDGE (2), DUPS_OK_ACKNOWLEDGE (3) or"
                    + " SESSION_TRANSACTED (0).");
        }
    }

    // ---------------------------------------------------------------- transaction hooks

    /**
     * Sets who hears when a transacted session starts and ends a Wharf transaction (for frameworks that record
     * the transaction id with their own work, see {@link TransactionLifecycleListener}); null for nobody. Applies
     * to connections created afterwards. Not serialized.
     */
    public void setTransactionLifecycleListener(TransactionLifecycleListener listener) {
        this.transactionLifecycleListener = listener;
    }

    public TransactionLifecycleListener getTransactionLifecycleListener() {
        return transactionLifecycleListener;
    }

    /**
     * Sets who answers the broker's check-backs about transactions whose outcome it never learned; null (the
     * default) for {@link DefaultTransactionChecker} with the {@code transactionTimeout} option. Applies to
     * connections created afterwards. Not serialized.
     */
    public void setTransactionChecker(TransactionChecker checker) {
        this.transactionChecker = checker;
    }

    /** The checker set with {@link #setTransactionChecker}, or null for the default one. */
    public TransactionChecker getTransactionChecker() {
        return transactionChecker;
    }

    private ProviderHooks hooks() {
        TransactionChecker checker = transactionChecker;
        return new ProviderHooks(transactionLifecycleListener,
                checker != null ? checker : new DefaultTransactionChecker(getTransactionTimeout()));
    }

    // ---------------------------------------------------------------- URL and frozen options

    /** The broker URL as given. */
    public String getBrokerURL() {
        return url.text();
    }

    /**
     * Sets the broker URL; its parameters set options like the setters do.
     *
     * @throws IllegalArgumentException when the URL is malformed or sets an unknown or invalid option (the
     *                                  factory is then unchanged)
     * @throws IllegalStateException    after the factory's first connection
     */
    public void setBrokerURL(String brokerURL) {
        beforeChange(REFERENCE_BROKER_URL);
        this.url = WharfConnectionConfig.applyUrl(brokerURL, this);
    }

    /** The NameServer addresses in RocketMQ's form {@code host:port;host:port}, or null for a vm:// URL. */
    public String getNamesrvAddr() {
        return getConfig().namesrvAddr();
    }

    /** Sets the URL to {@code wharf://} with these NameServers ({@code host:port;host:port}, RocketMQ's form). */
    public void setNamesrvAddr(String namesrvAddr) {
        if (namesrvAddr == null || namesrvAddr.isBlank()) {
            throw new IllegalArgumentException("namesrvAddr is empty; give host:port[;host:port].");
        }
        setBrokerURL("wharf://" + namesrvAddr.strip().replace(';', ','));
    }

    /**
     * Refuses every change of an option once the factory opened a connection (as ActiveMQ Artemis does): its
     * connections, and everything that cached the factory, would otherwise run with options other than the ones
     * it reports.
     */
    @Override
    protected void beforeChange(String option) {
        if (frozen) {
            throw new IllegalStateException("The option " + option + " of this connection factory cannot change"
                    + " after its first connection; set it before the first connection (or use another factory).");
        }
    }

    // ---------------------------------------------------------------- JNDI and serialization

    /** A reference holding the URL and every option, resolved by {@code dev.wharf.jms.jndi.WharfObjectFactory}. */
    @Override
    public Reference getReference() {
        Reference ref = new Reference(getClass().getName(), OBJECT_FACTORY, null);
        ref.add(new StringRefAddr(REFERENCE_BROKER_URL, url.text()));
        toSettings().forEach((k, v) -> ref.add(new StringRefAddr(k, v)));
        return ref;
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        if (url == null) {
            throw new InvalidObjectException("A serialized WharfConnectionFactory without a broker URL.");
        }
    }

    @Override
    public String toString() {
        return "WharfConnectionFactory{" + url + ", " + toSettings() + "}";
    }
}

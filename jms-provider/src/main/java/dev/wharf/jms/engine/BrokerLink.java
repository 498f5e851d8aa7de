package dev.wharf.jms.engine;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.message.UniqueIdGenerator;
import dev.wharf.jms.config.ConnectionOptions;
import dev.wharf.jms.config.WharfConnectionConfig;
import dev.wharf.jms.error.JmsErrors;
import dev.wharf.jms.vm.VmBrokerRegistry;
import jakarta.jms.JMSException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one JMS connection talks to Wharf through: its own low-level client instance (own instance name, so that
 * the consumer groups of two connections never collide in one client id and closing one connection closes only
 * its sockets), the connection's producer and admin client (both started on first use), and the probe that tells
 * whether the NameServer and a broker answer.
 *
 * <p>The underlying client reconnects by itself: every request opens a new socket when the old one is gone, and
 * routes are refreshed from the NameServer every {@code pollNameServerInterval}; so a connection keeps working
 * after a broker restart without being reopened.
 *
 * <p>Thread-safe.
 */
public final class BrokerLink implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerLink.class);
    private static final AtomicLong SEQUENCE = new AtomicLong();
    /** The group the probe asks a broker about; any answer, even "no such group", proves the broker is alive. */
    private static final String PROBE_GROUP = "WHARF_JMS_PROBE";

    private final WharfConnectionConfig config;
    private final ConnectionOptions options;
    private final ClientConfig clientConfig;
    private final String connectionId = UniqueIdGenerator.next();
    private final ClientInstance instance;
    private Producer producer;
    private AdminClient admin;
    private boolean closed;

    private BrokerLink(WharfConnectionConfig config, ClientConfig clientConfig, ClientInstance instance) {
        this.config = config;
        this.options = config.options();
        this.clientConfig = clientConfig;
        this.instance = instance;
    }

    /**
     * Connects: starts the vm:// broker if the URL names one, starts a client instance and checks that the
     * NameServer and a broker answer.
     *
     * @throws JMSException saying what could not be reached and what to check
     */
    public static BrokerLink open(WharfConnectionConfig config) throws JMSException {
        String namesrvAddr = config.isVm() ? VmBrokerRegistry.shared().acquire(config).namesrvAddr()
                : config.namesrvAddr();
        ClientConfig clientConfig = clientConfig(config.options(), namesrvAddr);
        ClientInstance instance;
        try {
            instance = ClientInstance.acquire(clientConfig);
        } catch (ClientException e) {
            throw JmsErrors.fromClient(e, "connect to " + config.url());
        }
        BrokerLink link = new BrokerLink(config, clientConfig, instance);
        try {
            link.probe();
        } catch (JMSException e) {
            instance.release();
            throw JmsErrors.withCause(new JMSException("Cannot connect to " + config.url() + ": " + e.getMessage(),
                    e.getErrorCode()), e);
        }
        return link;
    }

    static ClientConfig clientConfig(ConnectionOptions options, String namesrvAddr) throws JMSException {
        ClientConfig c = new ClientConfig();
        try {
            c.setNamesrvAddr(namesrvAddr);
            String base = options.getInstanceName() == null ? "jms" : options.getInstanceName();
            c.setInstanceName(base + "-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
            c.setPollNameServerInterval(millis(options.getPollNameServerInterval()));
            c.setHeartbeatBrokerInterval(millis(options.getHeartbeatBrokerInterval()));
            c.setPersistConsumerOffsetInterval(millis(options.getPersistConsumerOffsetInterval()));
            c.setClientCallbackExecutorThreads(2);
        } catch (IllegalArgumentException e) {
            throw JmsErrors.jms("The connection options cannot configure the client: " + e.getMessage(), e);
        }
        return c;
    }

    private static int millis(long value) {
        return (int) Math.min(Integer.MAX_VALUE, value);
    }

    /**
     * Checks that the NameServer answers, that a broker is registered with it and that at least one registered
     * master answers a request.
     *
     * @throws JMSException naming what did not answer
     */
    public void probe() throws JMSException {
        Map<String, String> masters;
        try {
            masters = instance.routes().clusterMasters();
        } catch (ClientException e) {
            throw JmsErrors.jms("The NameServer at " + clientConfig.getNamesrvAddr() + " does not answer ("
                    + e.getMessage() + "); check that it runs and is reachable.", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw JmsErrors.jms("Interrupted while checking the broker connection.", e);
        }
        if (masters.isEmpty()) {
            throw new JMSException("No broker is registered with the NameServer at " + clientConfig.getNamesrvAddr()
                    + "; start a broker that registers with it.");
        }
        List<String> silent = new ArrayList<>();
        ClientException last = null;
        for (Map.Entry<String, String> master : masters.entrySet()) {
            try {
                instance.groupApi().consumerIds(master.getValue(), PROBE_GROUP, instance.apiTimeoutMillis());
                return;
            } catch (ClientException e) {
                if (!e.isNoResponse()) {
                    return;
                }
                silent.add(master.getKey() + " at " + master.getValue());
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw JmsErrors.jms("Interrupted while checking the broker connection.", e);
            }
        }
        throw JmsErrors.jms("No broker answers (" + String.join(", ", silent) + "); check that the broker runs and"
                + " is reachable.", last);
    }

    /** A unique id of this connection, stamped on every message it sends (for noLocal consumers). */
    public String connectionId() {
        return connectionId;
    }

    public WharfConnectionConfig config() {
        return config;
    }

    public ConnectionOptions options() {
        return options;
    }

    /** The client id of the underlying client instance. */
    public String clientInstanceId() {
        return instance.clientId();
    }

    /** The client configuration every member of this connection is built with. */
    public ClientConfig clientConfig() {
        return clientConfig;
    }

    /**
     * The connection's producer, started on first use.
     *
     * @throws JMSException when the connection is closed or the producer cannot start
     */
    public synchronized Producer producer() throws JMSException {
        checkOpen();
        if (producer == null) {
            Producer p = new Producer(options.getProducerGroup(), clientConfig);
            p.setSendMsgTimeout(millis(options.getSendTimeout()));
            p.setRetryTimesWhenSendFailed(options.getRetryTimesWhenSendFailed());
            p.setRetryTimesWhenSendAsyncFailed(options.getRetryTimesWhenSendFailed());
            try {
                p.start();
            } catch (ClientException e) {
                throw JmsErrors.fromClient(e, "start the producer of group " + options.getProducerGroup());
            }
            producer = p;
        }
        return producer;
    }

    /**
     * The connection's admin client (temporary destinations), started on first use.
     *
     * @throws JMSException when the connection is closed or the client cannot start
     */
    public synchronized AdminClient admin() throws JMSException {
        checkOpen();
        if (admin == null) {
            AdminClient a = new AdminClient(clientConfig);
            try {
                a.start();
            } catch (ClientException e) {
                throw JmsErrors.fromClient(e, "start the admin client");
            }
            admin = a;
        }
        return admin;
    }

    private void checkOpen() throws JMSException {
        if (closed) {
            throw JmsErrors.closed("connection");
        }
    }

    /** Shuts the producer and admin client down and gives the client instance back. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (producer != null) {
            producer.shutdown();
        }
        if (admin != null) {
            admin.shutdown();
        }
        instance.release();
        LOG.debug("Connection {} closed its client {}", connectionId, instance.clientId());
    }
}

package dev.wharf.jms.engine;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.ack.AckConsumer;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.common.message.UniqueIdGenerator;
import dev.wharf.jms.config.ConnectionOptions;
import dev.wharf.jms.config.WharfConnectionConfig;
import dev.wharf.jms.error.JmsErrors;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import dev.wharf.jms.vm.VmBrokerRegistry;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.AckGroups;
import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
    /** Queues per broker of a topic a subscriber creates because nobody published to it yet. */
    public static final int SUBSCRIBED_TOPIC_QUEUES = 8;

    private final WharfConnectionConfig config;
    private final ConnectionOptions options;
    private final ClientConfig clientConfig;
    private final String connectionId = UniqueIdGenerator.next();
    private final ClientInstance instance;
    private final Map<String, AckConsumer> ackConsumers = new HashMap<>();
    private final LeaseKeeper leases;
    private final ProviderHooks hooks;
    private TransactionProducer producer;
    private AdminClient admin;
    private boolean closed;

    private BrokerLink(WharfConnectionConfig config, ClientConfig clientConfig, ClientInstance instance,
                       ProviderHooks hooks) {
        this.config = config;
        this.hooks = hooks;
        this.options = config.options();
        this.clientConfig = clientConfig;
        this.instance = instance;
        this.leases = new LeaseKeeper(options.getLeaseTime());
    }

    /**
     * Connects: starts the vm:// broker if the URL names one, starts a client instance and checks that the
     * NameServer and a broker answer.
     *
     * @throws JMSException saying what could not be reached and what to check
     */
    public static BrokerLink open(WharfConnectionConfig config, ProviderHooks hooks) throws JMSException {
        String namesrvAddr = config.isVm() ? VmBrokerRegistry.shared().acquire(config).namesrvAddr()
                : config.namesrvAddr();
        ClientConfig clientConfig = clientConfig(config.options(), namesrvAddr);
        ClientInstance instance;
        try {
            instance = ClientInstance.acquire(clientConfig);
        } catch (ClientException e) {
            if (e.getCause() instanceof IllegalArgumentException bad) {
                // settings the client refused before sending anything: a bad password form, unreadable TLS files
                boolean credentials = !clientConfig.getAccessKey().isEmpty() && !clientConfig.isTlsEnable()
                        || String.valueOf(bad.getMessage()).contains("password of user");
                String message = "Cannot connect to " + config.url() + ": " + bad.getMessage();
                throw JmsErrors.withCause(credentials ? new JMSSecurityException(message) : new JMSException(message),
                        e);
            }
            throw JmsErrors.fromClient(e, "connect to " + config.url());
        }
        BrokerLink link = new BrokerLink(config, clientConfig, instance, hooks);
        try {
            link.probe();
        } catch (JMSException e) {
            instance.release();
            String message = "Cannot connect to " + config.url() + ": " + e.getMessage();
            throw JmsErrors.withCause(e instanceof JMSSecurityException ? new JMSSecurityException(message,
                    e.getErrorCode()) : new JMSException(message, e.getErrorCode()), e);
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
            if (options.getUser() != null) {
                c.withCredentials(options.getUser(), options.getPassword());
            }
            c.setTlsEnable(options.isTls());
            c.setTlsTrustCertPath(options.getTlsTrustCertPath());
            c.setTlsCertPath(options.getTlsCertPath());
            c.setTlsKeyPath(options.getTlsKeyPath());
            c.setTlsKeyPassword(options.getTlsKeyPassword());
            c.setTlsVerifyHostname(options.isTlsVerifyHostname());
            c.setTlsManagers(options.getTlsKeyManagers(), options.getTlsTrustManagers());
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
     * broker answers a request: a master, or a slave (which serves reads of its group while the master is down),
     * so a connection counts as lost only when nothing can serve it.
     *
     * @throws JMSException naming what did not answer
     */
    public void probe() throws JMSException {
        // label -> address, every group's master first (it serves everything), then the slaves
        Map<String, String> brokers = new java.util.LinkedHashMap<>();
        try {
            ClusterInfo cluster = instance.nameServer().clusterInfo();
            Map<String, BrokerData> table = cluster == null || cluster.brokerAddrTable() == null ? Map.of()
                    : new TreeMap<>(cluster.brokerAddrTable());
            Map<String, String> slaves = new java.util.LinkedHashMap<>();
            for (BrokerData b : table.values()) {
                if (b.brokerAddrs() != null) {
                    new TreeMap<>(b.brokerAddrs()).forEach((id, address) -> (id == 0L ? brokers : slaves)
                            .put(b.brokerName() + (id == 0L ? " master" : " slave " + id) + " at " + address, address));
                }
            }
            brokers.putAll(slaves);
        } catch (ClientException e) {
            if (isSecurityRefusal(e)) {
                throw JmsErrors.fromClient(e, "connect as " + describeUser());
            }
            throw JmsErrors.jms("The NameServer at " + clientConfig.getNamesrvAddr() + " does not answer ("
                    + e.getMessage() + "); check that it runs and is reachable.", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw JmsErrors.jms("Interrupted while checking the broker connection.", e);
        }
        if (brokers.isEmpty()) {
            throw new JMSException("No broker is registered with the NameServer at " + clientConfig.getNamesrvAddr()
                    + "; start a broker that registers with it.");
        }
        List<String> silent = new ArrayList<>();
        ClientException last = null;
        for (Map.Entry<String, String> broker : brokers.entrySet()) {
            try {
                instance.groupApi().consumerIds(broker.getValue(), PROBE_GROUP, instance.apiTimeoutMillis());
                return;
            } catch (ClientException e) {
                if (e.responseCode() == ResponseCode.AUTHENTICATION_FAILED) {
                    throw JmsErrors.fromClient(e, "connect as " + describeUser());
                }
                if (!e.isNoResponse()) {
                    return;
                }
                silent.add(broker.getKey());
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw JmsErrors.jms("Interrupted while checking the broker connection.", e);
            }
        }
        throw JmsErrors.jms("No broker answers (" + String.join(", ", silent) + "); check that the broker runs and"
                + " is reachable.", last);
    }

    private static boolean isSecurityRefusal(ClientException e) {
        return e.responseCode() == ResponseCode.AUTHENTICATION_FAILED || e.responseCode() == ResponseCode.NO_PERMISSION;
    }

    private String describeUser() {
        return clientConfig.getAccessKey().isEmpty() ? "an anonymous user (no user name given)"
                : "user '" + clientConfig.getAccessKey() + "'";
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

    /** Who hears of transactions starting and ending (null for nobody). */
    public TransactionLifecycleListener lifecycle() {
        return hooks.lifecycle();
    }

    /**
     * The connection's producer, started on first use: a transaction producer (its plain sends serve the sessions
     * that are not transacted), whose check-backs the factory's checker answers.
     *
     * @throws JMSException when the connection is closed or the producer cannot start
     */
    public synchronized TransactionProducer producer() throws JMSException {
        checkOpen();
        if (producer == null) {
            TransactionProducer p = new TransactionProducer(options.getProducerGroup(), clientConfig);
            p.setTransactionListener(new JmsTransactionListener(hooks.checker()));
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

    /** Keeps the leases of the connection's held messages alive. */
    public LeaseKeeper leases() {
        return leases;
    }

    /**
     * The connection's ack consumer of a group, started on first use and kept until {@link #dropGroup} or the
     * connection closes (messages a closed JMS consumer delivered may still be acknowledged through it).
     *
     * @throws JMSException when the connection is closed or the group name is not valid
     */
    public synchronized AckConsumer ackConsumer(String group) throws JMSException {
        checkOpen();
        AckConsumer c = ackConsumers.get(group);
        if (c == null) {
            c = new AckConsumer(group, clientConfig);
            c.setMaxReconsumeTimes(options.getMaxReconsumeTimes());
            try {
                c.start();
            } catch (ClientException e) {
                throw JmsErrors.fromClient(e, "consume as group " + group);
            }
            ackConsumers.put(group, c);
        }
        return c;
    }

    /** Stops the connection's ack consumer of a group that will not be used again (a private subscription). */
    public synchronized void dropGroup(String group) {
        AckConsumer c = ackConsumers.remove(group);
        if (c != null) {
            c.shutdown();
        }
    }

    /**
     * Anchors a new subscription: creates the group's acknowledgement state on every broker serving the topic,
     * starting at the topic's end, so the subscription receives what is published from now on (a group without
     * state would start at its first pop and miss what came before). A broker without the topic (nobody published
     * to it yet) gets it created first, with {@value #SUBSCRIBED_TOPIC_QUEUES} queues; an existing topic is never
     * changed. State the group already has is kept (a durable subscription resumes where it was).
     */
    public void anchorGroup(String group, String topic) throws JMSException {
        try {
            Map<String, String> brokers = new TreeMap<>();
            for (MessageQueue mq : instance.fetchSubscribeQueues(topic)) {
                brokers.put(mq.brokerName(), instance.requireMasterAddress(mq.brokerName(), topic));
            }
            if (brokers.isEmpty()) {
                brokers.putAll(instance.routes().clusterMasters());
            }
            for (Map.Entry<String, String> broker : brokers.entrySet()) {
                try {
                    instance.ackApi().createGroup(broker.getValue(), group, topic, InitMode.LATEST,
                            instance.apiTimeoutMillis());
                } catch (ClientException e) {
                    if (e.responseCode() != ResponseCode.TOPIC_NOT_EXIST) {
                        throw e;
                    }
                    admin().createTopic(topic, SUBSCRIBED_TOPIC_QUEUES, broker.getKey());
                    instance.ackApi().createGroup(broker.getValue(), group, topic, InitMode.LATEST,
                            instance.apiTimeoutMillis());
                }
            }
        } catch (ClientException e) {
            throw JmsErrors.fromClient(e, "subscribe to the topic " + topic);
        } catch (InterruptedException e) {
            throw JmsErrors.translate("subscribe to the topic " + topic, e);
        }
    }

    /**
     * Claims a name for this connection alone on every registered master broker (a JMS client id, the consumer of a
     * durable subscription); a broker frees it when this connection to it closes. Brokers are claimed in name order,
     * so two connections racing for a name cannot each win on one broker.
     *
     * @return null when claimed everywhere, else the broker address where another connection holds it (what was
     *         claimed elsewhere is given back)
     */
    public String claimExclusive(String key) throws JMSException {
        List<String> claimed = new ArrayList<>();
        try {
            for (String address : new TreeMap<>(instance.routes().clusterMasters()).values()) {
                if (!instance.groupApi().claimExclusive(address, key, instance.apiTimeoutMillis())) {
                    releaseExclusive(key, claimed);
                    return address;
                }
                claimed.add(address);
            }
            return null;
        } catch (ClientException e) {
            releaseExclusive(key, claimed);
            throw JmsErrors.fromClient(e, "claim " + key);
        } catch (InterruptedException e) {
            releaseExclusive(key, claimed);
            throw JmsErrors.translate("claim " + key, e);
        }
    }

    /** Gives a claimed name back on every registered master broker (best effort: a closed connection frees it too). */
    public void releaseExclusive(String key) {
        try {
            releaseExclusive(key, new ArrayList<>(instance.routes().clusterMasters().values()));
        } catch (ClientException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.debug("Could not give back {}: {}", key, e.toString());
        }
    }

    private void releaseExclusive(String key, List<String> addresses) {
        for (String address : addresses) {
            try {
                instance.groupApi().releaseExclusive(address, key, instance.apiTimeoutMillis());
            } catch (ClientException e) {
                LOG.debug("Could not give back {} on {}: {}", key, address, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * The groups whose name starts with {@code prefix} and the topics each has acknowledgement state on, on every
     * registered master broker.
     *
     * @return group to (broker address to topics)
     */
    public Map<String, Map<String, Set<String>>> groupsWithPrefix(String prefix) throws JMSException {
        Map<String, Map<String, Set<String>>> out = new TreeMap<>();
        try {
            for (String address : instance.routes().clusterMasters().values()) {
                for (AckGroups.GroupTopic g : instance.ackApi().listGroups(address, prefix, instance.apiTimeoutMillis())) {
                    out.computeIfAbsent(g.group(), k -> new HashMap<>())
                            .computeIfAbsent(address, a -> new TreeSet<>()).add(g.topic());
                }
            }
        } catch (ClientException e) {
            throw JmsErrors.fromClient(e, "look up the subscription groups starting with " + prefix);
        } catch (InterruptedException e) {
            throw JmsErrors.translate("look up the subscription groups starting with " + prefix, e);
        }
        return out;
    }

    /** Deletes a group's acknowledgement state on the given brokers and topics (unsubscribe). */
    public void deleteGroupState(String group, Map<String, Set<String>> topicsByBroker) throws JMSException {
        try {
            for (Map.Entry<String, Set<String>> e : topicsByBroker.entrySet()) {
                for (String topic : e.getValue()) {
                    instance.ackApi().deleteGroup(e.getKey(), group, topic, instance.apiTimeoutMillis());
                }
            }
        } catch (ClientException e) {
            throw JmsErrors.fromClient(e, "delete the state of subscription group " + group);
        } catch (InterruptedException e) {
            throw JmsErrors.translate("delete the state of subscription group " + group, e);
        }
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
        leases.stop();
        ackConsumers.values().forEach(AckConsumer::shutdown);
        ackConsumers.clear();
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

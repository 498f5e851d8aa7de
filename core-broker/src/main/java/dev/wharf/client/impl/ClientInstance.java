package dev.wharf.client.impl;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.TransactionCheckHandler;
import dev.wharf.client.route.LatencyFaultTolerance;
import dev.wharf.client.route.SilentMasters;
import dev.wharf.client.route.NameServerAddresses;
import dev.wharf.client.route.ReadSelector;
import dev.wharf.client.route.TopicPublishInfo;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.common.util.NamedThreadFactory;
import dev.wharf.common.util.ServiceThread;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.body.Heartbeat.ConsumerData;
import dev.wharf.protocol.body.Heartbeat.HeartbeatData;
import dev.wharf.protocol.body.Heartbeat.ProducerData;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.RemotingExecutors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything the producers, consumers and admin clients of one client id share: the remoting client (one
 * connection per broker and NameServer), NameServer failover, the route cache (refreshed every
 * {@code pollNameServerInterval}), heartbeats to every broker of every cached route (every
 * {@code heartbeatBrokerInterval}, and at once when a member starts), the rebalance thread (every 20 s and soon
 * after NOTIFY_CONSUMER_IDS_CHANGED), offset persistence (every {@code persistConsumerOffsetInterval}), and the
 * processors of broker-to-client requests (membership changes, transaction check-backs).
 *
 * <p>Obtained with {@link #acquire} and given back with {@link #release}: the instance starts with its first user
 * and stops with its last. Thread-safe.
 */
public final class ClientInstance {

    /** How often subscribed topics without a route are looked up. */
    private static final long MISSING_ROUTE_POLL_MILLIS = 1_000;

    private static final Logger log = LoggerFactory.getLogger(ClientInstance.class);
    private static final Map<String, ClientInstance> INSTANCES = new HashMap<>();

    /** How long a broker whose read failed is passed over for the other brokers of its group. */
    private static final long READ_FAILURE_AVOID_MILLIS = 3_000;
    /** How long no send goes to a master address after one went unanswered (then one probe at a time). */
    private static final long SILENT_MASTER_QUIET_MILLIS = 4_000;

    /** How often every consumer's queue assignment is recomputed even without a notification. */
    public static final long REBALANCE_INTERVAL_MILLIS = 20_000;

    private final String clientId;
    private final ClientConfig config;
    private final NettyRemotingClient remoting;
    private final RemotingCalls calls;
    private final NameServerApi nameServer;
    private final MessageApi messageApi;
    private final AckApi ackApi;
    private final ReceivedBodies checkBackBodies;
    private final OffsetApi offsetApi;
    private final GroupApi groupApi;
    private final AdminApi adminApi;
    private final LatencyFaultTolerance faults = new LatencyFaultTolerance();
    /**
     * Master addresses that left a send unanswered. The quiet period covers the controllers' default heartbeat
     * timeout (3 s) plus an election and the new master's registration, so a paused master's replacement is
     * usually routed before anyone probes the old address again.
     */
    private final SilentMasters silentMasters = new SilentMasters(SILENT_MASTER_QUIET_MILLIS);
    private final ReadSelector reads = new ReadSelector(READ_FAILURE_AVOID_MILLIS);
    /** topic -> when a route refresh after a failed call was last scheduled (one per second at most). */
    private final Map<String, Long> refreshRequested = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor brokerRequestExecutor;
    private final ScheduledThreadPoolExecutor scheduler;
    private final RebalanceService rebalanceService = new RebalanceService();

    private final ReentrantLock heartbeatLock = new ReentrantLock();
    private final RouteTable routeTable;

    private final Map<String, Boolean> producers = new ConcurrentHashMap<>();
    private final Map<String, ConsumerMember> consumers = new ConcurrentHashMap<>();
    private final Map<String, TransactionCheckHandler> checkHandlers = new ConcurrentHashMap<>();
    private int references;

    private ClientInstance(String clientId, ClientConfig config, NameServerAddresses nameServers) {
        this.clientId = clientId;
        this.config = config;
        NettyClientConfig nettyConfig = new NettyClientConfig();
        nettyConfig.setCallbackExecutorThreads(config.getClientCallbackExecutorThreads());
        this.remoting = new NettyRemotingClient(nettyConfig);
        ClientSecurity.apply(remoting, config);
        this.calls = new RemotingCalls(remoting);
        this.nameServer = new NameServerApi(calls, nameServers, config.getMqClientApiTimeout());
        this.messageApi = new MessageApi(calls, config.getMaxMessageSize());
        this.ackApi = new AckApi(calls, config.getMaxMessageSize());
        this.checkBackBodies = new ReceivedBodies(config.getMaxMessageSize());
        this.offsetApi = new OffsetApi(calls);
        this.groupApi = new GroupApi(calls);
        this.adminApi = new AdminApi(calls);
        this.routeTable = new RouteTable(nameServer, config.getMqClientApiTimeout(), this::heartbeatSoon,
                this::rebalanceSoon);
        this.brokerRequestExecutor = RemotingExecutors.bounded("wharf-client-broker-requests", 2, 10_000);
        this.scheduler = new ScheduledThreadPoolExecutor(2, new NamedThreadFactory("wharf-client-scheduler"));
        this.scheduler.setRemoveOnCancelPolicy(true);
    }

    /**
     * The running instance for the configuration's client id, started if this is its first user. Every
     * successful call must be matched by one {@link #release()}.
     *
     * @throws ClientException when the NameServer address is missing or malformed, or the client id is already
     *                         used with another NameServer address
     */
    public static ClientInstance acquire(ClientConfig config) throws ClientException {
        String clientId = config.buildClientId();
        synchronized (INSTANCES) {
            ClientInstance existing = INSTANCES.get(clientId);
            if (existing != null) {
                if (!existing.config.sameConnectionSettings(config)) {
                    throw new ClientException("The client id " + clientId + " is already in use with NameServer "
                            + existing.config.getNamesrvAddr() + " (timeout " + existing.config.getMqClientApiTimeout()
                            + " ms); give this client another ClientConfig.instanceName to use NameServer "
                            + config.getNamesrvAddr() + ".");
                }
                existing.references++;
                return existing;
            }
            NameServerAddresses nameServers;
            try {
                nameServers = NameServerAddresses.parse(config.getNamesrvAddr());
            } catch (IllegalArgumentException e) {
                throw new ClientException(e.getMessage(), e);
            }
            ClientInstance created;
            try {
                created = new ClientInstance(clientId, config.copy(), nameServers);
            } catch (IllegalArgumentException e) {
                throw new ClientException(e.getMessage(), e);
            }
            created.start();
            created.references = 1;
            INSTANCES.put(clientId, created);
            return created;
        }
    }

    /** Gives the instance back; the last release stops it. */
    public void release() {
        synchronized (INSTANCES) {
            if (references <= 0) {
                return;
            }
            if (--references > 0) {
                return;
            }
            INSTANCES.remove(clientId, this);
        }
        shutdown();
    }

    private void start() {
        remoting.registerProcessor(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED,
                new BrokerRequestProcessor(this), brokerRequestExecutor);
        remoting.registerProcessor(RequestCode.CHECK_TRANSACTION_STATE,
                new BrokerRequestProcessor(this), brokerRequestExecutor);
        remoting.start();
        long poll = config.getPollNameServerInterval();
        scheduler.scheduleWithFixedDelay(guarded("route refresh", this::refreshRoutes), poll, poll, TimeUnit.MILLISECONDS);
        long missing = Math.min(poll, MISSING_ROUTE_POLL_MILLIS);
        scheduler.scheduleWithFixedDelay(guarded("missing route refresh", this::refreshMissingRoutes), missing, missing,
                TimeUnit.MILLISECONDS);
        long beat = config.getHeartbeatBrokerInterval();
        scheduler.scheduleWithFixedDelay(guarded("heartbeat", this::sendHeartbeatToAllBrokers), beat, beat,
                TimeUnit.MILLISECONDS);
        long persist = config.getPersistConsumerOffsetInterval();
        scheduler.scheduleWithFixedDelay(guarded("offset persistence", this::persistAllOffsets), persist, persist,
                TimeUnit.MILLISECONDS);
        rebalanceService.start();
        log.info("Client instance {} started (NameServer {})", clientId, nameServer.addresses());
    }

    private void shutdown() {
        rebalanceService.shutdown(5_000);
        scheduler.shutdownNow();
        try {
            // a task still running (a heartbeat just after start) ends on the interrupt; let it end before the
            // connections close, or it reports a failure against a client that is going away
            scheduler.awaitTermination(apiTimeoutMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        remoting.shutdown();
        brokerRequestExecutor.shutdownNow();
        log.info("Client instance {} shut down", clientId);
    }

    private Runnable guarded(String what, Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.warn("Client {}: {} failed: {}", clientId, what, e.toString());
            }
        };
    }

    // ------------------------------------------------------------------ accessors

    public String clientId() {
        return clientId;
    }

    /** The instance's own copy of the configuration (do not modify). */
    public ClientConfig config() {
        return config;
    }

    public long apiTimeoutMillis() {
        return config.getMqClientApiTimeout();
    }

    public NameServerApi nameServer() {
        return nameServer;
    }

    public MessageApi messageApi() {
        return messageApi;
    }

    /** Inflates the half messages of transaction check-backs within maxMessageSize. */
    ReceivedBodies receivedBodies() {
        return checkBackBodies;
    }

    /** Acknowledgement-based consumption: pop, ack, lease change, peek. */
    public AckApi ackApi() {
        return ackApi;
    }

    public OffsetApi offsetApi() {
        return offsetApi;
    }

    public GroupApi groupApi() {
        return groupApi;
    }

    public AdminApi adminApi() {
        return adminApi;
    }

    public LatencyFaultTolerance faults() {
        return faults;
    }

    /** Master addresses that left a send unanswered (see {@link SilentMasters}). */
    public SilentMasters silentMasters() {
        return silentMasters;
    }

    /** Runs short tasks that must not block I/O or the caller (check-backs, notifications). */
    public ExecutorService brokerRequestExecutor() {
        return brokerRequestExecutor;
    }

    // ------------------------------------------------------------------ members

    /** @throws ClientException when this client id already has a producer of the group */
    public void registerProducer(String group) throws ClientException {
        if (producers.putIfAbsent(group, Boolean.TRUE) != null) {
            throw new ClientException("A producer of group \"" + group + "\" is already started in client " + clientId
                    + "; share that producer, or give this one another ClientConfig.instanceName.");
        }
    }

    /** Forgets the producer group and tells every broker that this client left it. */
    public void unregisterProducer(String group) {
        if (producers.remove(group) != null) {
            checkHandlers.remove(group);
            unregisterFromBrokers(group, null);
        }
    }

    /** @throws ClientException when this client id already has a consumer of the group */
    public void registerConsumer(ConsumerMember member) throws ClientException {
        if (consumers.putIfAbsent(member.groupName(), member) != null) {
            throw new ClientException("A consumer of group \"" + member.groupName() + "\" is already started in client "
                    + clientId + "; to run several members of one group in one process give each its own "
                    + "ClientConfig.instanceName.");
        }
    }

    /** Forgets the consumer group and tells every broker that this client left it (the group rebalances). */
    public void unregisterConsumer(String group) {
        ConsumerMember removed = consumers.remove(group);
        if (removed != null && removed.heartbeatData() != null) {
            unregisterFromBrokers(null, group);
        }
    }

    /** Routes the broker's CHECK_TRANSACTION_STATE requests for {@code producerGroup} to {@code handler}. */
    public void registerTransactionCheckHandler(String producerGroup, TransactionCheckHandler handler) {
        checkHandlers.put(producerGroup, handler);
    }

    public void unregisterTransactionCheckHandler(String producerGroup) {
        checkHandlers.remove(producerGroup);
    }

    TransactionCheckHandler checkHandler(String producerGroup) {
        return producerGroup == null ? null : checkHandlers.get(producerGroup);
    }

    ConsumerMember consumer(String group) {
        return consumers.get(group);
    }

    private void unregisterFromBrokers(String producerGroup, String consumerGroup) {
        for (String address : routeTable.allBrokerAddresses()) {
            try {
                groupApi.unregisterClient(address, clientId, producerGroup, consumerGroup, apiTimeoutMillis());
            } catch (ClientException e) {
                log.warn("Client {} could not unregister from {}: {}", clientId, address, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    // ------------------------------------------------------------------ routes (see RouteTable)

    /** The route cache. */
    public RouteTable routes() {
        return routeTable;
    }

    /** @see RouteTable#publishInfo */
    public TopicPublishInfo publishInfo(String topic) throws ClientException, InterruptedException {
        return routeTable.publishInfo(topic);
    }

    /** @see RouteTable#subscribeQueues */
    public Set<MessageQueue> subscribeQueues(String topic) {
        return routeTable.subscribeQueues(topic);
    }

    /** @see RouteTable#fetchSubscribeQueues */
    public Set<MessageQueue> fetchSubscribeQueues(String topic) throws ClientException, InterruptedException {
        return routeTable.fetchSubscribeQueues(topic);
    }

    /** @see RouteTable#updateRoute */
    public boolean updateRoute(String topic) throws ClientException, InterruptedException {
        return routeTable.updateRoute(topic);
    }

    /** @see RouteTable#masterAddress */
    public String masterAddress(String brokerName) {
        return routeTable.masterAddress(brokerName);
    }

    /** @see RouteTable#requireMasterAddress */
    public String requireMasterAddress(String brokerName, String topic) throws ClientException, InterruptedException {
        return routeTable.requireMasterAddress(brokerName, topic);
    }

    /** Which broker of a group each queue is read from (see {@link ReadSelector}). */
    public ReadSelector reads() {
        return reads;
    }

    /**
     * The address to pull {@code mq} from: the suggested broker, the master, else a slave of the queue's group
     * (see {@link ReadSelector}); null when no broker of the group is known.
     */
    public String readAddress(MessageQueue mq) {
        return reads.choose(mq, routeTable.group(mq.brokerName()));
    }

    /** @see RouteTable#requireOffsetAddress */
    public String requireOffsetAddress(String brokerName, String topic) throws ClientException, InterruptedException {
        return routeTable.requireOffsetAddress(brokerName, topic);
    }

    /**
     * A call for {@code topic} failed in a way a route change may explain (a broker died): fetch its route soon,
     * off the caller's thread, at most once a second per topic.
     */
    public void refreshRouteSoon(String topic) {
        long now = System.currentTimeMillis();
        Long last = refreshRequested.get(topic);
        if (last != null && now - last < 1_000) {
            return;
        }
        refreshRequested.put(topic, now);
        try {
            scheduler.execute(guarded("route refresh of " + topic, () -> {
                try {
                    routeTable.updateRoute(topic);
                } catch (ClientException e) {
                    log.debug("Route refresh of {} failed: {}", topic, e.getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // shutting down
        }
    }

    /** @see RouteTable#anyAddress */
    public String anyAddress(String brokerName) {
        return routeTable.anyAddress(brokerName);
    }

    /** @see RouteTable#clusterMasters */
    public Map<String, String> clusterMasters() throws ClientException, InterruptedException {
        return routeTable.clusterMasters();
    }

    /** A broker this client has not talked to yet joined a route: tell it our groups now, not in 30 s. */
    private void heartbeatSoon() {
        try {
            scheduler.execute(guarded("heartbeat", this::sendHeartbeatToAllBrokers));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // shutting down
        }
    }

    /**
     * Subscribed topics with no queues yet (a consumer started before the first send, or a retry topic the broker
     * creates on the first failure) are looked up every second instead of every poll interval, so consumption
     * starts within a second of the topic appearing. Quiet: a topic that does not exist yet is the normal case.
     */
    private void refreshMissingRoutes() {
        for (ConsumerMember member : consumers.values()) {
            for (String topic : member.subscribedTopics()) {
                if (!routeTable.subscribeQueues(topic).isEmpty()) {
                    continue;
                }
                try {
                    routeTable.updateRoute(topic);
                } catch (ClientException e) {
                    log.debug("Topic {} has no route yet: {}", topic, e.getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void refreshRoutes() {
        Set<String> topics = new LinkedHashSet<>(routeTable.topics());
        for (ConsumerMember member : consumers.values()) {
            topics.addAll(member.subscribedTopics());
        }
        List<String> failures = new ArrayList<>();
        for (String topic : topics) {
            try {
                routeTable.updateRoute(topic);
            } catch (ClientException e) {
                failures.add(topic + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (!routeTable.knownClusterMasters().isEmpty()) {
            try {
                routeTable.clusterMasters(); // keep the addresses of brokers known from the cluster table fresh
            } catch (ClientException e) {
                failures.add("cluster table: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (!failures.isEmpty()) {
            log.warn("Client {} could not refresh {} route(s): {}", clientId, failures.size(), failures.get(0));
        }
    }

    // ------------------------------------------------------------------ heartbeat, rebalance, offsets

    /** Sends this client's groups to every known broker; failures are logged, one line per broker. */
    public void sendHeartbeatToAllBrokers() {
        Set<ProducerData> producerData = new HashSet<>();
        producers.keySet().forEach(g -> producerData.add(new ProducerData(g)));
        Set<ConsumerData> consumerData = new HashSet<>();
        for (ConsumerMember member : consumers.values()) {
            ConsumerData data = member.heartbeatData();
            if (data != null) {
                consumerData.add(data);
            }
        }
        if (producerData.isEmpty() && consumerData.isEmpty()) {
            return;
        }
        HeartbeatData heartbeat = new HeartbeatData(clientId, producerData, consumerData);
        heartbeatLock.lock();
        try {
            Map<String, Map<Long, String>> routed = routeTable.brokerTable();
            for (Map.Entry<String, Map<Long, String>> broker : routed.entrySet()) {
                for (Map.Entry<Long, String> node : broker.getValue().entrySet()) {
                    if (consumerData.isEmpty() && node.getKey() != 0L) {
                        continue; // producers only talk to masters
                    }
                    heartbeat(broker.getKey(), node.getValue(), heartbeat);
                }
            }
            if (!producerData.isEmpty()) {
                // masters known from the cluster table but from no route: a transaction producer that has sent
                // nothing yet must still be reachable for check-backs there
                for (Map.Entry<String, String> master : routeTable.knownClusterMasters().entrySet()) {
                    if (!routed.containsKey(master.getKey())) {
                        heartbeat(master.getKey(), master.getValue(), heartbeat);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            heartbeatLock.unlock();
        }
    }

    private void heartbeat(String brokerName, String address, HeartbeatData heartbeat) throws InterruptedException {
        try {
            groupApi.heartbeat(address, heartbeat, apiTimeoutMillis());
        } catch (ClientException e) {
            log.warn("Client {}: heartbeat to broker {} failed: {}", clientId, brokerName, e.getMessage());
        }
    }

    /** Asks the rebalance thread to run now (after a start, a subscription or a membership change). */
    public void rebalanceSoon() {
        rebalanceService.wakeup();
    }

    /** Asks for a rebalance after a delay (a queue lock that another member still holds). */
    public void rebalanceLater(long delayMillis) {
        try {
            scheduler.schedule(rebalanceService::wakeup, delayMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // shutting down
        }
    }

    private void persistAllOffsets() {
        for (ConsumerMember member : consumers.values()) {
            try {
                member.persistOffsets();
            } catch (RuntimeException e) {
                log.warn("Client {}: persisting offsets of group {} failed: {}", clientId, member.groupName(),
                        e.toString());
            }
        }
    }

    /** One thread runs every consumer's rebalance, so a consumer's queue table has a single writer. */
    private final class RebalanceService extends ServiceThread {

        @Override
        public String getServiceName() {
            return "wharf-rebalance-" + clientId;
        }

        @Override
        public void run() {
            while (!isStopped()) {
                waitForRunning(REBALANCE_INTERVAL_MILLIS);
                if (isStopped()) {
                    break;
                }
                for (ConsumerMember member : consumers.values()) {
                    try {
                        member.rebalance();
                    } catch (RuntimeException e) {
                        log.warn("Client {}: rebalance of group {} failed: {}", clientId, member.groupName(),
                                e.toString());
                    }
                }
            }
        }
    }
}

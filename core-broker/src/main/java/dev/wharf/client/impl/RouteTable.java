package dev.wharf.client.impl;

import dev.wharf.client.ClientException;
import dev.wharf.client.route.TopicPublishInfo;
import dev.wharf.client.route.TopicRoutes;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's route cache: topic routes from the NameServer, the publish info derived from them, and the
 * broker-name-to-address table rebuilt from all cached routes. Fetches are serialised (one NameServer call at a
 * time); reads are lock-free. Thread-safe.
 */
public final class RouteTable {

    private static final Logger log = LoggerFactory.getLogger(RouteTable.class);

    private final Map<String, TopicRouteData> routes = new ConcurrentHashMap<>();
    private final Map<String, TopicPublishInfo> publishInfos = new ConcurrentHashMap<>();
    /** brokerName -> brokerId -> address, rebuilt from the cached routes. */
    private volatile Map<String, Map<Long, String>> brokerAddrs = Map.of();
    /** brokerName -> master address of brokers learnt from the cluster table (topics without a route yet). */
    private final Map<String, String> clusterMasters = new ConcurrentHashMap<>();
    private final ReentrantLock routeLock = new ReentrantLock();
    private final NameServerApi nameServer;
    private final long lockTimeoutMillis;
    private final Runnable onNewBroker;
    private final Runnable onQueuesChanged;

    /** @param onNewBroker run when a route names a broker address not seen before (to send it a heartbeat) */
    RouteTable(NameServerApi nameServer, long lockTimeoutMillis, Runnable onNewBroker) {
        this(nameServer, lockTimeoutMillis, onNewBroker, () -> { });
    }

    /**
     * @param onQueuesChanged run when a topic's readable queues appear or change (a consumer rebalances now
     *                        rather than at its next periodic rebalance, e.g. for a retry topic created on demand)
     */
    RouteTable(NameServerApi nameServer, long lockTimeoutMillis, Runnable onNewBroker, Runnable onQueuesChanged) {
        this.nameServer = nameServer;
        this.lockTimeoutMillis = lockTimeoutMillis;
        this.onNewBroker = onNewBroker;
        this.onQueuesChanged = onQueuesChanged;
    }

    /** Topics with a cached route. */
    Set<String> topics() {
        return Set.copyOf(routes.keySet());
    }


    /**
     * The topic's publish info, fetched from the NameServer when not cached.
     *
     * @return null when no NameServer knows a route for the topic
     */
    public TopicPublishInfo publishInfo(String topic) throws ClientException, InterruptedException {
        TopicPublishInfo info = publishInfos.get(topic);
        if (info == null || info.isEmpty()) {
            updateRoute(topic);
            info = publishInfos.get(topic);
        }
        return info == null || info.isEmpty() ? null : info;
    }

    /** The readable queues of the topic from the cache (empty when its route is not known). */
    public Set<MessageQueue> subscribeQueues(String topic) {
        return TopicRoutes.subscribeQueues(topic, routes.get(topic));
    }

    /** Fetches the topic's route now and answers its readable queues (empty when there is no route). */
    public Set<MessageQueue> fetchSubscribeQueues(String topic) throws ClientException, InterruptedException {
        updateRoute(topic);
        return subscribeQueues(topic);
    }

    /** The cached route, or null. */
    public TopicRouteData cachedRoute(String topic) {
        return routes.get(topic);
    }

    /**
     * Fetches the topic's route from the NameServer and updates the cache; a topic no NameServer knows keeps
     * its cached route (a NameServer may lag behind), if any.
     *
     * @return whether a route is now cached
     */
    public boolean updateRoute(String topic) throws ClientException, InterruptedException {
        if (!routeLock.tryLock(lockTimeoutMillis, TimeUnit.MILLISECONDS)) {
            return routes.containsKey(topic);
        }
        try {
            TopicRouteData route = nameServer.route(topic);
            if (route == null) {
                return routes.containsKey(topic);
            }
            TopicRouteData old = routes.put(topic, route);
            if (!route.equals(old)) {
                publishInfos.put(topic, new TopicPublishInfo(topic, TopicRoutes.publishQueues(topic, route)));
                rebuildBrokerTable();
                if (old != null) {
                    log.info("Route of topic {} changed: {}", topic, route);
                }
                if (!TopicRoutes.subscribeQueues(topic, route).equals(TopicRoutes.subscribeQueues(topic, old))) {
                    onQueuesChanged.run();
                }
            }
            return true;
        } finally {
            routeLock.unlock();
        }
    }

    private void rebuildBrokerTable() {
        Map<String, Map<Long, String>> table = new TreeMap<>();
        for (TopicRouteData route : routes.values()) {
            if (route.brokerDatas() == null) {
                continue;
            }
            for (BrokerData b : route.brokerDatas()) {
                if (b.brokerAddrs() != null) {
                    table.computeIfAbsent(b.brokerName(), k -> new HashMap<>()).putAll(b.brokerAddrs());
                }
            }
        }
        Set<String> before = allBrokerAddresses();
        brokerAddrs = table;
        if (!before.containsAll(allBrokerAddresses())) {
            onNewBroker.run();
        }
    }

    /** The master's address of a broker name, or null when no cached route (or cluster table) names it. */
    public String masterAddress(String brokerName) {
        Map<Long, String> addrs = brokerAddrs.get(brokerName);
        String master = addrs == null ? null : addrs.get(0L);
        return master != null ? master : clusterMasters.get(brokerName);
    }

    /**
     * The masters of every broker registered with the NameServer, brokerName to address, fetched now and
     * remembered for address look-ups (a producer sends a topic that has no route yet to one of them).
     */
    public Map<String, String> clusterMasters() throws ClientException, InterruptedException {
        ClusterInfo cluster = nameServer.clusterInfo();
        Map<String, String> masters = new TreeMap<>();
        if (cluster != null && cluster.brokerAddrTable() != null) {
            for (BrokerData broker : cluster.brokerAddrTable().values()) {
                String master = broker.brokerAddrs() == null ? null : broker.brokerAddrs().get(0L);
                if (master != null) {
                    masters.put(broker.brokerName(), master);
                }
            }
        }
        clusterMasters.putAll(masters);
        return masters;
    }

    /**
     * The master's address of the broker, refreshing {@code topic}'s route once when it is not known.
     *
     * @throws ClientException naming the broker when it stays unknown
     */
    public String requireMasterAddress(String brokerName, String topic) throws ClientException, InterruptedException {
        String address = masterAddress(brokerName);
        if (address == null && topic != null) {
            updateRoute(topic);
            address = masterAddress(brokerName);
        }
        if (address == null) {
            throw new ClientException(ClientException.NO_RESPONSE, "No master of broker \"" + brokerName
                    + "\" is registered with the NameServer at " + nameServer.addresses() + " for topic " + topic
                    + "; is the broker running?", null, true);
        }
        return address;
    }

    /** The master's address, else the address of the slave with the lowest id, of a broker name. */
    public String anyAddress(String brokerName) {
        Map<Long, String> addrs = brokerAddrs.get(brokerName);
        if (addrs == null || addrs.isEmpty()) {
            return null;
        }
        String master = addrs.get(0L);
        return master != null ? master : new TreeMap<>(addrs).firstEntry().getValue();
    }

    /** brokerId -> address of one broker group (master and slaves) in the cached routes; empty when unknown. */
    public Map<Long, String> group(String brokerName) {
        Map<Long, String> addrs = brokerAddrs.get(brokerName);
        return addrs == null ? Map.of() : addrs;
    }

    /**
     * Where a group's consumer offsets are read and committed: the master, else (while the route has no master)
     * the slave with the lowest id, which keeps them and hands them back to the master when it returns.
     *
     * @throws ClientException naming the broker when no broker of the group is known, even after refreshing
     *                         {@code topic}'s route
     */
    public String requireOffsetAddress(String brokerName, String topic) throws ClientException, InterruptedException {
        String address = anyAddress(brokerName);
        if (address == null && topic != null) {
            updateRoute(topic);
            address = anyAddress(brokerName);
        }
        if (address == null) {
            address = clusterMasters.get(brokerName);
        }
        if (address == null) {
            throw new ClientException("No broker of group \"" + brokerName + "\" (master or slave) is registered with"
                    + " the NameServer at " + nameServer.addresses() + " for topic " + topic + "; is it running?");
        }
        return address;
    }

    /** brokerName -> master address of the brokers learnt from the cluster table so far (a snapshot). */
    public Map<String, String> knownClusterMasters() {
        return Map.copyOf(clusterMasters);
    }

    /** brokerName -> brokerId -> address of every broker in the cached routes (an immutable snapshot). */
    public Map<String, Map<Long, String>> brokerTable() {
        return brokerAddrs;
    }

    /** Every known broker address (masters and slaves). */
    public Set<String> allBrokerAddresses() {
        Set<String> out = new HashSet<>();
        brokerAddrs.values().forEach(m -> out.addAll(m.values()));
        return out;
    }
}

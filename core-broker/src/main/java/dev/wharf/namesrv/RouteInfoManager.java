package dev.wharf.namesrv;

import dev.wharf.protocol.body.RouteData;
import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.protocol.body.RouteData.DataVersion;
import dev.wharf.protocol.body.RouteData.QueueData;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.remoting.RemotingChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameServer's route tables: which brokers serve which topics, how brokers group into clusters and broker
 * names, and when each broker was last heard from. The tables are rebuilt from broker registrations alone, so a
 * NameServer keeps no state on disk and never talks to other NameServers.
 *
 * <p>Thread-safe: lookups share a read lock; registrations and evictions take the write lock. Lookups happen per
 * client route refresh (every 30 s per topic and client), not per message.
 */
public final class RouteInfoManager {

    private static final Logger log = LoggerFactory.getLogger(RouteInfoManager.class);

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    /** topic -> brokerName -> that broker's queues of the topic. */
    private final Map<String, Map<String, QueueData>> topicQueueTable = new HashMap<>();
    /** brokerName -> cluster and the addresses of its master and slaves. */
    private final Map<String, BrokerGroup> brokerAddrTable = new HashMap<>();
    /** cluster -> broker names. */
    private final Map<String, Set<String>> clusterAddrTable = new HashMap<>();
    /**
     * (brokerName, brokerId) -> liveness. Keyed by the stable identity, not the address: a broker restarted on
     * another port replaces its own entry, and a slave's registration can never touch its master's.
     */
    private final Map<BrokerKey, BrokerLiveInfo> brokerLiveTable = new HashMap<>();
    /** broker address -> its identity, for unregistration and eviction by address. */
    private final Map<String, BrokerKey> keyByAddr = new HashMap<>();

    /**
     * What a broker learns from registering: for a slave, its master's address and the master's HA address
     * (host of the master and its haListenPort, as the master registered it); both null for a master or when no
     * master is registered.
     */
    public record Registration(String masterAddr, String haServerAddr) {
    }

    /** The identity of one broker of a group. */
    public record BrokerKey(String brokerName, long brokerId) {
    }

    /** One live broker as the NameServer sees it (for the admin view and tests). */
    public record LiveBroker(String cluster, String brokerName, long brokerId, String brokerAddr, String haServerAddr,
                             long lastUpdateTimestamp) {
    }

    private static final class BrokerGroup {
        final String cluster;
        final String brokerName;
        final TreeMap<Long, String> addrs = new TreeMap<>();

        BrokerGroup(String cluster, String brokerName) {
            this.cluster = cluster;
            this.brokerName = brokerName;
        }
    }

    /** @param masterEpoch the master epoch the registration carried (controller mode), else 0 */
    private record BrokerLiveInfo(long lastUpdateTimestamp, DataVersion dataVersion, Object channel,
                                  String haServerAddr, String brokerAddr, String cluster, int masterEpoch) {
    }

    /** Whether this NameServer authorizes registrations (ADMIN on the cluster, so they carry its credential). */
    private volatile boolean registrationsAuthorized;

    /**
     * Set when the NameServer requires ADMIN on {@code cluster:NAME} to register: an elected master's registration
     * with a higher master epoch may then take id 0 from a live old master on any connection, since only a holder
     * of the cluster's credential can make it. Without it the registration must come on a connection that already
     * carries a live registration of a replica of that broker name.
     */
    public void setRegistrationsAuthorized(boolean registrationsAuthorized) {
        this.registrationsAuthorized = registrationsAuthorized;
    }

    /**
     * Registers a broker or refreshes its registration (heartbeat), without a master epoch.
     *
     * @param channel the connection the broker registered on; when it closes the broker is evicted at once
     */
    public Registration registerBroker(String cluster, String brokerAddr, String brokerName, long brokerId,
                                       String haServerAddr, Map<String, TopicConfig> topics, DataVersion version,
                                       Object channel, long now) {
        return registerBroker(cluster, brokerAddr, brokerName, brokerId, haServerAddr, null, topics, version, channel,
                now);
    }

    /**
     * Registers a broker or refreshes its registration (heartbeat).
     *
     * @param masterEpoch in controller mode, the master epoch the broker's master was elected at (null otherwise)
     * @param channel     the connection the broker registered on; when it closes the broker is evicted at once
     */
    public Registration registerBroker(String cluster, String brokerAddr, String brokerName, long brokerId,
                                       String haServerAddr, Integer masterEpoch, Map<String, TopicConfig> topics,
                                       DataVersion version, Object channel, long now) {
        lock.writeLock().lock();
        try {
            BrokerKey key = new BrokerKey(brokerName, brokerId);
            int epoch = masterEpoch == null ? 0 : masterEpoch;
            refuseTakeover(key, brokerAddr, epoch, channel);
            BrokerKey previousKey = keyByAddr.get(brokerAddr);
            if (previousKey != null && !previousKey.equals(key)) {
                // the address now speaks for another identity (a slave promoted, a restart with another id):
                // the old identity must not stay routed to it
                forget(previousKey, "re-registered as " + key.brokerName() + " id=" + key.brokerId());
            }
            clusterAddrTable.computeIfAbsent(cluster, c -> new HashSet<>()).add(brokerName);
            BrokerGroup group = brokerAddrTable.computeIfAbsent(brokerName, n -> new BrokerGroup(cluster, brokerName));
            BrokerLiveInfo previous = brokerLiveTable.get(key);
            if (previous != null && !previous.brokerAddr().equals(brokerAddr)) {
                log.warn("Broker {} id={} moved from {} to {}", brokerName, brokerId, previous.brokerAddr(), brokerAddr);
                keyByAddr.remove(previous.brokerAddr());
                previous = null;
            }
            boolean first = !brokerAddr.equals(group.addrs.put(brokerId, brokerAddr));
            brokerLiveTable.put(key, new BrokerLiveInfo(now, version, channel, haServerAddr, brokerAddr, cluster,
                    epoch));
            keyByAddr.put(brokerAddr, key);
            if (previous == null || first) {
                log.info("Broker registered: {} {} id={} at {}", cluster, brokerName, brokerId, brokerAddr);
            }
            if (topics != null) {
                if (brokerId == RouteData.MASTER_ID) {
                    // the master's topic table defines the routes of a broker name
                    boolean changed = previous == null || !Objects.equals(previous.dataVersion(), version);
                    if (changed) {
                        replaceTopicsOf(brokerName, topics);
                    }
                } else if (!group.addrs.containsKey(RouteData.MASTER_ID)) {
                    // no master: a slave's topics keep (or make) the group readable, never replacing a master's
                    addMissingTopicsOf(brokerName, topics);
                }
            }
            if (brokerId == RouteData.MASTER_ID) {
                return new Registration(null, null);
            }
            String masterAddr = group.addrs.get(RouteData.MASTER_ID);
            BrokerLiveInfo master = brokerLiveTable.get(new BrokerKey(brokerName, RouteData.MASTER_ID));
            return new Registration(masterAddr, master == null ? null : master.haServerAddr());
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void addMissingTopicsOf(String brokerName, Map<String, TopicConfig> topics) {
        for (TopicConfig t : topics.values()) {
            topicQueueTable.computeIfAbsent(t.topicName(), k -> new HashMap<>()).putIfAbsent(brokerName,
                    new QueueData(brokerName, t.readQueueNums(), t.writeQueueNums(), t.perm(), t.topicSysFlag()));
        }
    }

    private void replaceTopicsOf(String brokerName, Map<String, TopicConfig> topics) {
        for (Iterator<Map.Entry<String, Map<String, QueueData>>> it = topicQueueTable.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Map<String, QueueData>> e = it.next();
            if (!topics.containsKey(e.getKey())) {
                e.getValue().remove(brokerName);
                if (e.getValue().isEmpty()) {
                    it.remove();
                }
            }
        }
        for (TopicConfig t : topics.values()) {
            topicQueueTable.computeIfAbsent(t.topicName(), k -> new HashMap<>()).put(brokerName,
                    new QueueData(brokerName, t.readQueueNums(), t.writeQueueNums(), t.perm(), t.topicSysFlag()));
        }
    }

    /**
     * Refuses a registration that would take a name and id, or an address, away from another broker that is still
     * connected on another connection (a rogue REGISTER_BROKER naming its own address would otherwise receive the
     * honest broker's traffic). A broker that restarts gets its entry back once its old connection closed, at once
     * when the process died, or after brokerChannelExpiredTime when it went silent. The one exception is a failover
     * (see {@link #electedOver}).
     */
    private void refuseTakeover(BrokerKey key, String brokerAddr, int epoch, Object channel) {
        BrokerLiveInfo holder = brokerLiveTable.get(key);
        if (holder != null && !holder.brokerAddr().equals(brokerAddr) && heldElsewhere(holder, channel)
                && !electedOver(key, holder, epoch, channel)) {
            String epochs = key.brokerId() != RouteData.MASTER_ID ? ""
                    : " It holds master epoch " + holder.masterEpoch() + "; this registration carries "
                    + (epoch == 0 ? "none" : "master epoch " + epoch) + " (a newly elected master takes id 0 only"
                    + " with a higher epoch, registering on a connection that carries its replica's registration"
                    + (registrationsAuthorized ? " or with the cluster's credential" : "") + ").";
            throw new BrokerTakeoverException(key.brokerName() + " id=" + key.brokerId() + " is registered by a live"
                    + " broker at " + holder.brokerAddr() + " on another connection; " + brokerAddr + " may not take"
                    + " over its name and id while it is connected." + epochs + " Stop that broker first (or give"
                    + " this one another brokerName/brokerId).");
        }
        BrokerKey atAddr = keyByAddr.get(brokerAddr);
        BrokerLiveInfo other = atAddr == null || atAddr.equals(key) ? null : brokerLiveTable.get(atAddr);
        if (other != null && heldElsewhere(other, channel)) {
            throw new BrokerTakeoverException(brokerAddr + " is registered as " + atAddr.brokerName() + " id="
                    + atAddr.brokerId() + " by a live broker on another connection; it cannot be registered as "
                    + key.brokerName() + " id=" + key.brokerId() + " while that broker is connected.");
        }
    }

    /**
     * Whether a registration as master (id 0) replaces a live old master: in controller mode a replica elected
     * master registers while the old one may still hold its connection (paused, or cut off from the controllers
     * but not from this NameServer). The registration must carry a higher master epoch than the holder's (so a
     * deposed master never takes the place back, whatever its connection) and be trusted to speak for the group:
     * made on a connection that already carries a live registration of a replica of that broker name, or, where
     * registrations need ADMIN on the cluster, by a holder of the cluster's credential. A stranger's registration
     * still cannot take a live broker's name and id.
     */
    private boolean electedOver(BrokerKey key, BrokerLiveInfo holder, int epoch, Object channel) {
        if (key.brokerId() != RouteData.MASTER_ID || epoch <= holder.masterEpoch()) {
            return false;
        }
        return registrationsAuthorized || replicaOnThisConnection(key.brokerName(), channel);
    }

    /** Whether {@code channel} already carries a live registration of a replica of {@code brokerName}. */
    private boolean replicaOnThisConnection(String brokerName, Object channel) {
        BrokerGroup group = brokerAddrTable.get(brokerName);
        if (group == null || channel == null) {
            return false;
        }
        for (Long id : group.addrs.keySet()) {
            BrokerLiveInfo replica = brokerLiveTable.get(new BrokerKey(brokerName, id));
            if (replica != null && channel.equals(replica.channel())) {
                return true;
            }
        }
        return false;
    }

    private static boolean heldElsewhere(BrokerLiveInfo holder, Object channel) {
        Object held = holder.channel();
        return held != null && !held.equals(channel) && held instanceof RemotingChannel live && live.isActive();
    }

    /**
     * Removes a broker that says goodbye, when asked on the connection it registered on (or when that connection is
     * gone); another connection cannot unregister a live broker.
     *
     * @throws BrokerTakeoverException the broker is registered and connected on another connection
     */
    public void unregisterBroker(String brokerAddr, Object channel) {
        lock.writeLock().lock();
        try {
            BrokerKey key = keyByAddr.get(brokerAddr);
            BrokerLiveInfo live = key == null ? null : brokerLiveTable.get(key);
            if (live != null && heldElsewhere(live, channel)) {
                throw new BrokerTakeoverException(brokerAddr + " (" + key.brokerName() + " id=" + key.brokerId()
                        + ") is registered on another, live connection; only that connection may unregister it.");
            }
            if (key != null) {
                forget(key, "unregistered");
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes a broker that says goodbye. */
    public void unregisterBroker(String brokerAddr) {
        lock.writeLock().lock();
        try {
            BrokerKey key = keyByAddr.get(brokerAddr);
            if (key != null) {
                forget(key, "unregistered");
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Evicts the broker registered on this connection, if any. */
    public void onChannelClosed(Object channel) {
        lock.writeLock().lock();
        try {
            for (Map.Entry<BrokerKey, BrokerLiveInfo> e : new ArrayList<>(brokerLiveTable.entrySet())) {
                if (e.getValue().channel() != null && e.getValue().channel().equals(channel)) {
                    forget(e.getKey(), "its connection closed");
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Evicts brokers silent for longer than {@code expiredMillis}.
     *
     * @return the evicted broker addresses
     */
    public List<String> scanNotActiveBrokers(long now, long expiredMillis) {
        List<String> evicted = new ArrayList<>();
        lock.writeLock().lock();
        try {
            for (Map.Entry<BrokerKey, BrokerLiveInfo> e : new ArrayList<>(brokerLiveTable.entrySet())) {
                long silent = now - e.getValue().lastUpdateTimestamp();
                if (silent > expiredMillis) {
                    evicted.add(e.getValue().brokerAddr());
                    forget(e.getKey(), "no heartbeat for " + silent + " ms");
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
        return evicted;
    }

    private void forget(BrokerKey key, String why) {
        BrokerLiveInfo live = brokerLiveTable.remove(key);
        if (live == null) {
            return;
        }
        keyByAddr.remove(live.brokerAddr(), key);
        log.info("Broker {} ({} id={}) removed: {}", live.brokerAddr(), key.brokerName(), key.brokerId(), why);
        BrokerGroup group = brokerAddrTable.get(key.brokerName());
        if (group == null) {
            return;
        }
        group.addrs.remove(key.brokerId(), live.brokerAddr());
        if (group.addrs.isEmpty()) {
            brokerAddrTable.remove(key.brokerName());
            Set<String> names = clusterAddrTable.get(group.cluster);
            if (names != null) {
                names.remove(key.brokerName());
                if (names.isEmpty()) {
                    clusterAddrTable.remove(group.cluster);
                }
            }
            for (Iterator<Map<String, QueueData>> it = topicQueueTable.values().iterator(); it.hasNext(); ) {
                Map<String, QueueData> byBroker = it.next();
                byBroker.remove(key.brokerName());
                if (byBroker.isEmpty()) {
                    it.remove();
                }
            }
        }
    }

    /** Every live broker, sorted by broker name then id. */
    public List<LiveBroker> liveBrokers() {
        lock.readLock().lock();
        try {
            List<LiveBroker> out = new ArrayList<>();
            brokerLiveTable.forEach((k, v) -> out.add(new LiveBroker(v.cluster(), k.brokerName(), k.brokerId(),
                    v.brokerAddr(), v.haServerAddr(), v.lastUpdateTimestamp())));
            out.sort(java.util.Comparator.comparing(LiveBroker::brokerName).thenComparingLong(LiveBroker::brokerId));
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The route of a topic, or null when no live broker serves it. */
    public TopicRouteData pickupTopicRouteData(String topic) {
        lock.readLock().lock();
        try {
            Map<String, QueueData> byBroker = topicQueueTable.get(topic);
            if (byBroker == null || byBroker.isEmpty()) {
                return null;
            }
            List<QueueData> queues = new ArrayList<>(new TreeMap<>(byBroker).values());
            List<BrokerData> brokers = new ArrayList<>();
            for (String name : new TreeSet<>(byBroker.keySet())) {
                BrokerGroup group = brokerAddrTable.get(name);
                if (group != null) {
                    brokers.add(new BrokerData(group.cluster, name, new HashMap<>(group.addrs)));
                }
            }
            return brokers.isEmpty() ? null : new TopicRouteData(queues, brokers);
        } finally {
            lock.readLock().unlock();
        }
    }

    public ClusterInfo clusterInfo() {
        lock.readLock().lock();
        try {
            Map<String, BrokerData> brokers = new TreeMap<>();
            brokerAddrTable.forEach((name, g) -> brokers.put(name, new BrokerData(g.cluster, name, new HashMap<>(g.addrs))));
            Map<String, Set<String>> clusters = new TreeMap<>();
            clusterAddrTable.forEach((c, names) -> clusters.put(c, new TreeSet<>(names)));
            return new ClusterInfo(brokers, clusters);
        } finally {
            lock.readLock().unlock();
        }
    }

    public Set<String> topics() {
        lock.readLock().lock();
        try {
            return new TreeSet<>(topicQueueTable.keySet());
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Forgets a topic (the brokers delete it themselves; their next registration no longer lists it). */
    public void deleteTopic(String topic) {
        lock.writeLock().lock();
        try {
            topicQueueTable.remove(topic);
        } finally {
            lock.writeLock().unlock();
        }
    }
}

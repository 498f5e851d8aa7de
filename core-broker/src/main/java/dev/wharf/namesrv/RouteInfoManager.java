package dev.wharf.namesrv;

import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.protocol.body.RouteData.DataVersion;
import dev.wharf.protocol.body.RouteData.QueueData;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.body.TopicConfig;
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
    /** broker address -> liveness. */
    private final Map<String, BrokerLiveInfo> brokerLiveTable = new HashMap<>();

    /** What a broker learns from registering: the master's address of its broker name (for slaves). */
    public record Registration(String masterAddr, String haServerAddr) {
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

    private record BrokerLiveInfo(long lastUpdateTimestamp, DataVersion dataVersion, Object channel,
                                  String haServerAddr, String brokerName, String cluster, long brokerId) {
    }

    /**
     * Registers a broker or refreshes its registration (heartbeat).
     *
     * @param channel the connection the broker registered on; when it closes the broker is evicted at once
     */
    public Registration registerBroker(String cluster, String brokerAddr, String brokerName, long brokerId,
                                       String haServerAddr, Map<String, TopicConfig> topics, DataVersion version,
                                       Object channel, long now) {
        lock.writeLock().lock();
        try {
            clusterAddrTable.computeIfAbsent(cluster, c -> new HashSet<>()).add(brokerName);
            BrokerGroup group = brokerAddrTable.computeIfAbsent(brokerName, n -> new BrokerGroup(cluster, brokerName));
            // a broker address that moved to another id (e.g. a slave promoted) must not stay under the old id
            group.addrs.entrySet().removeIf(e -> e.getValue().equals(brokerAddr) && e.getKey() != brokerId);
            boolean first = group.addrs.put(brokerId, brokerAddr) == null;

            BrokerLiveInfo previous = brokerLiveTable.put(brokerAddr,
                    new BrokerLiveInfo(now, version, channel, haServerAddr, brokerName, cluster, brokerId));
            if (previous == null || first) {
                log.info("Broker registered: {} {} id={} at {}", cluster, brokerName, brokerId, brokerAddr);
            }
            // only the master's topic table defines the routes of a broker name
            if (brokerId == dev.wharf.protocol.body.RouteData.MASTER_ID && topics != null) {
                boolean changed = previous == null || !Objects.equals(previous.dataVersion(), version);
                if (changed) {
                    replaceTopicsOf(brokerName, topics);
                }
            }
            String masterAddr = group.addrs.get(dev.wharf.protocol.body.RouteData.MASTER_ID);
            BrokerLiveInfo master = masterAddr == null ? null : brokerLiveTable.get(masterAddr);
            return new Registration(brokerId == 0 ? null : masterAddr, master == null ? null : master.haServerAddr());
        } finally {
            lock.writeLock().unlock();
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

    /** Removes a broker that says goodbye. */
    public void unregisterBroker(String brokerAddr) {
        lock.writeLock().lock();
        try {
            removeBroker(brokerAddr, "unregistered");
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Evicts the broker registered on this connection, if any. */
    public void onChannelClosed(Object channel) {
        lock.writeLock().lock();
        try {
            String addr = null;
            for (Map.Entry<String, BrokerLiveInfo> e : brokerLiveTable.entrySet()) {
                if (e.getValue().channel() != null && e.getValue().channel().equals(channel)) {
                    addr = e.getKey();
                    break;
                }
            }
            if (addr != null) {
                removeBroker(addr, "its connection closed");
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
            for (Map.Entry<String, BrokerLiveInfo> e : new ArrayList<>(brokerLiveTable.entrySet())) {
                if (now - e.getValue().lastUpdateTimestamp() > expiredMillis) {
                    removeBroker(e.getKey(), "no heartbeat for " + (now - e.getValue().lastUpdateTimestamp()) + " ms");
                    evicted.add(e.getKey());
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
        return evicted;
    }

    private void removeBroker(String brokerAddr, String why) {
        BrokerLiveInfo live = brokerLiveTable.remove(brokerAddr);
        if (live == null) {
            return;
        }
        log.info("Broker {} ({} id={}) removed: {}", brokerAddr, live.brokerName(), live.brokerId(), why);
        BrokerGroup group = brokerAddrTable.get(live.brokerName());
        if (group == null) {
            return;
        }
        group.addrs.entrySet().removeIf(e -> e.getValue().equals(brokerAddr));
        if (group.addrs.isEmpty()) {
            brokerAddrTable.remove(live.brokerName());
            Set<String> names = clusterAddrTable.get(group.cluster);
            if (names != null) {
                names.remove(live.brokerName());
                if (names.isEmpty()) {
                    clusterAddrTable.remove(group.cluster);
                }
            }
            for (Iterator<Map<String, QueueData>> it = topicQueueTable.values().iterator(); it.hasNext(); ) {
                Map<String, QueueData> byBroker = it.next();
                byBroker.remove(live.brokerName());
                if (byBroker.isEmpty()) {
                    it.remove();
                }
            }
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

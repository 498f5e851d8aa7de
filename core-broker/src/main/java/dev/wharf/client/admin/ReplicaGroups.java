package dev.wharf.client.admin;

import dev.wharf.protocol.body.BrokerRuntime;
import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The replication state of every broker group: who is master, which slaves there are and how far each slave's
 * commit log is behind its master's, from the NameServer's cluster table and each broker's runtime figures.
 */
public final class ReplicaGroups {

    private ReplicaGroups() {
    }

    /** Fetches one broker's runtime figures; throws naming what failed. */
    @FunctionalInterface
    public interface RuntimeFetcher {
        BrokerRuntime fetch(String address) throws Exception;
    }

    /**
     * One broker of a group.
     *
     * @param runtime   its figures, or null when it did not answer ({@code error} says why)
     * @param lagBytes  for a slave: master's commit-log end minus its own (0 when caught up); null for a master, or
     *                  when either did not answer
     * @param lagMillis for a slave: store time of the master's newest message minus that of its own newest, 0 when
     *                  caught up; null when unknown
     */
    public record Replica(String cluster, String brokerName, long brokerId, String address, BrokerRuntime runtime,
                         String error, Long lagBytes, Long lagMillis) {
        public boolean isMaster() {
            return brokerId == 0;
        }

        /** The broker's replication role as it answered, else MASTER or SLAVE by its id. */
        public String role() {
            return runtime != null && runtime.brokerRole() != null ? runtime.brokerRole()
                    : isMaster() ? "MASTER" : "SLAVE";
        }
    }

    /** A broker group: its master (null when none is registered) and its slaves by id. */
    public record Group(String cluster, String brokerName, Replica master, List<Replica> slaves) {

        /** Problems that make the group not in sync, as sentences; empty when it is. */
        public List<String> problems(long maxLagBytes, long maxLagMillis) {
            List<String> out = new ArrayList<>();
            if (master == null) {
                out.add(brokerName + " has no master registered");
            } else if (master.runtime() == null) {
                out.add(brokerName + " master " + master.address() + " does not answer: " + master.error());
            } else if (master.runtime().inSyncSlaves() >= 0
                    && master.runtime().inSyncSlaves() < master.runtime().requiredSlaves()) {
                out.add(brokerName + " master " + master.address() + " is a " + master.runtime().brokerRole()
                        + " with " + master.runtime().inSyncSlaves() + " slave(s) in sync and "
                        + master.runtime().requiredSlaves() + " needed (minInSyncReplicas): its sends are answered"
                        + " SLAVE_NOT_AVAILABLE, or acknowledged without a slave if syncMasterDegradeToAsync is set");
            }
            for (Replica s : slaves) {
                if (s.runtime() == null) {
                    out.add(brokerName + " slave " + s.brokerId() + " at " + s.address() + " does not answer: "
                            + s.error());
                } else if (s.lagBytes() != null && s.lagBytes() > maxLagBytes) {
                    out.add(brokerName + " slave " + s.brokerId() + " is " + s.lagBytes() + " bytes behind (limit "
                            + maxLagBytes + ")");
                } else if (maxLagMillis >= 0 && s.lagMillis() != null && s.lagMillis() > maxLagMillis) {
                    out.add(brokerName + " slave " + s.brokerId() + " is " + s.lagMillis() + " ms behind (limit "
                            + maxLagMillis + ")");
                }
            }
            return out;
        }
    }

    /** Every group of the cluster table, sorted by cluster then broker name; brokers are asked one by one. */
    public static List<Group> collect(ClusterInfo cluster, RuntimeFetcher fetcher) throws InterruptedException {
        List<Group> out = new ArrayList<>();
        Map<String, BrokerData> brokers = cluster.brokerAddrTable() == null ? Map.of() : cluster.brokerAddrTable();
        Map<String, Set<String>> clusters = cluster.clusterAddrTable() == null ? Map.of() : cluster.clusterAddrTable();
        for (Map.Entry<String, Set<String>> c : new TreeMap<>(clusters).entrySet()) {
            for (String name : new TreeSet<>(c.getValue())) {
                BrokerData data = brokers.get(name);
                if (data != null && data.brokerAddrs() != null) {
                    out.add(group(c.getKey(), name, new TreeMap<>(data.brokerAddrs()), fetcher));
                }
            }
        }
        return out;
    }

    private static Group group(String cluster, String name, TreeMap<Long, String> addrs, RuntimeFetcher fetcher)
            throws InterruptedException {
        Map<Long, BrokerRuntime> runtimes = new TreeMap<>();
        Map<Long, String> errors = new TreeMap<>();
        for (Map.Entry<Long, String> e : addrs.entrySet()) {
            try {
                runtimes.put(e.getKey(), fetcher.fetch(e.getValue()));
            } catch (InterruptedException ex) {
                throw ex;
            } catch (Exception ex) {
                errors.put(e.getKey(), ex.getMessage() == null ? ex.toString() : ex.getMessage());
            }
        }
        BrokerRuntime masterRuntime = runtimes.get(0L);
        Replica master = null;
        List<Replica> slaves = new ArrayList<>();
        for (Map.Entry<Long, String> e : addrs.entrySet()) {
            BrokerRuntime r = runtimes.get(e.getKey());
            Long lagBytes = null;
            Long lagMillis = null;
            if (e.getKey() != 0L && r != null && masterRuntime != null) {
                lagBytes = Math.max(0, masterRuntime.commitLogMaxOffset() - r.commitLogMaxOffset());
                if (lagBytes == 0) {
                    lagMillis = 0L;
                } else if (masterRuntime.lastStoreTimestamp() > 0 && r.lastStoreTimestamp() > 0) {
                    lagMillis = Math.max(0, masterRuntime.lastStoreTimestamp() - r.lastStoreTimestamp());
                }
            }
            Replica replica = new Replica(cluster, name, e.getKey(), e.getValue(), r, errors.get(e.getKey()), lagBytes,
                    lagMillis);
            if (e.getKey() == 0L) {
                master = replica;
            } else {
                slaves.add(replica);
            }
        }
        return new Group(cluster, name, master, slaves);
    }
}

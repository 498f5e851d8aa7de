package dev.wharf.chaos.workload;

import dev.wharf.chaos.cluster.Cluster;
import dev.wharf.chaos.cluster.Node;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.protocol.body.BrokerRuntime;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.protocol.body.ControllerData.ControllerMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples who is master, twice a second: every running broker is asked for its role, and in controller mode the
 * controllers for each group's master and epoch. Two checks come from the samples: at most one master per broker
 * name and epoch in the controllers' view, and (by the brokers' own answers) how often two brokers of one name
 * claimed the master role in the same sampling round. The latest view also tells the nemesis whom to hit.
 */
// close() waits for a process or threads to end; an interrupt there is for the caller to see
@SuppressWarnings("try")
public final class RoleSampler implements AutoCloseable {

    private final Cluster cluster;
    private final AdminClient admin;
    private final ControllerAdmin controllers;
    private final Map<String, String> claimedMaster = new ConcurrentHashMap<>();
    private final Map<String, String> controllerMaster = new ConcurrentHashMap<>();
    /** broker name, epoch, master ids seen in that epoch. */
    private final Map<String, Map<Integer, Set<Long>>> epochMasters = new ConcurrentHashMap<>();
    private final List<String> conflicts = new ArrayList<>();
    private final AtomicLong rounds = new AtomicLong();
    private final AtomicLong overlapRounds = new AtomicLong();
    private volatile String firstOverlap;
    private volatile Thread thread;
    private volatile boolean stop;

    public RoleSampler(Cluster cluster, ClientConfig config) throws ClientException {
        this.cluster = cluster;
        ClientConfig c = config.copy();
        c.setInstanceName("chaos-sampler");
        c.setMqClientApiTimeout(1_000);
        this.admin = new AdminClient(c);
        this.admin.start();
        this.controllers = cluster.controllers().isEmpty() ? null
                : new ControllerAdmin(cluster.controllerAddr(), 1_000);
    }

    public void start() {
        Thread t = new Thread(this::loop, "chaos-role-sampler");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void loop() {
        while (!stop) {
            try {
                sample();
                TimeUnit.MILLISECONDS.sleep(500); // the sampling period
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** One round over the brokers (and the controllers). */
    public void sample() throws InterruptedException {
        for (Map.Entry<String, List<Node>> group : cluster.brokers().entrySet()) {
            List<String> masters = new ArrayList<>();
            for (Node n : group.getValue()) {
                if (!n.isUp() || n.isPaused()) {
                    continue;
                }
                try {
                    BrokerRuntime r = admin.brokerRuntime(n.address());
                    if (r.brokerRole() != null && r.brokerRole().endsWith("MASTER")) {
                        masters.add(n.id());
                    }
                } catch (ClientException | RuntimeException e) {
                    // not answering (starting, partitioned): no claim either way
                }
            }
            if (masters.size() == 1) {
                claimedMaster.put(group.getKey(), masters.get(0));
            } else if (masters.size() > 1) {
                overlapRounds.incrementAndGet();
                if (firstOverlap == null) {
                    firstOverlap = group.getKey() + ": " + masters;
                }
            }
            if (controllers != null) {
                sampleController(group.getKey());
            }
        }
        rounds.incrementAndGet();
    }

    private void sampleController(String brokerName) throws InterruptedException {
        try {
            for (BrokerGroupInfo g : controllers.brokerGroups(brokerName)) {
                if (!g.hasMaster()) {
                    controllerMaster.remove(brokerName);
                    continue;
                }
                if (g.masterAddress() != null) {
                    controllerMaster.put(brokerName, g.masterAddress());
                }
                Set<Long> ids = epochMasters.computeIfAbsent(brokerName, k -> new ConcurrentHashMap<>())
                        .computeIfAbsent(g.masterEpoch(), k -> ConcurrentHashMap.newKeySet());
                if (ids.add(g.masterBrokerId()) && ids.size() > 1) {
                    synchronized (conflicts) {
                        conflicts.add(brokerName + " epoch " + g.masterEpoch() + ": masters " + new TreeSet<>(ids));
                    }
                }
            }
        } catch (ControllerException | RuntimeException e) {
            // no leader now (one is being elected, or the leader is the fault's target)
        }
    }

    /** The node that is master of {@code brokerName} by the latest view: the controllers', else the brokers'. */
    public Optional<Node> masterOf(String brokerName) {
        String address = controllerMaster.get(brokerName);
        List<Node> group = cluster.brokers().get(brokerName);
        if (address != null) {
            Optional<Node> n = group.stream().filter(b -> b.address().equals(address)).findFirst();
            if (n.isPresent()) {
                return n;
            }
        }
        String id = claimedMaster.get(brokerName);
        if (id != null) {
            return group.stream().filter(b -> b.id().equals(id)).findFirst();
        }
        return controllers == null ? Optional.of(group.get(0)) : Optional.empty();
    }

    /** The controller node that says it is the ready Raft leader. */
    public Optional<Node> controllerLeader() {
        for (Node c : cluster.controllers()) {
            if (!c.isUp() || c.isPaused()) {
                continue;
            }
            try {
                ControllerMetadata m = controllers.metadata(c.address());
                if (m.leaderReady()) {
                    return Optional.of(c); // a node reports leaderReady only of itself
                }
            } catch (ControllerException | RuntimeException e) {
                // try the next one
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    public long rounds() {
        return rounds.get();
    }

    /** Rounds in which two brokers of one name both answered with a master role. */
    public long overlapRounds() {
        return overlapRounds.get();
    }

    /** The first such round, for the report; null when none. */
    public String firstOverlap() {
        return firstOverlap;
    }

    /** Epochs of the controllers' view that had two different masters. */
    public List<String> epochConflicts() {
        synchronized (conflicts) {
            return List.copyOf(conflicts);
        }
    }

    /** Distinct master epochs seen per broker name. */
    public Map<String, Integer> epochsSeen() {
        Map<String, Integer> out = new java.util.TreeMap<>();
        epochMasters.forEach((k, v) -> out.put(k, v.size()));
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            t.join(10_000);
        }
        admin.shutdown();
        if (controllers != null) {
            controllers.close();
        }
    }
}

package dev.wharf.chaos.nemesis;

import dev.wharf.chaos.cluster.Cluster;
import dev.wharf.chaos.cluster.Node;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Injects faults one at a time: a quiet gap, a fault held for a while, its repair, again, until the fault period
 * ends. The kinds come round in a shuffled order that is re-shuffled each round, so even a short run meets every
 * kind; the seed makes a run repeatable in its choices (not in its timing).
 */
public final class Nemesis {

    private static final Logger log = LoggerFactory.getLogger(Nemesis.class);

    private final Cluster cluster;
    private final Partitioner partitioner;
    private final List<FaultKind> kinds;
    private final Function<String, Optional<Node>> masterOf;
    private final Supplier<Optional<Node>> controllerLeader;
    private final Random random;
    private final List<FaultEvent> events = new CopyOnWriteArrayList<>();
    private volatile boolean stop;

    /**
     * @param partitioner      null when no partition kind is asked for
     * @param masterOf         the node that is master of a broker name now, as far as anyone can tell
     * @param controllerLeader the controllers' Raft leader now
     */
    public Nemesis(Cluster cluster, Partitioner partitioner, List<FaultKind> kinds,
                   Function<String, Optional<Node>> masterOf, Supplier<Optional<Node>> controllerLeader, long seed) {
        this.cluster = cluster;
        this.partitioner = partitioner;
        this.kinds = List.copyOf(kinds);
        this.masterOf = masterOf;
        this.controllerLeader = controllerLeader;
        this.random = new Random(seed);
        for (FaultKind k : kinds) {
            if (k.needsControllers() && cluster.controllers().isEmpty()) {
                throw new IllegalArgumentException("fault " + k.optionName() + " needs controllers: run without"
                        + " --classic or leave it out of --faults");
            }
            if (k.isPartition() && partitioner == null) {
                throw new IllegalArgumentException("fault " + k.optionName() + " needs iptables rules");
            }
        }
    }

    /**
     * Runs faults until {@code untilMillis} (wall clock), then returns with everything healed.
     *
     * @param quietMillis gap between one fault's repair and the next fault
     * @param holdMillis  how long each fault lasts
     */
    public void run(long untilMillis, long quietMillis, long holdMillis) throws InterruptedException {
        List<FaultKind> round = new ArrayList<>();
        while (!stop && System.currentTimeMillis() + quietMillis + holdMillis <= untilMillis) {
            Thread.sleep(quietMillis); // pacing of the schedule, not a wait for a condition
            if (round.isEmpty()) {
                round.addAll(kinds);
                Collections.shuffle(round, random);
            }
            FaultKind kind = round.remove(0);
            inject(kind, holdMillis);
        }
    }

    /** Asks a running {@link #run} to end after the current fault. */
    public void stop() {
        stop = true;
    }

    public List<FaultEvent> events() {
        return List.copyOf(events);
    }

    private void inject(FaultKind kind, long holdMillis) throws InterruptedException {
        Optional<Node> target = pick(kind);
        if (target.isEmpty()) {
            log.warn("no target for {} now (no known master or leader); skipped", kind.optionName());
            events.add(new FaultEvent(kind, "-", System.currentTimeMillis(), System.currentTimeMillis(),
                    "skipped: no target"));
            return;
        }
        Node node = target.get();
        long start = System.currentTimeMillis();
        log.info("fault {} on {}", kind.optionName(), node);
        String note = "";
        try {
            apply(kind, node);
            Thread.sleep(holdMillis); // the fault's length is the point, nothing to wait for
        } finally {
            try {
                heal(kind, node);
            } catch (RuntimeException e) {
                note = "heal failed: " + e.getMessage();
                log.error("healing {} on {} failed", kind.optionName(), node, e);
            }
            events.add(new FaultEvent(kind, node.id(), start, System.currentTimeMillis(), note));
        }
    }

    private Optional<Node> pick(FaultKind kind) {
        List<String> names = new ArrayList<>(cluster.brokers().keySet());
        String name = names.get(random.nextInt(names.size()));
        return switch (kind) {
            case KILL_MASTER, PAUSE_MASTER, PARTITION_MASTER, PARTITION_MASTER_KEEP_CLIENTS -> masterOf.apply(name)
                    .filter(Node::isUp);
            case KILL_SLAVE, PAUSE_SLAVE -> {
                Optional<Node> master = masterOf.apply(name);
                List<Node> slaves = cluster.brokers().get(name).stream()
                        .filter(n -> n.isUp() && (master.isEmpty() || n != master.get())).toList();
                yield slaves.isEmpty() ? Optional.empty() : Optional.of(slaves.get(random.nextInt(slaves.size())));
            }
            case KILL_CONTROLLER_LEADER, PARTITION_CONTROLLER_LEADER, PAUSE_CONTROLLER_LEADER -> controllerLeader.get().filter(Node::isUp);
        };
    }

    private void apply(FaultKind kind, Node node) {
        switch (kind) {
            case KILL_MASTER, KILL_SLAVE, KILL_CONTROLLER_LEADER -> cluster.kill(node);
            case PAUSE_MASTER, PAUSE_SLAVE, PAUSE_CONTROLLER_LEADER -> cluster.pause(node);
            case PARTITION_MASTER -> partitioner.isolate(node, others(node), true);
            case PARTITION_MASTER_KEEP_CLIENTS -> partitioner.isolate(node, others(node), false);
            case PARTITION_CONTROLLER_LEADER -> partitioner.isolate(node, others(node), false);
        }
    }

    /** Every other server process (its group, other groups, controllers and NameServers). */
    private List<Node> others(Node node) {
        return cluster.allNodes().stream().filter(n -> n != node).toList();
    }

    private void heal(FaultKind kind, Node node) {
        switch (kind) {
            case KILL_MASTER, KILL_SLAVE, KILL_CONTROLLER_LEADER -> cluster.start(node);
            case PAUSE_MASTER, PAUSE_SLAVE, PAUSE_CONTROLLER_LEADER -> cluster.resume(node);
            case PARTITION_MASTER, PARTITION_MASTER_KEEP_CLIENTS, PARTITION_CONTROLLER_LEADER -> partitioner.heal();
        }
    }
}

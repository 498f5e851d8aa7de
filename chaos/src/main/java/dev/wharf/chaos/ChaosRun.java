package dev.wharf.chaos;

import dev.wharf.chaos.check.Checker;
import dev.wharf.chaos.check.Observations;
import dev.wharf.chaos.check.Report;
import dev.wharf.chaos.cluster.Cgroups;
import dev.wharf.chaos.cluster.Cluster;
import dev.wharf.chaos.cluster.ClusterSpec;
import dev.wharf.chaos.cluster.Node;
import dev.wharf.chaos.nemesis.FaultEvent;
import dev.wharf.chaos.nemesis.Nemesis;
import dev.wharf.chaos.nemesis.Partitioner;
import dev.wharf.chaos.workload.Consumers;
import dev.wharf.chaos.workload.Ledger;
import dev.wharf.chaos.workload.Producers;
import dev.wharf.chaos.workload.RoleSampler;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.BrokerRuntime;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One chaos run from start to verdict: start the cluster, create the topic, wait for every group to replicate, run
 * producers, consumers and the role sampler, let the nemesis inject faults, heal, keep the load on for the
 * recovery period, stop the producers, let the consumers drain, check the ledger. Whatever happens, the processes
 * are killed and the iptables chain and cgroups removed (also from a shutdown hook, should the JVM be stopped).
 */
public final class ChaosRun {

    /** The topic of the workload. */
    public static final String TOPIC = "chaos-ledger";

    private static final Logger log = LoggerFactory.getLogger(ChaosRun.class);

    private final RunOptions options;
    private final String javaCommand;
    private final String classPath;

    public ChaosRun(RunOptions options, String javaCommand, String classPath) {
        this.options = options;
        this.javaCommand = javaCommand;
        this.classPath = classPath;
    }

    public Report run() throws Exception {
        String runName = Long.toString(System.currentTimeMillis() % 100_000_000L, 36)
                + Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36), 36);
        Files.createDirectories(options.dir());
        Cgroups cgroups = Cgroups.create(runName);
        ClusterSpec spec = new ClusterSpec(options.dir(), options.nameServers(), options.brokerGroups(),
                options.replicas(), options.controllerMode(), options.controllers(), javaCommand, classPath,
                options.heapMb(), options.brokerSettings(), options.controllerSettings());
        Cluster cluster = new Cluster(spec, cgroups);
        boolean partitions = options.faults().stream().anyMatch(f -> f.isPartition());
        Partitioner partitioner = partitions ? Partitioner.open(runName, cgroups) : null;
        Thread cleanup = new Thread(() -> {
            if (partitioner != null) {
                partitioner.close();
            }
            cluster.close();
        }, "chaos-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            return runOn(cluster, partitioner);
        } finally {
            cleanup.run();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs (again, harmlessly)
            }
        }
    }

    private Report runOn(Cluster cluster, Partitioner partitioner) throws Exception {
        log.info("starting {} processes in {}", cluster.allNodes().size(), options.dir());
        cluster.start();
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(cluster.namesrvAddr());
        config.setPollNameServerInterval(options.routePollMillis());
        config.setInstanceName("chaos-" + ProcessHandle.current().pid());

        List<MessageQueue> queues = new ArrayList<>();
        for (String name : cluster.brokers().keySet()) {
            for (int q = 0; q < options.queuesPerBroker(); q++) {
                queues.add(new MessageQueue(TOPIC, name, q));
            }
        }
        RoleSampler sampler = new RoleSampler(cluster, config);
        AdminClient admin = new AdminClient(config.copy());
        admin.start();
        Ledger ledger = new Ledger(options.dir().resolve("ledger"));
        Producers producers = null;
        Consumers consumers = null;
        Nemesis nemesis = null;
        try {
            awaitGroupsReady(cluster, admin, sampler);
            createTopic(admin, cluster);
            sampler.start();
            consumers = new Consumers(config, ledger, queues);
            consumers.start();
            producers = new Producers(config, ledger, queues, options.producers(), options.rate(),
                    options.sendTimeoutMillis());
            producers.start();
            Thread flusher = startFlusher(ledger);
            log.info("warm-up {} s", options.warmupSeconds());
            TimeUnit.SECONDS.sleep(options.warmupSeconds()); // load before the first fault, by design
            nemesis = new Nemesis(cluster, partitioner, options.faults(), sampler::masterOf,
                    sampler::controllerLeader, options.seed());
            long faultsEnd = System.currentTimeMillis() + TimeUnit.SECONDS.toMillis(options.faultSeconds());
            nemesis.run(faultsEnd, options.quietMillis(), options.holdMillis());
            log.info("faults over ({} injected); recovery {} s", nemesis.events().size(), options.recoverySeconds());
            TimeUnit.SECONDS.sleep(options.recoverySeconds()); // load after the last repair, by design
            producers.stop();
            log.info("producers stopped: {} acknowledged, {} failed; draining", producers.acked(),
                    producers.failed());
            Consumers c = consumers;
            await(TimeUnit.SECONDS.toMillis(options.drainSeconds()),
                    () -> c.caughtUp() && System.currentTimeMillis() - c.lastDeliveryAt() > 2_000);
            consumers.close();
            sampler.close();
            flusher.interrupt();
            ledger.close();
            List<FaultEvent> events = nemesis.events();
            Observations observations = new Observations(options.controllerMode(), events, sampler.epochConflicts(),
                    sampler.overlapRounds(), sampler.firstOverlap(), sampler.epochsSeen(), sampler.rounds(),
                    consumers.offsetResets());
            Report report = Checker.check(options.dir().resolve("ledger"), observations);
            writeReport(report, events);
            return report;
        } finally {
            if (nemesis != null) {
                nemesis.stop();
            }
            if (producers != null) {
                producers.close();
            }
            if (consumers != null) {
                consumers.close();
            }
            sampler.close();
            admin.shutdown();
            try {
                ledger.close();
            } catch (RuntimeException e) {
                // closed already
            }
        }
    }

    private static Thread startFlusher(Ledger ledger) {
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    TimeUnit.MILLISECONDS.sleep(300);
                    ledger.flush();
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    return; // closed
                }
            }
        }, "chaos-ledger-flusher");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Every group has a master and every master sees its slaves in sync, so the first sends can be acknowledged. */
    private void awaitGroupsReady(Cluster cluster, AdminClient admin, RoleSampler sampler) throws Exception {
        int slaves = options.replicas() - 1;
        boolean ready = await(120_000, () -> {
            try {
                sampler.sample();
                for (String name : cluster.brokers().keySet()) {
                    Optional<Node> master = sampler.masterOf(name);
                    if (master.isEmpty()) {
                        return false;
                    }
                    BrokerRuntime r = admin.brokerRuntime(master.get().address());
                    if (r.inSyncSlaves() < slaves) {
                        return false;
                    }
                }
                return true;
            } catch (ClientException | RuntimeException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        if (!ready) {
            throw new IllegalStateException("the broker groups did not get a master with " + slaves
                    + " slaves in sync within 120 s; see the server.log files under " + options.dir());
        }
    }

    private void createTopic(AdminClient admin, Cluster cluster) throws Exception {
        boolean created = await(60_000, () -> {
            try {
                admin.createTopic(TOPIC, options.queuesPerBroker(), ClusterSpec.clusterName());
                return admin.route(TOPIC).queueDatas().size() == cluster.brokers().size();
            } catch (ClientException | RuntimeException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        if (!created) {
            throw new IllegalStateException("topic " + TOPIC + " has no route on every broker name after 60 s");
        }
    }

    /** Polls {@code condition} until it holds or the deadline passes; answers whether it held. */
    static boolean await(long timeoutMillis, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
        return condition.getAsBoolean();
    }

    private void writeReport(Report report, List<FaultEvent> events) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            report.print(out);
            out.println();
            out.println("faults (start, healed, kind, target, note):");
            for (FaultEvent e : events) {
                out.printf(Locale.ROOT, "  %d %d %s %s %s%n", e.startedAt(), e.healedAt(), e.kind().optionName(),
                        e.target(), e.note());
            }
        }
        Files.write(options.dir().resolve("report.txt"), bytes.toByteArray());
    }
}

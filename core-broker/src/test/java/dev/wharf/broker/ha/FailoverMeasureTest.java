package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.broker.ha.ControllerModeCluster.Replica;
import dev.wharf.broker.ha.FailoverRun.Fault;
import dev.wharf.broker.ha.FailoverRun.Outcome;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measurements of automatic failover, run by hand (not part of the suite; see the README):
 * {@code mvn -pl core-broker test -Dtest=FailoverMeasureTest -Dwharf.failover.runs=10}.
 * <ul>
 *   <li>failover time with default timeouts, as the producers see it (fault to the acknowledgement of the first
 *       send begun after it), for a killed (SIGKILL) and a paused (SIGSTOP) master, each {@code runs} times on one
 *       cluster (the faulted master comes back as a slave before the next fault); p50 and max are printed, and
 *       every run checks that no acknowledged send is lost ({@code -Dwharf.failover.faults=PAUSE} for one kind);</li>
 *   <li>steady-state send throughput of the same group (three replica processes, SYNC_MASTER,
 *       minInSyncReplicas=2) in controller mode and without a controller, measured in turn in the same run, the
 *       order alternated round by round after a discarded warm-up ({@code -Dwharf.failover.tpsSeconds=20},
 *       {@code -Dwharf.failover.tpsRounds=3}, {@code -Dwharf.failover.producers=8}, {@code -Dwharf.failover.cpu=true}
 *       for the CPU per thread kind), or with both groups up, taking turns in short windows
 *       ({@code throughputInAlternatingWindows}).</li>
 * </ul>
 */
@EnabledIfSystemProperty(named = "wharf.failover.runs", matches = "\\d+")
@Timeout(value = 3, unit = TimeUnit.HOURS)
class FailoverMeasureTest {

    @TempDir
    Path dir;

    @Test
    void failoverTimes() throws Exception {
        int runs = Integer.getInteger("wharf.failover.runs");
        try (ControllerModeCluster cluster = new ControllerModeCluster(dir.resolve("failover"))) {
            for (String name : List.of("a", "b", "c")) {
                cluster.start(cluster.replica(name));
            }
            String only = System.getProperty("wharf.failover.faults", "KILL,PAUSE");
            for (Fault fault : Fault.values()) {
                if (!List.of(only.split(",")).contains(fault.name())) {
                    continue;
                }
                List<Long> times = new ArrayList<>();
                for (int i = 0; i < runs; i++) {
                    cluster.awaitSyncStateSet(3, Duration.ofSeconds(120));
                    FailoverRun run = new FailoverRun(cluster, "measure-" + fault.name().toLowerCase());
                    Outcome o = run.run(fault, 2, 300, 50);
                    Set<String> lost = new HashSet<>(o.acked());
                    lost.removeAll(run.consumeAll());
                    assertThat(lost).as("acknowledged sends lost").isEmpty();
                    times.add(o.failoverMillis());
                    System.out.printf("%s run %d: %d ms%n", fault, i + 1, o.failoverMillis());
                }
                Collections.sort(times);
                System.out.printf("FAILOVER %s of the master, %d runs: p50 %d ms, max %d ms (all: %s)%n", fault, runs,
                        times.get((times.size() - 1) / 2), times.get(times.size() - 1), times);
            }
        }
    }

    @Test
    void throughputWithAndWithoutController() throws Exception {
        int seconds = Integer.getInteger("wharf.failover.tpsSeconds", 20);
        int producers = Integer.getInteger("wharf.failover.producers", 8);
        int rounds = Integer.getInteger("wharf.failover.tpsRounds", 2);
        double[] withController = new double[rounds];
        double[] classic = new double[rounds];
        double[] classicAll = new double[rounds];
        int warmUp = Integer.getInteger("wharf.failover.tpsWarmupSeconds", 10);
        if (warmUp > 0) {
            // the producers' code is compiled during the first window of this JVM: not in a measured one
            classicTps(dir.resolve("warm-up"), warmUp, producers, 2);
        }
        for (int round = 0; round < rounds; round++) {
            // the order flips every round (controller mode first, then last), so a machine growing busier or
            // quieter during a run favours no configuration
            boolean controllerFirst = round % 2 == 0;
            if (controllerFirst) {
                withController[round] = controllerModeTps(dir.resolve("ctrl-" + round), seconds, producers);
            }
            classic[round] = classicTps(dir.resolve("classic-" + round), seconds, producers, 2);
            // the classic group waiting for both slaves, as controller mode waits for every sync-state-set member
            classicAll[round] = Boolean.parseBoolean(System.getProperty("wharf.failover.tpsBothSlaves", "true"))
                    ? classicTps(dir.resolve("classic-all-" + round), seconds, producers, 3) : Double.NaN;
            if (!controllerFirst) {
                withController[round] = controllerModeTps(dir.resolve("ctrl-" + round), seconds, producers);
            }
            System.out.printf("TPS round %d (%s first): controller mode %.0f, without controller %.0f (ratio %.3f),"
                    + " waiting for both slaves %.0f (ratio %.3f)%n", round + 1, controllerFirst ? "controller mode"
                    : "classic", withController[round], classic[round], withController[round] / classic[round],
                    classicAll[round], withController[round] / classicAll[round]);
        }
        double c = java.util.Arrays.stream(withController).average().orElse(0);
        double k = java.util.Arrays.stream(classic).average().orElse(0);
        double a = java.util.Arrays.stream(classicAll).average().orElse(0);
        System.out.printf("TPS controller mode %s, without controller (minInSyncReplicas=2) %s: ratio %.3f;"
                + " without controller waiting for both slaves (minInSyncReplicas=3) %s: controller mode / it %.3f"
                + " (%d producers, %d s each); median of the rounds' ratios %.3f and %.3f%n",
                java.util.Arrays.toString(withController), java.util.Arrays.toString(classic), c / k,
                java.util.Arrays.toString(classicAll), c / a, producers, seconds,
                medianRatio(withController, classic), medianRatio(withController, classicAll));
    }

    private static double medianRatio(double[] numerators, double[] denominators) {
        double[] ratios = new double[numerators.length];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = numerators[i] / denominators[i];
        }
        java.util.Arrays.sort(ratios);
        int n = ratios.length;
        return n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
    }

    /**
     * Both groups (controller mode, and without a controller, minInSyncReplicas=2) run side by side and take turns
     * under the same producers' load in short windows, in the order A B B A A B ..., so the load of a shared machine,
     * which drifts over seconds to minutes, falls on both alike; the group not measured is idle meanwhile.
     * {@code -Dwharf.failover.tpsWindows=12 -Dwharf.failover.windowSeconds=5}.
     */
    @Test
    void throughputInAlternatingWindows() throws Exception {
        int windows = Integer.getInteger("wharf.failover.tpsWindows", 12);
        int seconds = Integer.getInteger("wharf.failover.windowSeconds", 5);
        int producers = Integer.getInteger("wharf.failover.producers", 8);
        try (ControllerModeCluster ctrl = new ControllerModeCluster(dir.resolve("ctrl"));
             ControllerModeCluster classic = new ControllerModeCluster(dir.resolve("classic"))) {
            for (String name : List.of("a", "b", "c")) {
                ctrl.start(ctrl.replica(name));
            }
            ctrl.awaitSyncStateSet(3, Duration.ofSeconds(120));
            Replica master = classic.replica("m");
            classic.start(master, "-", "0", "-", "2");
            classic.start(classic.replica("s1"), "-", "1", master.haAddress, "2");
            classic.start(classic.replica("s2"), "-", "2", master.haAddress, "2");
            try (Load withController = new Load(ctrl, producers); Load without = new Load(classic, producers)) {
                withController.warmUp();
                without.warmUp();
                double[] c = new double[windows];
                double[] k = new double[windows];
                for (int w = 0; w < windows; w++) {
                    boolean controllerFirst = w % 2 == 0;
                    if (controllerFirst) {
                        c[w] = withController.measure(seconds);
                    }
                    k[w] = without.measure(seconds);
                    if (!controllerFirst) {
                        c[w] = withController.measure(seconds);
                    }
                    System.out.printf("TPS window pair %d: controller mode %.0f, without controller %.0f (ratio %.3f)%n",
                            w + 1, c[w], k[w], c[w] / k[w]);
                }
                System.out.printf("TPS alternating windows (%d pairs of %d s, %d producers): controller mode %.0f,"
                        + " without controller %.0f sends/s on average: ratio %.3f, median of the pairs' ratios"
                        + " %.3f%n", windows, seconds, producers, java.util.Arrays.stream(c).average().orElse(0),
                        java.util.Arrays.stream(k).average().orElse(0), java.util.Arrays.stream(c).sum()
                        / java.util.Arrays.stream(k).sum(), medianRatio(c, k));
            }
        }
    }

    /** Producers on one group that send only while measured, and wait (parked) otherwise. */
    private static final class Load implements AutoCloseable {
        private final AtomicLong acked = new AtomicLong();
        private final AtomicBoolean stop = new AtomicBoolean();
        private volatile boolean on;
        private final List<Thread> threads = new ArrayList<>();
        private final List<Producer> clients = new ArrayList<>();

        Load(ControllerModeCluster cluster, int producers) throws Exception {
            for (int t = 0; t < producers; t++) {
                Producer p = new Producer("tps-" + t, cluster.clientConfig());
                p.start();
                clients.add(p);
                int thread = t;
                Thread s = new Thread(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        if (!on) {
                            java.util.concurrent.locks.LockSupport.parkNanos(2_000_000); // idle until measured
                            continue;
                        }
                        sendCounted(p, thread + "-" + i, acked);
                    }
                });
                s.start();
                threads.add(s);
            }
        }

        void warmUp() {
            on = true;
            long from = acked.get();
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> acked.get() - from >= 4_000);
            on = false;
        }

        /** Acknowledged sends per second over a window, after a second to get going. */
        double measure(int seconds) throws InterruptedException {
            on = true;
            Thread.sleep(1_000); // ramp-up, not measured (a benchmark, not a wait for a condition)
            long from = acked.get();
            long start = System.nanoTime();
            Thread.sleep(seconds * 1_000L); // the measuring window
            double tps = (acked.get() - from) / ((System.nanoTime() - start) / 1e9);
            on = false;
            Thread.sleep(200); // the sends in flight finish before the other group's window
            return tps;
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread t : threads) {
                t.join(20_000);
            }
            clients.forEach(Producer::shutdown);
        }
    }

    private double controllerModeTps(Path at, int seconds, int producers) throws Exception {
        try (ControllerModeCluster cluster = new ControllerModeCluster(at)) {
            for (String name : List.of("a", "b", "c")) {
                cluster.start(cluster.replica(name));
            }
            cluster.awaitSyncStateSet(3, Duration.ofSeconds(120));
            return tps(cluster, "controller mode", seconds, producers);
        } finally {
            keepLogs(at);
        }
    }

    private double classicTps(Path at, int seconds, int producers, int minInSyncReplicas) throws Exception {
        try (ControllerModeCluster cluster = new ControllerModeCluster(at)) {
            Replica master = cluster.replica("m");
            String min = Integer.toString(minInSyncReplicas);
            cluster.start(master, "-", "0", "-", min);
            cluster.start(cluster.replica("s1"), "-", "1", master.haAddress, min);
            cluster.start(cluster.replica("s2"), "-", "2", master.haAddress, min);
            return tps(cluster, "classic minInSyncReplicas=" + min, seconds, producers);
        } finally {
            keepLogs(at);
        }
    }

    /** Copies the replicas' logs to {@code -Dwharf.failover.logDir} (when set), which outlives the test's folder. */
    private static void keepLogs(Path at) throws java.io.IOException {
        String to = System.getProperty("wharf.failover.logDir");
        if (to == null || !java.nio.file.Files.isDirectory(at)) {
            return;
        }
        Path target = Path.of(to);
        java.nio.file.Files.createDirectories(target);
        try (java.util.stream.Stream<Path> logs = java.nio.file.Files.list(at)) {
            for (Path log : logs.filter(p -> p.toString().endsWith(".log")).toList()) {
                java.nio.file.Files.copy(log, target.resolve(at.getFileName() + "-" + log.getFileName()),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** Sends from {@code producers} threads for {@code seconds} after a warm-up; acknowledged sends per second. */
    private static double tps(ControllerModeCluster cluster, String label, int seconds, int producers)
            throws Exception {
        AtomicLong acked = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        List<Producer> clients = new ArrayList<>();
        for (int t = 0; t < producers; t++) {
            Producer p = new Producer("tps-" + t, cluster.clientConfig());
            p.start();
            clients.add(p);
            int thread = t;
            Thread s = new Thread(() -> {
                for (int i = 0; !stop.get(); i++) {
                    sendCounted(p, thread + "-" + i, acked);
                }
            });
            s.start();
            threads.add(s);
        }
        try {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> acked.get() >= 2_000);
            List<Replica> replicas = cluster.running();
            Replica master = null; // without a controller the master is "m"
            try {
                master = cluster.master();
            } catch (Exception e) {
                // no group at the controllers: a classic group
            }
            long self = ProcessHandle.current().pid();
            List<Map<String, Long>> cpuBefore = new ArrayList<>();
            cpuBefore.add(ThreadCpu.snapshot(self));
            replicas.forEach(r -> cpuBefore.add(ThreadCpu.snapshot(r.process.pid())));
            long from = acked.get();
            long start = System.nanoTime();
            Thread.sleep(seconds * 1_000L); // the measuring window (a benchmark, not a wait for a condition)
            long sent = acked.get() - from;
            double tps = sent / ((System.nanoTime() - start) / 1e9);
            if (Boolean.getBoolean("wharf.failover.cpu")) {
                System.out.println(ThreadCpu.report(label + " test JVM (producers, NameServer, controllers)",
                        cpuBefore.get(0), ThreadCpu.snapshot(self), sent));
                for (int i = 0; i < replicas.size(); i++) {
                    Replica r = replicas.get(i);
                    boolean isMaster = r == master || r.store.getFileName().toString().equals("m");
                    System.out.println(ThreadCpu.report(label + (isMaster ? " master " : " slave ")
                            + r.store.getFileName(),
                            cpuBefore.get(i + 1), ThreadCpu.snapshot(r.process.pid()), sent));
                }
            }
            return tps;
        } finally {
            stop.set(true);
            for (Thread t : threads) {
                t.join(20_000);
            }
            clients.forEach(Producer::shutdown);
        }
    }

    /** One synchronous send of the throughput runs; only an acknowledged one is counted. */
    private static void sendCounted(Producer p, String id, AtomicLong acked) {
        try {
            if (p.send(Workload.message("tps", id)).sendStatus() == SendStatus.SEND_OK) {
                acked.incrementAndGet();
            }
        } catch (Exception e) {
            // counted as not acknowledged
        }
    }
}

package dev.wharf.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.protocol.body.ControllerData.ControllerMetadata;
import dev.wharf.server.ReadyLine;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code wharf controller} processes. The leader is killed with SIGKILL: another node leads within seconds, the
 * masters, epochs and sync-state sets are intact, the surviving master is not deposed while the new leader re-learns
 * liveness, and the killed node, restarted on its data folder, catches up.
 */
@Timeout(120)
class ControllerProcessCrashTest {

    @TempDir
    Path dir;

    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private String peers;
    /** Where the nodes of the current start attempt keep their data and logs (a new start needs new Raft state). */
    private Path nodeDirs;

    private record Node(String id, Process process, String address) {
    }

    @AfterEach
    void killAll() throws InterruptedException {
        for (Node n : nodes.values()) {
            n.process().destroyForcibly();
            n.process().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aKilledLeaderIsReplacedAndTheStateSurvives() throws Exception {
        Path conf = dir.resolve("controller.conf");
        Files.writeString(conf, "controllerHeartBeatTimeoutMills=" + ControllerNodes.HEARTBEAT_TIMEOUT + "\n"
                + "scanNotActiveBrokerInterval=200\ncontrollerElectionTimeoutMillis=1000\n"
                + "controllerSnapshotThreshold=20\n");
        startCluster(conf);
        String addrs = String.join(";", nodes.values().stream().map(Node::address).toList());

        try (ControllerAdmin admin = new ControllerAdmin(addrs, 5_000);
             RawBroker a = new RawBroker(addrs, "crash-a", "127.0.0.1:25001");
             RawBroker b = new RawBroker(addrs, "crash-a", "127.0.0.1:25002")) {
            String leaderAddress = awaitLeader(admin, List.copyOf(nodes.values()));
            a.register();
            a.beat();
            BrokerGroupInfo g = a.becomeMaster();
            b.register();
            b.beat();
            RawBroker.expect(a.alter(g.masterEpoch(), g.syncStateSetEpoch(), List.of(a.brokerId, b.brokerId)),
                    ResponseCode.SUCCESS);
            BrokerGroupInfo before = admin.brokerGroups("crash-a").get(0);

            Node leader = nodes.values().stream().filter(n -> n.address().equals(leaderAddress)).findFirst()
                    .orElseThrow();
            long killedAt = System.currentTimeMillis();
            leader.process().destroyForcibly(); // SIGKILL: no shutdown hook, no goodbye to the peers
            assertThat(leader.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
            List<Node> survivors = nodes.values().stream().filter(n -> n != leader).toList();
            String newLeader = awaitLeader(admin, survivors);
            long leaderless = System.currentTimeMillis() - killedAt;
            assertThat(newLeader).isNotEqualTo(leaderAddress);

            BrokerGroupInfo after = admin.brokerGroups("crash-a").get(0);
            assertThat(after.masterBrokerId()).isEqualTo(before.masterBrokerId()).isEqualTo(a.brokerId);
            assertThat(after.masterEpoch()).isEqualTo(before.masterEpoch());
            assertThat(after.syncStateSet()).containsExactlyElementsOf(before.syncStateSet());
            assertThat(after.syncStateSetEpoch()).isEqualTo(before.syncStateSetEpoch());

            // the master keeps heartbeating (to the new leader): it must not be deposed while liveness is re-learnt
            await().during(Duration.ofMillis(ControllerNodes.HEARTBEAT_TIMEOUT + 1_000))
                    .atMost(Duration.ofMillis(ControllerNodes.HEARTBEAT_TIMEOUT + 5_000))
                    .until(() -> masterEpochOrMinus1(admin) == before.masterEpoch());

            // the new leader takes changes, and the killed node comes back and catches up from snapshot and log
            for (int i = 0; i < 25; i++) {
                try (RawBroker r = new RawBroker(addrs, "crash-b", "127.0.0.1:" + (26000 + i))) {
                    r.register();
                }
            }
            nodes.remove(leader.id());
            Node back = start(leader.id(), conf);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                ControllerMetadata leaderView = admin.metadata(newLeader);
                ControllerMetadata backView = admin.metadata(back.address());
                assertThat(backView.leaderId()).isEqualTo(leaderView.selfId());
                assertThat(backView.lastAppliedIndex()).isGreaterThanOrEqualTo(leaderView.lastAppliedIndex() - 1);
            });
            System.out.printf("controller leader killed: a new leader served after %d ms%n", leaderless);
        }
    }

    /**
     * Starts the three nodes on Raft ports picked free. A picked port is free only until the nodes start, and one of
     * them, or another process, may take it first (seen: "Failed to bind"): then all three start again on new ports,
     * at most three times.
     */
    private void startCluster(Path conf) throws Exception {
        for (int attempt = 1; ; attempt++) {
            nodeDirs = Files.createDirectories(dir.resolve("attempt-" + attempt));
            peers = "n0=127.0.0.1:" + ControllerNodes.freePort() + ",n1=127.0.0.1:" + ControllerNodes.freePort()
                    + ",n2=127.0.0.1:" + ControllerNodes.freePort();
            try {
                List.of("n0", "n1", "n2").parallelStream().forEach(id -> start(id, conf));
                return;
            } catch (AssertionError e) {
                if (attempt == 3 || !String.valueOf(e.getMessage()).contains("Failed to bind")) {
                    throw e;
                }
                killAll();
                nodes.clear();
            }
        }
    }

    private static int masterEpochOrMinus1(ControllerAdmin admin) {
        try {
            return admin.brokerGroups("crash-a").get(0).masterEpoch();
        } catch (ControllerException | InterruptedException e) {
            return -1;
        }
    }

    /** Waits until one of the nodes is a ready leader and returns its address. */
    private static String awaitLeader(ControllerAdmin admin, List<Node> candidates) {
        AtomicReference<String> found = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (Node n : candidates) {
                try {
                    ControllerMetadata m = admin.metadata(n.address());
                    if (m.leaderReady()) {
                        found.set(n.address());
                        return true;
                    }
                } catch (ControllerException e) {
                    // not up, or killed
                }
            }
            return false;
        });
        return found.get();
    }

    private Node start(String id, Path conf) {
        try {
            ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                    // C1 only and the serial collector: the nodes start faster and take less CPU from each other
                    "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                    System.getProperty("java.class.path"), "dev.wharf.server.WharfMain",
                    "controller", "--peers", peers, "--id", id, "--port", "0",
                    "--data", nodeDirs.resolve(id).toString(),
                    "--config", conf.toString())
                    .redirectError(nodeDirs.resolve(id + ".log").toFile());
            Process p = builder.start();
            AtomicReference<String> ready = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        Optional<String> address = ReadyLine.controllerAddress(line);
                        address.ifPresent(ready::set);
                    }
                } catch (java.io.IOException e) {
                    // the process ended
                }
            }, "controller-" + id + "-stdout");
            reader.setDaemon(true);
            reader.start();
            await().atMost(Duration.ofSeconds(40)).until(() -> ready.get() != null || !p.isAlive());
            if (ready.get() == null) {
                throw new AssertionError("controller " + id + " did not start: "
                        + Files.readString(nodeDirs.resolve(id + ".log")));
            }
            Node n = new Node(id, p, ready.get());
            synchronized (nodes) {
                nodes.put(id, n);
            }
            return n;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

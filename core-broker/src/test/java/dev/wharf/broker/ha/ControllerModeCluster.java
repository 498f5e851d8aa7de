package dev.wharf.broker.ha;

import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientConfig;
import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.namesrv.NameServer;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.testing.TestControllers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A controller-mode cluster on loopback: a NameServer and three Raft controllers in this JVM, and replicas of one
 * broker name as child processes ({@link ChildReplicaMain}) that a test can kill -9, pause and restart on their store.
 */
final class ControllerModeCluster implements AutoCloseable {

    static final String NAME = HaCluster.NAME;
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final Path dir;
    private final NameServer nameServer;
    private final TestControllers quorum;
    private final List<Replica> replicas = new ArrayList<>();
    private final ControllerAdmin admin;

    /** One replica process: its store folder, and its process and broker address while running. */
    static final class Replica {
        final Path store;
        final Path log;
        Process process;
        String address;
        /** A classic master's HA address (controller-mode replicas learn theirs from the NameServers). */
        String haAddress;

        Replica(Path store, Path log) {
            this.store = store;
            this.log = log;
        }
    }

    ControllerModeCluster(Path dir) throws Exception {
        this.dir = dir;
        nameServer = NameServer.onPort(0);
        nameServer.start();
        quorum = new TestControllers(dir, 3);
        admin = quorum.admin();
    }

    String namesrvAddr() {
        return nameServer.address();
    }

    String controllerAddr() {
        return quorum.address();
    }

    /** A new replica with its own store folder (started with {@link #start(Replica)}). */
    Replica replica(String name) {
        Replica r = new Replica(dir.resolve(name), dir.resolve(name + ".log"));
        replicas.add(r);
        return r;
    }

    /** Starts the replica's process on its store and waits until it listens. */
    void start(Replica r) throws IOException {
        start(r, controllerAddr());
    }

    /**
     * Starts a replica process: in controller mode ({@code controllerAddr}), or classic ("-", then brokerId and the
     * master's HA address, "-" for the master itself, follow).
     */
    void start(Replica r, String controllerAddr, String... classic) throws IOException {
        Path addressFile = dir.resolve(r.store.getFileName() + ".address");
        Files.deleteIfExists(addressFile);
        r.process = new ProcessBuilder(command(r, addressFile, controllerAddr, classic))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(r.log.toFile()))
                .start();
        Process p = r.process;
        await().atMost(Duration.ofSeconds(Long.getLong("wharf.replica.startSeconds", 60)))
                .until(() -> Files.exists(addressFile) || !p.isAlive());
        if (!p.isAlive()) {
            throw new IllegalStateException("replica " + r.store.getFileName() + " died at start; see " + r.log);
        }
        String[] written = Files.readString(addressFile, StandardCharsets.UTF_8).trim().split(" ");
        r.address = written[0];
        r.haAddress = written.length > 1 ? written[1] : null;
    }

    private List<String> command(Replica r, Path addressFile, String controllerAddr, String... classic) {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx192m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                ChildReplicaMain.class.getName(), r.store.toString(), addressFile.toString(), namesrvAddr(),
                controllerAddr));
        cmd.addAll(List.of(classic));
        String extra = System.getProperty("wharf.replica.jvmArgs", "").trim(); // e.g. a flight recording, by hand
        if (!extra.isEmpty()) {
            cmd.addAll(1, List.of(extra.split("\\s+")));
        }
        return cmd;
    }

    /** kill -9: no shutdown hook, nothing flushed. */
    void kill(Replica r) throws InterruptedException {
        r.process.destroyForcibly();
        if (!r.process.waitFor(20, TimeUnit.SECONDS)) {
            throw new IllegalStateException("replica " + r.store.getFileName() + " did not die");
        }
    }

    /** SIGSTOP (pause) or SIGCONT (resume) of a replica process. */
    void signal(Replica r, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(r.process.pid())).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + r.process.pid() + " failed");
        }
    }

    /** The replicas whose process runs now. */
    List<Replica> running() {
        List<Replica> out = new ArrayList<>();
        for (Replica r : replicas) {
            if (r.process != null && r.process.isAlive()) {
                out.add(r);
            }
        }
        return out;
    }

    /** The controllers' view of the group (from their leader). */
    BrokerGroupInfo group() throws Exception {
        List<BrokerGroupInfo> groups = admin.brokerGroups(NAME);
        return groups.isEmpty() ? null : groups.get(0);
    }

    /** The running replica at the master's address, or null. */
    Replica master() throws Exception {
        BrokerGroupInfo g = group();
        if (g == null || !g.hasMaster()) {
            return null;
        }
        for (Replica r : replicas) {
            if (r.process != null && r.process.isAlive() && g.masterAddress().equals(r.address)) {
                return r;
            }
        }
        return null;
    }

    /** Waits until a master is elected and {@code size} replicas are in its sync-state set. */
    void awaitSyncStateSet(int size, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> {
            BrokerGroupInfo g = group();
            return g != null && g.hasMaster() && g.masterAlive() && g.syncStateSet().size() >= size;
        });
    }

    ClientConfig clientConfig() {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(namesrvAddr());
        config.setInstanceName("ctrl-" + INSTANCES.incrementAndGet());
        config.setPollNameServerInterval(1_000);
        config.setHeartbeatBrokerInterval(1_000);
        config.setMqClientApiTimeout(3_000);
        config.setClientCallbackExecutorThreads(2);
        return config;
    }

    @Override
    public void close() {
        for (Replica r : replicas) {
            if (r.process != null) {
                try {
                    signal(r, "CONT"); // a paused process dies only once resumed
                } catch (Exception e) {
                    // it is gone already
                }
                r.process.destroyForcibly();
                try {
                    r.process.waitFor(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        quorum.close();
        nameServer.shutdown();
    }
}

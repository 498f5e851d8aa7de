package dev.wharf.controller;

import static org.awaitility.Awaitility.await;

import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.testing.RaftPorts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A controller cluster of in-JVM nodes on loopback: free Raft ports, remoting on port 0, one data folder per node.
 * Timeouts are shortened so that failovers happen within a couple of seconds.
 */
final class ControllerNodes implements AutoCloseable {

    static final long HEARTBEAT_TIMEOUT = 2_000;

    private final Path root;
    private final String peers;
    private final List<String> ids = new ArrayList<>();
    private final Map<String, Controller> running = new LinkedHashMap<>();
    private final long heartbeatTimeout;

    ControllerNodes(Path root, int count) throws IOException {
        this(root, count, HEARTBEAT_TIMEOUT);
    }

    /** With the controllers' own heartbeat timeout (also how long a new leader presumes replicas alive). */
    ControllerNodes(Path root, int count, long heartbeatTimeout) throws IOException {
        this.root = root;
        this.heartbeatTimeout = heartbeatTimeout;
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add("n" + i);
            parts.add("n" + i + "=127.0.0.1:" + freePort());
        }
        this.peers = String.join(",", parts);
    }

    /** A port for a Raft peer (see {@link RaftPorts}). */
    static int freePort() throws IOException {
        return RaftPorts.free();
    }

    String peers() {
        return peers;
    }

    static ControllerConfig config(String peers, String id, Path data) {
        ControllerConfig c = new ControllerConfig();
        c.setControllerPeers(peers);
        c.setControllerSelfId(id);
        c.setControllerStorePath(data.toString());
        c.setControllerHeartBeatTimeoutMills(HEARTBEAT_TIMEOUT);
        c.setScanNotActiveBrokerInterval(200);
        c.setControllerElectionTimeoutMillis(1_000);
        c.setControllerSnapshotThreshold(20);
        return c;
    }

    ControllerNodes startAll() {
        ids.parallelStream().forEach(this::start);
        return this;
    }

    synchronized Controller start(String id) {
        ControllerConfig config = config(peers, id, root.resolve(id));
        config.setControllerHeartBeatTimeoutMills(heartbeatTimeout);
        Controller c = new Controller(config);
        NettyServerConfig server = new NettyServerConfig();
        server.setListenPort(0);
        c.start(server);
        running.put(id, c);
        return c;
    }

    synchronized void stop(String id) {
        Controller c = running.remove(id);
        if (c != null) {
            c.shutdown();
        }
    }

    synchronized Controller node(String id) {
        return running.get(id);
    }

    synchronized List<Controller> running() {
        return new ArrayList<>(running.values());
    }

    /** The controllerAddr of every running node. */
    synchronized String addresses() {
        return running.values().stream().map(Controller::address).collect(Collectors.joining(";"));
    }

    Controller awaitLeader() {
        await().atMost(Duration.ofSeconds(20)).until(() -> running().stream().filter(Controller::isLeader).count() == 1);
        return running().stream().filter(Controller::isLeader).findFirst().orElseThrow();
    }

    Controller aFollower() {
        return running().stream().filter(c -> !c.isLeader()).findFirst().orElseThrow();
    }

    @Override
    public synchronized void close() {
        running.values().forEach(Controller::shutdown);
        running.clear();
    }
}

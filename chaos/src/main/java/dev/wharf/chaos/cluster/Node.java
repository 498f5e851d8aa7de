package dev.wharf.chaos.cluster;

import java.nio.file.Path;
import java.util.List;

/**
 * One server process of the cluster: what it is, the ports it always listens on (fixed before the first start, so
 * a restarted process comes back at the same address and partitions can name its ports), and the process now
 * running it, if any.
 */
public final class Node {

    /** What a node runs. */
    public enum Kind { NAMESRV, CONTROLLER, BROKER }

    private final Kind kind;
    private final String id;
    private final String brokerName;
    private final long brokerId;
    private final List<Integer> ports;
    private final Path dir;
    private final List<String> serverArgs;
    private volatile Process process;
    private volatile boolean paused;

    Node(Kind kind, String id, String brokerName, long brokerId, List<Integer> ports, Path dir,
         List<String> serverArgs) {
        this.kind = kind;
        this.id = id;
        this.brokerName = brokerName;
        this.brokerId = brokerId;
        this.ports = List.copyOf(ports);
        this.dir = dir;
        this.serverArgs = List.copyOf(serverArgs);
    }

    public Kind kind() {
        return kind;
    }

    /** A short unique name, e.g. {@code broker-a-1} or {@code controller-n0}; also the node's cgroup name. */
    public String id() {
        return id;
    }

    /** The broker group of a broker node; null for other kinds. */
    public String brokerName() {
        return brokerName;
    }

    /** The configured broker id (0: the first master); -1 for other kinds. */
    public long brokerId() {
        return brokerId;
    }

    /** The client port first, then the others it listens on (HA port of a broker, Raft port of a controller). */
    public List<Integer> ports() {
        return ports;
    }

    /** The address clients use, "127.0.0.1:port". */
    public String address() {
        return "127.0.0.1:" + ports.get(0);
    }

    /** The node's folder: its data, configuration and log. */
    public Path dir() {
        return dir;
    }

    List<String> serverArgs() {
        return serverArgs;
    }

    public Process process() {
        return process;
    }

    void process(Process p) {
        this.process = p;
    }

    /** Whether a process runs (it may be paused). */
    public boolean isUp() {
        Process p = process;
        return p != null && p.isAlive();
    }

    public boolean isPaused() {
        return paused;
    }

    void paused(boolean paused) {
        this.paused = paused;
    }

    /** The PID of the running process, or -1. */
    public long pid() {
        Process p = process;
        return p != null && p.isAlive() ? p.pid() : -1;
    }

    @Override
    public String toString() {
        return id + "@" + address();
    }
}

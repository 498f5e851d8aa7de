package dev.wharf.chaos.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts, kills, pauses and restarts the server processes of a {@link ClusterSpec}. Every process is a child JVM
 * running the Wharf server's main class, on ports fixed at construction; its stdout is read for the server's ready
 * line and its stderr appended to {@code server.log} in its folder. {@link #close} ends every process it started.
 */
public final class Cluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Cluster.class);
    private static final String MAIN = "dev.wharf.server.WharfMain";
    private static final long READY_TIMEOUT_MS = 120_000;

    private final ClusterSpec spec;
    private final Cgroups cgroups;
    private final List<Node> nameServers = new ArrayList<>();
    private final List<Node> controllers = new ArrayList<>();
    private final Map<String, List<Node>> brokers = new LinkedHashMap<>();

    public Cluster(ClusterSpec spec, Cgroups cgroups) {
        this.spec = spec;
        this.cgroups = cgroups;
        FreePorts ports = new FreePorts();
        for (int i = 0; i < spec.nameServers(); i++) {
            int port = ports.next();
            Path dir = spec.dir().resolve("namesrv-" + i);
            nameServers.add(new Node(Node.Kind.NAMESRV, "namesrv-" + i, null, -1, List.of(port), dir,
                    List.of("namesrv", "--port", String.valueOf(port))));
        }
        if (spec.controllerMode()) {
            List<int[]> controllerPorts = new ArrayList<>();
            StringBuilder peers = new StringBuilder();
            for (int i = 0; i < spec.controllers(); i++) {
                int[] p = {ports.next(), ports.next()};
                controllerPorts.add(p);
                peers.append(i == 0 ? "" : ",").append("n").append(i).append("=127.0.0.1:").append(p[1]);
            }
            for (int i = 0; i < spec.controllers(); i++) {
                int[] p = controllerPorts.get(i);
                Path dir = spec.dir().resolve("controller-n" + i);
                Path conf = write(dir.resolve("controller.conf"), spec.controllerSettings());
                controllers.add(new Node(Node.Kind.CONTROLLER, "controller-n" + i, null, -1, List.of(p[0], p[1]), dir,
                        List.of("controller", "--peers", peers.toString(), "--id", "n" + i, "--port",
                                String.valueOf(p[0]), "--data", dir.resolve("data").toString(), "--config",
                                conf.toString())));
            }
        }
        String namesrvAddr = nameServers.stream().map(Node::address).collect(Collectors.joining(";"));
        String controllerAddr = controllers.stream().map(Node::address).collect(Collectors.joining(";"));
        for (String name : spec.brokerNames()) {
            List<Node> group = new ArrayList<>();
            for (int id = 0; id < spec.replicas(); id++) {
                int listen = ports.next();
                int ha = ports.next();
                String nodeId = name + "-" + id;
                Path dir = spec.dir().resolve(nodeId);
                Map<String, String> conf = new LinkedHashMap<>();
                conf.put("brokerClusterName", ClusterSpec.clusterName());
                conf.put("brokerName", name);
                // in controller mode 0 asks the controllers for an id (kept in the store folder across restarts)
                conf.put("brokerId", String.valueOf(spec.controllerMode() ? 0 : id));
                conf.put("listenPort", String.valueOf(listen));
                conf.put("haListenPort", String.valueOf(ha));
                conf.put("storePathRootDir", dir.resolve("store").toString());
                conf.put("namesrvAddr", namesrvAddr);
                if (spec.controllerMode()) {
                    // every replica starts alike; the controller elects the master and the others follow it
                    conf.put("brokerRole", "SYNC_MASTER");
                    conf.put("enableControllerMode", "true");
                    conf.put("controllerAddr", controllerAddr);
                } else {
                    conf.put("brokerRole", id == 0 ? "SYNC_MASTER" : "SLAVE");
                }
                conf.putAll(spec.brokerSettings());
                Path file = write(dir.resolve("broker.conf"), conf);
                group.add(new Node(Node.Kind.BROKER, nodeId, name, id, List.of(listen, ha), dir,
                        List.of("broker", "--config", file.toString())));
            }
            brokers.put(name, group);
        }
    }

    private static Path write(Path file, Map<String, String> settings) {
        try {
            Files.createDirectories(file.getParent());
            StringBuilder s = new StringBuilder();
            settings.forEach((k, v) -> s.append(k).append('=').append(v).append('\n'));
            Files.writeString(file, s.toString(), StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Starts every node: NameServers and controllers first, then the brokers (masters before slaves). */
    public void start() {
        startAll(nameServers);
        startAll(controllers);
        if (spec.controllerMode()) {
            startAll(allBrokers());
        } else {
            startAll(brokers.values().stream().map(g -> g.get(0)).toList());
            startAll(brokers.values().stream().flatMap(g -> g.stream().skip(1)).toList());
        }
    }

    private void startAll(List<Node> nodes) {
        CompletableFuture.allOf(nodes.stream().map(n -> CompletableFuture.runAsync(() -> start(n)))
                .toArray(CompletableFuture[]::new)).join();
    }

    /** Starts the node's process and waits for its ready line. */
    public void start(Node node) {
        if (node.isUp()) {
            throw new IllegalStateException(node + " already runs (pid " + node.pid() + ")");
        }
        try {
            Files.createDirectories(node.dir());
            List<String> cmd = new ArrayList<>();
            Path procs = cgroups.procsFileOf(node);
            if (procs != null) {
                // the shell joins the node's cgroup and then becomes the JVM, so every socket is made inside it
                cmd.addAll(List.of("sh", "-c", "echo $$ > \"$0\" && exec \"$@\"", procs.toString()));
            }
            cmd.add(spec.javaCommand());
            cmd.addAll(List.of("-Xms" + spec.heapMb() + "m", "-Xmx" + spec.heapMb() + "m",
                    "-XX:MaxDirectMemorySize=" + (spec.heapMb() * 2) + "m",
                    // C1 only and the serial collector: ten JVMs on a few cores start faster and steal less
                    "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dwharf.chaos.node=" + node.id(),
                    "-cp", spec.classPath(), MAIN));
            cmd.addAll(node.serverArgs());
            Path logFile = node.dir().resolve("server.log");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
            node.process(p);
            node.paused(false);
            AtomicReference<String> ready = new AtomicReference<>();
            Thread reader = new Thread(() -> readStdout(p, ready), node.id() + "-stdout");
            reader.setDaemon(true);
            reader.start();
            long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
            synchronized (ready) {
                while (ready.get() == null && p.isAlive() && System.currentTimeMillis() < deadline) {
                    ready.wait(200);
                }
            }
            if (ready.get() == null) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException(node + " did not start within " + READY_TIMEOUT_MS / 1000
                        + " s (exit " + (p.isAlive() ? "none" : p.exitValue()) + "); see " + logFile);
            }
            log.info("{} started, pid {}", node, p.pid());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + node, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + node, e);
        }
    }

    private static void readStdout(Process p, AtomicReference<String> ready) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (ready.get() == null && line.startsWith("Wharf ") && line.contains(" ready")) {
                    synchronized (ready) {
                        ready.set(line);
                        ready.notifyAll();
                    }
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** kill -9: the process gets no chance to flush or say goodbye. */
    public void kill(Node node) {
        Process p = node.process();
        if (p == null) {
            return;
        }
        p.destroyForcibly();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(node + " (pid " + p.pid() + ") outlived SIGKILL by 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        node.paused(false);
    }

    /** SIGSTOP: the process keeps its sockets but answers nothing. */
    public void pause(Node node) {
        signal(node, "STOP");
        node.paused(true);
    }

    /** SIGCONT after {@link #pause}. */
    public void resume(Node node) {
        signal(node, "CONT");
        node.paused(false);
    }

    private static void signal(Node node, String signal) {
        long pid = node.pid();
        if (pid < 0) {
            return;
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                log.warn("kill -{} {} failed", signal, pid);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public List<Node> nameServers() {
        return List.copyOf(nameServers);
    }

    public List<Node> controllers() {
        return List.copyOf(controllers);
    }

    /** Brokers by broker name, each group in broker-id order. */
    public Map<String, List<Node>> brokers() {
        return brokers;
    }

    public List<Node> allBrokers() {
        return brokers.values().stream().flatMap(List::stream).toList();
    }

    public List<Node> allNodes() {
        List<Node> all = new ArrayList<>(nameServers);
        all.addAll(controllers);
        all.addAll(allBrokers());
        return all;
    }

    public String namesrvAddr() {
        return nameServers.stream().map(Node::address).collect(Collectors.joining(";"));
    }

    public String controllerAddr() {
        return controllers.stream().map(Node::address).collect(Collectors.joining(";"));
    }

    public ClusterSpec spec() {
        return spec;
    }

    public Cgroups cgroups() {
        return cgroups;
    }

    /** Resumes paused processes (a stopped JVM ignores SIGKILL until continued on some kernels), then kills all. */
    @Override
    public void close() {
        List<Node> all = allNodes();
        for (Node n : all) {
            if (n.isPaused()) {
                resume(n);
            }
        }
        for (Node n : all) {
            Process p = n.process();
            if (p != null) {
                p.destroyForcibly();
            }
        }
        for (Node n : all) {
            Process p = n.process();
            if (p != null) {
                try {
                    p.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        cgroups.remove(all);
    }
}

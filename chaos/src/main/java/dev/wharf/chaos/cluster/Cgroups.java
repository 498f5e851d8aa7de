package dev.wharf.chaos.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One cgroup (v2) per node under a folder of its own for the run. Partitions need to tell apart the senders of
 * packets on loopback, where every process shares 127.0.0.1: iptables' {@code cgroup --path} match does that for
 * locally generated packets, and a process in its cgroup keeps it across its sockets and threads.
 */
public final class Cgroups {

    private final Path mount;
    private final String runPath;
    private final String unavailableBecause;

    private Cgroups(Path mount, String runPath, String unavailableBecause) {
        this.mount = mount;
        this.runPath = runPath;
        this.unavailableBecause = unavailableBecause;
    }

    /** Finds the cgroup2 mount and makes the run's folder; answers an unusable instance when it cannot. */
    public static Cgroups create(String runName) {
        Optional<Path> mount = cgroup2Mount();
        if (mount.isEmpty()) {
            return new Cgroups(null, null, "no cgroup2 file system is mounted (see /proc/mounts)");
        }
        String runPath = "wharf-chaos-" + runName;
        try {
            Files.createDirectories(mount.get().resolve(runPath));
        } catch (IOException e) {
            return new Cgroups(null, null, "cannot create a cgroup under " + mount.get() + " (" + e
                    + "); run as root");
        }
        return new Cgroups(mount.get(), runPath, null);
    }

    private static Optional<Path> cgroup2Mount() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
                String[] f = line.split(" ");
                if (f.length > 2 && f[2].equals("cgroup2")) {
                    return Optional.of(Path.of(f[1]));
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    public boolean available() {
        return unavailableBecause == null;
    }

    /** Why partitions cannot be used; null when they can. */
    public String unavailableBecause() {
        return unavailableBecause;
    }

    /** The cgroup of a node as iptables names it (relative to the cgroup2 root). */
    public String pathOf(Node node) {
        return runPath + "/" + node.id();
    }

    /** The path every node's cgroup is under. */
    public String runPath() {
        return runPath;
    }

    /** The cgroup.procs file a node's process writes its PID to before it becomes the JVM; null if unavailable. */
    Path procsFileOf(Node node) throws IOException {
        if (!available()) {
            return null;
        }
        Path dir = mount.resolve(pathOf(node));
        Files.createDirectories(dir);
        return dir.resolve("cgroup.procs");
    }

    /**
     * Ends the processes left in the cgroups of runs whose checker died (they are server processes such a run
     * started) and removes those cgroups; answers what it removed. Only for when no run is active.
     */
    public static List<String> removeStale() throws IOException, InterruptedException {
        Optional<Path> mount = cgroup2Mount();
        List<String> out = new ArrayList<>();
        if (mount.isEmpty()) {
            return out;
        }
        try (Stream<Path> runs = Files.list(mount.get())) {
            for (Path run : runs.filter(p -> p.getFileName().toString().startsWith("wharf-chaos-")).toList()) {
                List<Path> nodes;
                try (Stream<Path> s = Files.list(run)) {
                    nodes = s.filter(Files::isDirectory).toList();
                }
                for (Path node : nodes) {
                    for (String pid : Files.readAllLines(node.resolve("cgroup.procs"))) {
                        if (!pid.isBlank()) {
                            ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
                            out.add("process " + pid.trim() + " of " + node.getFileName());
                        }
                    }
                }
                for (Path node : nodes) {
                    for (int attempt = 0; attempt < 50 && !Files.readAllLines(node.resolve("cgroup.procs")).isEmpty();
                         attempt++) {
                        TimeUnit.MILLISECONDS.sleep(100); // the killed processes leave their cgroup as they end
                    }
                    Files.deleteIfExists(node);
                }
                Files.deleteIfExists(run);
                out.add("cgroup " + run.getFileName());
            }
        }
        return out;
    }

    /** Removes the (then empty) cgroups of the nodes and the run's folder. */
    void remove(List<Node> nodes) {
        if (!available()) {
            return;
        }
        for (Node n : nodes) {
            try {
                Files.deleteIfExists(mount.resolve(pathOf(n)));
            } catch (IOException e) {
                // a process still in it (it did not end yet): the kernel refuses; nothing else to do
            }
        }
        try {
            Files.deleteIfExists(mount.resolve(runPath));
        } catch (IOException e) {
            // as above
        }
    }
}

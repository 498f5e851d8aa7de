package dev.wharf.chaos.nemesis;

import dev.wharf.chaos.cluster.Cgroups;
import dev.wharf.chaos.cluster.Node;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Network partitions between processes on loopback, made of iptables rules in one chain of the run's own, jumped to
 * from OUTPUT. On loopback every process shares 127.0.0.1, so a rule tells the sender by its cgroup (each node has
 * one, see {@link Cgroups}) and the receiver by its listening ports: packets a node sends to a port of a node on
 * the other side are dropped, both ways. Dropping (not rejecting) makes the partition look like a silent network:
 * peers see timeouts, not resets. {@link #close} removes the jump and the chain and is safe to call twice, from a
 * shutdown hook as well as from the normal end.
 */
public final class Partitioner implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Partitioner.class);

    private static final String PREFIX = "WCHAOS-";

    private final String chain;
    private final Cgroups cgroups;
    private boolean open;

    private Partitioner(String chain, Cgroups cgroups) {
        this.chain = chain;
        this.cgroups = cgroups;
    }

    /**
     * Creates the run's chain and the jump to it.
     *
     * @throws IllegalStateException when iptables or the cgroups are missing, or the caller is not root
     */
    public static Partitioner open(String runName, Cgroups cgroups) {
        if (!cgroups.available()) {
            throw new IllegalStateException("partitions need a cgroup per process: " + cgroups.unavailableBecause()
                    + ". Run as root, or leave the partition faults out (--faults).");
        }
        Partitioner p = new Partitioner(PREFIX + runName, cgroups);
        p.iptables(true, "-N", p.chain);
        p.open = true;
        p.iptables(true, "-I", "OUTPUT", "-j", p.chain);
        return p;
    }

    /**
     * Why partitions cannot be made on this machine (not root, or no iptables on the PATH); null when they can.
     */
    public static String unavailableReason() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "partitions need root (iptables rules and cgroups)";
        }
        String path = System.getenv("PATH") == null ? "/usr/sbin:/sbin" : System.getenv("PATH") + ":/usr/sbin:/sbin";
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, "iptables"))) {
                return null;
            }
        }
        return "partitions need iptables, which is not on the PATH";
    }

    /**
     * Removes the chains of runs whose checker died without cleaning up (killed with SIGKILL, say); answers their
     * names. Only for when no run is active: it cannot tell a dead run's chain from a live one's.
     */
    public static List<String> removeStale() {
        Partitioner lister = new Partitioner("", null);
        List<String> out = new ArrayList<>();
        for (String line : lister.output("-S")) {
            if (line.startsWith("-N " + PREFIX)) {
                String chain = line.substring(3).trim();
                Partitioner p = new Partitioner(chain, null);
                p.open = true;
                p.close();
                out.add(chain);
            }
        }
        return out;
    }

    private List<String> output(String... args) {
        List<String> cmd = new ArrayList<>(List.of("iptables", "-w"));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(30, TimeUnit.SECONDS);
            return out.lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run iptables", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** The chain holding the run's rules (for the report). */
    public String chain() {
        return chain;
    }

    /**
     * Cuts {@code node} off from {@code others}, both ways; with {@code fromClients} also from every process outside
     * the run's cgroups (the workload's producers and consumers).
     */
    public synchronized void isolate(Node node, Collection<Node> others, boolean fromClients) {
        String self = cgroups.pathOf(node);
        for (Node other : others) {
            if (other == node) {
                continue;
            }
            drop(self, false, other.ports());
            drop(cgroups.pathOf(other), false, node.ports());
        }
        if (fromClients) {
            drop(cgroups.runPath(), true, node.ports());
        }
    }

    private void drop(String senderCgroup, boolean negate, List<Integer> ports) {
        List<String> args = new ArrayList<>(List.of("-A", chain, "-p", "tcp", "-m", "cgroup"));
        if (negate) {
            args.add("!");
        }
        args.addAll(List.of("--path", senderCgroup, "-m", "multiport", "--dports",
                ports.stream().map(String::valueOf).collect(Collectors.joining(",")), "-j", "DROP"));
        iptables(true, args.toArray(String[]::new));
    }

    /** Removes every partition (the chain stays, empty). */
    public synchronized void heal() {
        if (open) {
            iptables(false, "-F", chain);
        }
    }

    /** Removes the jump and the chain. */
    @Override
    public synchronized void close() {
        if (!open) {
            return;
        }
        open = false;
        // delete every jump (one is expected), then empty and remove the chain
        while (iptables(false, "-D", "OUTPUT", "-j", chain)) {
            // again
        }
        iptables(false, "-F", chain);
        iptables(false, "-X", chain);
    }

    private boolean iptables(boolean mustSucceed, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("iptables");
        cmd.add("-w");
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + " did not finish in 30 s");
            }
            if (p.exitValue() != 0) {
                if (mustSucceed) {
                    throw new IllegalStateException(String.join(" ", cmd) + " failed (exit " + p.exitValue() + "): "
                            + out + ". Partitions need iptables and root; or leave them out (--faults).");
                }
                return false;
            }
            return true;
        } catch (IOException e) {
            if (mustSucceed) {
                throw new UncheckedIOException("cannot run iptables (is it installed and on the PATH?); partitions"
                        + " need it, or leave them out (--faults)", e);
            }
            log.warn("cannot run {}: {}", cmd, e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

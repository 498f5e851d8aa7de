package dev.wharf.chaos;

import dev.wharf.chaos.check.Report;
import dev.wharf.chaos.cluster.Cgroups;
import dev.wharf.chaos.nemesis.FaultKind;
import dev.wharf.chaos.nemesis.Partitioner;
import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code wharf-chaos}: runs a cluster of real server processes on loopback, puts load and faults on it and checks
 * that nothing acknowledged was lost. Exit code 0: passed; 1: a hard failure (see {@link Report}); 2: bad options or
 * the cluster could not be set up.
 */
@Command(name = "wharf-chaos", usageHelpAutoWidth = true,
        description = {"Starts NameServers, (controllers) and broker groups of a master and slaves as child processes"
                + " on 127.0.0.1, sends unique messages and reads them back while a nemesis kills (-9), pauses"
                + " (SIGSTOP) and partitions (iptables, needs root) processes, then checks the ledger: acknowledged"
                + " but never delivered must be 0; duplicates, order violations, split brain and failover times are"
                + " reported. Exit code 1 on a hard failure."})
public final class ChaosMain implements Callable<Integer> {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Shows this help and exits.")
    boolean help;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Folder of the run (nodes' data and logs, ledger, report.txt). Default: chaos-runs/TIME")
    Path dir;

    @Option(names = "--classic", description = "Classic groups with fixed roles (a SYNC_MASTER and its slaves, no"
            + " controllers): a killed master's group is unavailable until the master is back, and nothing it"
            + " acknowledged may be lost. Default: controller mode, where --controllers Raft controllers elect the"
            + " masters (enableControllerMode=true) and groups fail over automatically.")
    boolean classic;

    @Option(names = "--fault-seconds", defaultValue = "60", paramLabel = "S",
            description = "How long the nemesis injects faults. Default: ${DEFAULT-VALUE}")
    int faultSeconds;

    @Option(names = "--hold-ms", defaultValue = "6000", paramLabel = "MS",
            description = "Length of each fault (a killed process is restarted after it). Default: ${DEFAULT-VALUE}")
    long holdMillis;

    @Option(names = "--quiet-ms", defaultValue = "4000", paramLabel = "MS",
            description = "Gap between a fault's repair and the next fault. Default: ${DEFAULT-VALUE}")
    long quietMillis;

    @Option(names = "--faults", defaultValue = "auto", paramLabel = "KIND[,KIND]",
            description = "Faults to pick from: kill-master, kill-slave, kill-controller-leader, pause-master,"
                    + " pause-slave, partition-master, partition-master-keep-clients, partition-controller-leader,"
                    + " pause-controller-leader, all, or auto (every kind the mode supports; the partition kinds only when running as root)."
                    + " Default: ${DEFAULT-VALUE}")
    String faults;

    @Option(names = "--warmup", defaultValue = "5", paramLabel = "S", description = "Load before the first fault.")
    int warmupSeconds;

    @Option(names = "--recovery", defaultValue = "15", paramLabel = "S",
            description = "Load after the last fault is healed. Default: ${DEFAULT-VALUE}")
    int recoverySeconds;

    @Option(names = "--drain", defaultValue = "90", paramLabel = "S",
            description = "Longest wait for the consumers to read everything after the producers stop.")
    int drainSeconds;

    @Option(names = "--producers", defaultValue = "4", paramLabel = "N", description = "Producer threads.")
    int producers;

    @Option(names = "--rate", defaultValue = "300", paramLabel = "N",
            description = "Sends per second over all producers (a ceiling). Default: ${DEFAULT-VALUE}")
    int rate;

    @Option(names = "--send-timeout-ms", defaultValue = "3000", paramLabel = "MS", description = "A send's timeout.")
    int sendTimeoutMillis;

    @Option(names = "--name-servers", defaultValue = "1", paramLabel = "N", description = "NameServers (1..3).")
    int nameServers;

    @Option(names = "--broker-groups", defaultValue = "2", paramLabel = "N", description = "Broker names.")
    int brokerGroups;

    @Option(names = "--replicas", defaultValue = "3", paramLabel = "N",
            description = "Brokers per name: a master and N-1 slaves. Default: ${DEFAULT-VALUE}")
    int replicas;

    @Option(names = "--controllers", defaultValue = "3", paramLabel = "N",
            description = "Controllers (1, 3 or 5); none with --classic.")
    int controllers;

    @Option(names = "--queues", defaultValue = "4", paramLabel = "N", description = "Queues per broker name.")
    int queues;

    @Option(names = "--heap-mb", defaultValue = "160", paramLabel = "MB", description = "Heap of each server JVM.")
    int heapMb;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the fault choices. Default: the time.")
    Long seed;

    @Option(names = "--route-poll-ms", defaultValue = "30000", paramLabel = "MS",
            description = "Clients' route refresh from the NameServers (pollNameServerInterval). Default:"
                    + " ${DEFAULT-VALUE}, the client's own default.")
    int routePollMillis;

    @Option(names = "--broker-set", paramLabel = "KEY=VALUE",
            description = "An extra broker configuration key for every broker (repeatable), e.g. slaveTimeout=2000.")
    Map<String, String> brokerSettings = new LinkedHashMap<>();

    @Option(names = "--controller-set", paramLabel = "KEY=VALUE",
            description = "An extra controller configuration key (repeatable), e.g. controllerHeartBeatTimeoutMills=3000.")
    Map<String, String> controllerSettings = new LinkedHashMap<>();

    @Option(names = "--cleanup", description = "Removes what runs whose checker was killed left behind (their"
            + " iptables chains WCHAOS-*, their server processes and cgroups wharf-chaos-*) and exits. Only while no"
            + " run is active.")
    boolean cleanup;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ChaosMain()).setExitCodeExceptionMapper(e -> 2).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (cleanup) {
            List<String> removed = new ArrayList<>(Cgroups.removeStale());
            if (Partitioner.unavailableReason() == null) {
                Partitioner.removeStale().forEach(c -> removed.add("iptables chain " + c));
            }
            System.out.println(removed.isEmpty() ? "nothing left behind" : "removed: " + String.join(", ", removed));
            return 0;
        }
        RunOptions options = options();
        Report report = new ChaosRun(options, javaCommand(), classPath()).run();
        report.print(System.out);
        System.out.println("ledger, logs and report.txt: " + options.dir().toAbsolutePath());
        return report.passed() ? 0 : 1;
    }

    RunOptions options() {
        List<FaultKind> kinds = faultKinds();
        Path runDir = dir != null ? dir : Path.of("chaos-runs",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        if (faultSeconds < 0 || holdMillis < 100 || quietMillis < 0 || producers < 1 || rate < 1 || queues < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--fault-seconds must be >= 0,"
                    + " --hold-ms >= 100, --quiet-ms >= 0, --producers, --rate and --queues >= 1");
        }
        return new RunOptions(runDir.toAbsolutePath(), !classic, nameServers, brokerGroups, replicas,
                controllers, kinds, faultSeconds, quietMillis, holdMillis, warmupSeconds, recoverySeconds,
                drainSeconds, producers, rate, sendTimeoutMillis, queues, heapMb,
                seed != null ? seed : System.currentTimeMillis(), routePollMillis, brokerSettings,
                controllerSettings);
    }

    private List<FaultKind> faultKinds() {
        if (!faults.trim().equalsIgnoreCase("auto")) {
            try {
                return FaultKind.parseList(faults);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--faults: " + e.getMessage());
            }
        }
        String noPartitions = Partitioner.unavailableReason();
        if (noPartitions != null) {
            System.err.println("no partition faults: " + noPartitions);
        }
        List<FaultKind> out = new ArrayList<>();
        for (FaultKind k : FaultKind.values()) {
            if ((k.needsControllers() && classic) || (k.isPartition() && noPartitions != null)) {
                continue;
            }
            out.add(k);
        }
        return out;
    }

    private static String javaCommand() {
        return ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin",
                "java").toString());
    }

    /**
     * The class path for the server processes: {@code wharf.chaos.classpath} if set, else the one this class was
     * loaded from (under {@code mvn exec:java} that is the project's, not the JVM's own class path).
     */
    static String classPath() {
        String given = System.getProperty("wharf.chaos.classpath");
        if (given != null && !given.isBlank()) {
            return given;
        }
        ClassLoader loader = ChaosMain.class.getClassLoader();
        if (loader instanceof URLClassLoader urls && urls.getURLs().length > 0) {
            List<String> entries = new ArrayList<>();
            for (URL u : urls.getURLs()) {
                try {
                    entries.add(new File(u.toURI()).getPath());
                } catch (URISyntaxException | IllegalArgumentException e) {
                    entries.add(u.getPath());
                }
            }
            return String.join(File.pathSeparator, entries);
        }
        return System.getProperty("java.class.path");
    }
}

package dev.wharf.benchmarks.load;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The load tool: {@code java -jar benchmarks/target/wharf-benchmarks.jar [options]}. Producer threads send
 * messages of a fixed size with synchronous sends while a push consumer receives them; after a warm-up it measures
 * for a fixed time and prints send TPS with send-latency percentiles and consume TPS with end-to-end latency
 * percentiles (born timestamp to listener).
 */
@Command(name = "wharf-load", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        description = {"Load generator for Wharf: producer threads and a push consumer against a server.",
                "Against a running server: --namesrv HOST:PORT. Or let the tool start a standalone server in a "
                        + "child JVM on loopback: --embedded async, --embedded sync, or --embedded async,sync to "
                        + "measure both, one after the other, and print their ratios."},
        footerHeading = "%nExample:%n",
        footer = "  java -jar benchmarks/target/wharf-benchmarks.jar --threads 4 --size 1024 --duration 20 --embedded async,sync")
public final class LoadTool implements Callable<Integer> {

    /** What a run does. */
    enum Mode { PRODUCE, CONSUME, BOTH }

    @Option(names = "--mode", defaultValue = "both", paramLabel = "produce|consume|both",
            description = "produce, consume or both (default: ${DEFAULT-VALUE}).")
    Mode mode;

    @Option(names = "--threads", defaultValue = "4", paramLabel = "N",
            description = "Producer threads, each sending synchronously (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--size", defaultValue = "1024", paramLabel = "BYTES",
            description = "Message body size in bytes (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--duration", defaultValue = "20", paramLabel = "SEC",
            description = "Measured seconds, after the warm-up (default: ${DEFAULT-VALUE}).")
    int duration;

    @Option(names = "--warmup", defaultValue = "5", paramLabel = "SEC",
            description = "Warm-up seconds, not measured (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--namesrv", defaultValue = "127.0.0.1:9876", paramLabel = "HOST:PORT",
            description = "NameServer of the server to load (default: ${DEFAULT-VALUE}); ignored with --embedded.")
    String namesrv;

    @Option(names = "--embedded", split = ",", paramLabel = "async|sync",
            description = "Start a standalone server in a child JVM per flush mode listed (fresh store each), "
                    + "instead of using --namesrv.")
    List<String> embedded = new ArrayList<>();

    @Option(names = "--store-dir", paramLabel = "DIR",
            description = "Where --embedded servers keep their stores (default: the temporary folder). Choose a "
                    + "folder on the disk to measure: sync flush on a memory file system measures nothing.")
    Path storeDir;

    @Option(names = "--server-jvm-opts", defaultValue = "-Xms1g -Xmx1g", paramLabel = "OPTS",
            description = "JVM options of --embedded servers (default: ${DEFAULT-VALUE}).")
    String serverJvmOptions;

    @Option(names = "--topic", defaultValue = "wharf-load", paramLabel = "TOPIC",
            description = "Topic, created if needed (default: ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = "--queues", defaultValue = "8", paramLabel = "N",
            description = "Queues of the topic (default: ${DEFAULT-VALUE}).")
    int queues;

    @Option(names = "--group", defaultValue = "wharf-load-consumer", paramLabel = "GROUP",
            description = "Consumer group; moved to the end of the topic before the run (default: ${DEFAULT-VALUE}).")
    String group;

    @Option(names = "--consume-threads", defaultValue = "4", paramLabel = "N",
            description = "Consumer listener threads (default: ${DEFAULT-VALUE}).")
    int consumeThreads;

    @Option(names = "--consume-batch", defaultValue = "1", paramLabel = "N",
            description = "Messages per listener call (default: ${DEFAULT-VALUE}).")
    int consumeBatch;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        // before the first logger: the clients log through the server's bundled configuration, warnings only
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "wharf-server-logback.xml");
        }
        if (System.getProperty("wharf.log.level") == null) {
            System.setProperty("wharf.log.level", "WARN");
        }
        System.exit(commandLine(new LoadTool()).execute(args));
    }

    /** The command line of the tool: case-insensitive values, failures reported on one line. */
    static CommandLine commandLine(LoadTool tool) {
        CommandLine cmd = new CommandLine(tool).setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setParameterExceptionHandler((e, args) -> {
            e.getCommandLine().getErr().println("wharf-load: " + e.getMessage() + " (see: --help)");
            return 2;
        });
        cmd.setExecutionExceptionHandler((e, c, parsed) -> {
            c.getErr().println("wharf-load: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        });
        return cmd;
    }

    @Override
    @SuppressWarnings("try") // ChildServer.close() may throw InterruptedException, as it should
    public Integer call() throws Exception {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        out.printf("Wharf load: mode %s, %d producer threads, %d-byte messages, %d s warm-up, %d s measured, "
                + "topic %s (%d queues), %d consume threads%n", mode.name().toLowerCase(), threads, size, warmup,
                duration, topic, queues, consumeThreads);
        List<LoadResult> results = new ArrayList<>();
        if (embedded.isEmpty()) {
            out.println("Server: NameServer " + namesrv);
            LoadResult r = new LoadRun(this, out).run("server " + namesrv, namesrv);
            LoadReport.result(out, r);
            results.add(r);
        } else {
            Path root = storeDir != null ? storeDir : Path.of(System.getProperty("java.io.tmpdir"));
            for (String flush : embedded) {
                try (ChildServer server = ChildServer.start(flush, root, serverJvmOptions)) {
                    out.println("Server: standalone child JVM, " + flush + " flush, NameServer " + server.nameServer()
                            + ", store " + server.store());
                    LoadResult r = new LoadRun(this, out).run(flush, server.nameServer());
                    LoadReport.result(out, r);
                    results.add(r);
                }
            }
            LoadReport.comparison(out, results);
        }
        return 0;
    }

    private void validate() {
        check(threads >= 1 && threads <= 1024, "--threads must be 1..1024, got " + threads);
        check(size >= 1 && size <= 4 * 1024 * 1024, "--size must be 1..4194304 bytes, got " + size);
        check(duration >= 1 && duration <= 3600, "--duration must be 1..3600 seconds, got " + duration);
        check(warmup >= 0 && warmup <= 600, "--warmup must be 0..600 seconds, got " + warmup);
        check(queues >= 1 && queues <= 1024, "--queues must be 1..1024, got " + queues);
        check(consumeThreads >= 1 && consumeThreads <= 256, "--consume-threads must be 1..256, got " + consumeThreads);
        check(consumeBatch >= 1 && consumeBatch <= 1024, "--consume-batch must be 1..1024, got " + consumeBatch);
        for (String flush : embedded) {
            check(flush.equals("sync") || flush.equals("async"), "--embedded takes async and/or sync, got " + flush);
        }
        check(embedded.isEmpty() || mode == Mode.BOTH, "--embedded starts a fresh server per run, so it needs "
                + "--mode both (a produce-only or consume-only run needs a server shared with the other side)");
    }

    private void check(boolean ok, String message) {
        if (!ok) {
            throw new ParameterException(spec.commandLine(), message + ".");
        }
    }
}

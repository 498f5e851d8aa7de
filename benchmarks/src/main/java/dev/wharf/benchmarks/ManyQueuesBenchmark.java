package dev.wharf.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A store with many queues (default 12,500 topics x 8 queues = 100,000, one message each) in child processes
 * whose open-file limit is lowered with {@code ulimit -n}: write, {@code kill -9}, unclean restart, clean stop,
 * clean restart. Every restart reads every message back. Reports for each phase the store's start time (from
 * {@code start()} being called to it returning), heap in use and RSS after the start and after reading
 * everything, and the descriptors and memory maps the process holds. Each phase is a {@link ManyQueuesChild};
 * the kill comes once the queue manifest and the checkpoint cover every write (the state of a broker that was
 * idle for a few seconds), so the unclean restart shows what recovery costs without an unflushed tail.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dbenchmark.main=dev.wharf.benchmarks.ManyQueuesBenchmark}
 * (options via {@code -Dexec.args="--topics 12500 --queues 8 --nofile 4096"}). Options: {@code --dir} (default:
 * a temporary folder, deleted afterwards), {@code --topics}, {@code --queues} per topic, {@code --nofile} the
 * children's open-file limit (default 4096), {@code --xmx} the children's heap (default 1g), {@code --cq-units}
 * units per consume-queue file (default 300,000, RocketMQ's).
 */
public final class ManyQueuesBenchmark {

    private Path baseDir;
    private boolean deleteBase;
    private int topics = 12_500;
    private int queues = 8;
    private int nofile = 4_096;
    private String xmx = "1g";
    private int cqUnits = 300_000;

    public static void main(String[] args) throws Exception {
        ManyQueuesBenchmark bench = new ManyQueuesBenchmark();
        bench.parse(args);
        bench.run();
    }

    private void parse(String[] args) throws IOException {
        BenchArgs a = BenchArgs.parse(args, List.of("--dir", "--topics", "--queues", "--nofile", "--xmx",
                "--cq-units"));
        topics = a.integer("--topics", topics);
        queues = a.integer("--queues", queues);
        nofile = a.integer("--nofile", nofile);
        xmx = a.text("--xmx", xmx);
        cqUnits = a.integer("--cq-units", cqUnits);
        baseDir = a.dir("wharf-many-queues");
        deleteBase = a.temporaryDir();
    }


    private void run() throws Exception {
        Path store = baseDir.resolve("store");
        System.out.printf(Locale.ROOT, "%,d topics x %d queues = %,d queues, one message each; children run with"
                + " ulimit -n %d and -Xmx%s, %,d units per consume-queue file; store in %s%n%n", topics, queues,
                topics * queues, nofile, xmx, cqUnits, store);
        try {
            List<Map<String, String>> phases = new ArrayList<>();
            phases.add(child(store, "write-crash"));
            phases.add(child(store, "verify"));
            phases.add(child(store, "verify"));
            String[] names = {"first start + write, then kill -9", "unclean restart", "clean restart"};
            System.out.printf(Locale.ROOT, "%-34s %10s %10s %12s %11s %12s %11s %7s %7s%n", "phase", "start ms",
                    "readable", "heap start", "RSS start", "heap read", "RSS read", "fds", "maps");
            for (int i = 0; i < phases.size(); i++) {
                Map<String, String> p = phases.get(i);
                System.out.printf(Locale.ROOT, "%-34s %10s %10s %9s MB %8s MB %9s MB %8s MB %7s %7s%n", names[i],
                        p.get("startMillis"), p.get("readable"), p.get("heapStartMb"), p.get("rssStartMb"),
                        p.get("heapReadMb"), p.get("rssReadMb"), p.get("fds"), p.get("maps"));
            }
        } finally {
            if (deleteBase) {
                Bench.deleteTree(baseDir);
            }
        }
    }

    private Map<String, String> child(Path store, String mode) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = List.of("bash", "-c", "ulimit -n " + nofile + " && exec \"$0\" \"$@\"", java,
                "-Xmx" + xmx, "-cp", System.getProperty("java.class.path"), ManyQueuesChild.class.getName(),
                store.toString(), Integer.toString(topics), Integer.toString(queues), mode,
                Integer.toString(cqUnits));
        Path err = baseDir.resolve(mode + "-" + System.currentTimeMillis() + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Map<String, String> values = new LinkedHashMap<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); var log = Files.newBufferedWriter(err)) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                log.write(line);
                log.newLine();
                if (line.contains("Store started")) {
                    System.out.println(mode + ": " + line.substring(line.indexOf("Store started")));
                }
                if (line.equals("READY")) {
                    process.destroyForcibly(); // SIGKILL: an unclean stop
                    break;
                }
                int eq = line.indexOf('=');
                if (eq > 0) {
                    values.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        }
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("child " + mode + " did not finish; see " + err);
        }
        if (!mode.endsWith("crash") && process.exitValue() != 0) {
            throw new IllegalStateException("child " + mode + " failed (exit " + process.exitValue() + "); see " + err);
        }
        return values;
    }
}

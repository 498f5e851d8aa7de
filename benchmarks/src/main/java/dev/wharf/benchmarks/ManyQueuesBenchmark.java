package dev.wharf.benchmarks;

import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.store.DefaultMessageStore;
import dev.wharf.store.GetMessageResult;
import dev.wharf.store.MessageExtBrokerInner;
import dev.wharf.store.MessageStoreConfig;
import dev.wharf.store.PutMessageResult;
import dev.wharf.store.queue.QueueManifest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * A store with many queues (default 12,500 topics x 8 queues = 100,000, one message each) in child processes
 * whose open-file limit is lowered with {@code ulimit -n}: write, {@code kill -9}, unclean restart, clean stop,
 * clean restart. Every restart reads every message back. Reports for each phase the store's start time (from
 * {@code start()} being called to it returning), heap in use and RSS after the start and after reading
 * everything, and the descriptors and memory maps the process holds.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am compile exec:java -Dbenchmark.main=dev.wharf.benchmarks.ManyQueuesBenchmark}
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
        if (args.length > 0 && args[0].equals("child")) {
            Child.main(args);
            return;
        }
        ManyQueuesBenchmark bench = new ManyQueuesBenchmark();
        bench.parse(args);
        bench.run();
    }

    private void parse(String[] args) throws IOException {
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--dir" -> baseDir = Path.of(require(args[i], value));
                case "--topics" -> topics = Integer.parseInt(require(args[i], value));
                case "--queues" -> queues = Integer.parseInt(require(args[i], value));
                case "--nofile" -> nofile = Integer.parseInt(require(args[i], value));
                case "--xmx" -> xmx = require(args[i], value);
                case "--cq-units" -> cqUnits = Integer.parseInt(require(args[i], value));
                default -> throw new IllegalArgumentException("Unknown option " + args[i]
                        + "; use --dir, --topics, --queues, --nofile, --xmx or --cq-units.");
            }
            i++;
        }
        if (baseDir == null) {
            baseDir = Files.createTempDirectory("wharf-many-queues");
            deleteBase = true;
        }
    }

    private static String require(String option, String value) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value.");
        }
        return value;
    }

    private void run() throws Exception {
        Path store = baseDir.resolve("store");
        System.out.printf(Locale.ROOT, "%,d topics x %d queues = %,d queues, one message each; children run with"
                + " ulimit -n %d and -Xmx%s, %,d units per consume-queue file; store in %s%n%n", topics, queues,
                topics * queues, nofile, xmx, cqUnits, store);
        try {
            List<Map<String, String>> phases = new ArrayList<>();
            phases.add(child(store, "write-crash"));
            phases.add(child(store, "restart"));
            phases.add(child(store, "restart"));
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
                deleteTree(baseDir);
            }
        }
    }

    private Map<String, String> child(Path store, String mode) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = List.of("bash", "-c", "ulimit -n " + nofile + " && exec \"$0\" \"$@\"", java,
                "-Xmx" + xmx, "-cp", System.getProperty("java.class.path"), ManyQueuesBenchmark.class.getName(),
                "child", store.toString(), Integer.toString(topics), Integer.toString(queues), mode,
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

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** One phase in its own process; prints key=value lines. */
    private static final class Child {

        static void main(String[] args) throws Exception {
            Path root = Path.of(args[1]);
            int topics = Integer.parseInt(args[2]);
            int queues = Integer.parseInt(args[3]);
            String mode = args[4];
            MessageStoreConfig config = new MessageStoreConfig();
            config.setStorePathRootDir(root.toString());
            config.setMappedFileSizeConsumeQueue(Integer.parseInt(args[5]) * 20);
            config.setQueueManifestInterval(5_000);
            // logging and the store's classes are loaded before the clock starts: the figure is the store's own
            LoggerFactory.getLogger(ManyQueuesBenchmark.class).info("Child {} starting", mode);
            DefaultMessageStore store = new DefaultMessageStore(config);
            long started = System.nanoTime();
            store.start();
            print("startMillis", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            printMemory("Start");
            if (mode.startsWith("write")) {
                write(store, topics, queues);
            }
            int readable = readAll(store, topics, queues);
            print("readable", readable);
            printMemory("Read");
            print("fds", count(Path.of("/proc/self/fd")));
            print("maps", lines(Path.of("/proc/self/maps")));
            if (mode.endsWith("crash")) {
                long end = store.getMaxPhyOffset();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                // the running store's manifest reaches the end within its interval; the crash comes after that
                while (System.nanoTime() < deadline) {
                    QueueManifest m = QueueManifest.read(root.resolve(QueueManifest.FILE_NAME));
                    if (m != null && m.dispatchedOffset() == end) {
                        break;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                }
                System.out.println("READY");
                System.out.flush();
                LockSupport.park();
            }
            store.shutdown();
            System.exit(readable == topics * queues ? 0 : 3);
        }

        private static void write(DefaultMessageStore store, int topics, int queues) {
            for (int t = 0; t < topics; t++) {
                for (int q = 0; q < queues; q++) {
                    MessageExtBrokerInner msg = new MessageExtBrokerInner();
                    msg.setTopic("Topic" + t);
                    msg.setQueueId(q);
                    msg.setBody((t + "/" + q).getBytes(StandardCharsets.UTF_8));
                    msg.setBornTimestamp(System.currentTimeMillis());
                    msg.setBornHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 5555));
                    PutMessageResult r = store.putMessage(msg);
                    if (!r.isOk()) {
                        throw new IllegalStateException("put to Topic" + t + "-" + q + " failed: " + r.status());
                    }
                }
            }
            if (!store.awaitDispatched(TimeUnit.MINUTES.toMillis(10))) {
                throw new IllegalStateException("dispatch did not finish within 10 minutes");
            }
        }

        private static int readAll(DefaultMessageStore store, int topics, int queues) {
            int found = 0;
            for (int t = 0; t < topics; t++) {
                for (int q = 0; q < queues; q++) {
                    GetMessageResult r = store.getMessage("Topic" + t, q, 0, 4, 1 << 20, null);
                    try {
                        if (r.buffers().size() == 1) {
                            MessageExt m = MessageDecoder.decode(r.buffers().get(0).byteBuffer().duplicate(), true,
                                    false);
                            if (new String(m.getBody(), StandardCharsets.UTF_8).equals(t + "/" + q)) {
                                found++;
                            }
                        }
                    } finally {
                        r.release();
                    }
                }
            }
            return found;
        }

        private static void printMemory(String when) throws IOException {
            System.gc();
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            print("heap" + when + "Mb", heap / (1024 * 1024));
            try (Stream<String> status = Files.lines(Path.of("/proc/self/status"))) {
                status.filter(l -> l.startsWith("VmRSS:")).findFirst().ifPresent(l -> print("rss" + when + "Mb",
                        Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024));
            }
        }

        private static void print(String key, long value) {
            System.out.println(key + "=" + value);
        }

        private static long count(Path dir) throws IOException {
            try (Stream<Path> s = Files.list(dir)) {
                return s.count();
            }
        }

        private static long lines(Path file) throws IOException {
            try (Stream<String> s = Files.lines(file)) {
                return s.count();
            }
        }
    }
}

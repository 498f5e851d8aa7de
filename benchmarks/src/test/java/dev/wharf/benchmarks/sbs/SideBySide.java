package dev.wharf.benchmarks.sbs;

import dev.wharf.benchmarks.Bench;
import dev.wharf.benchmarks.BenchArgs;
import dev.wharf.jms.vm.VmBrokerRegistry;
import jakarta.jms.ConnectionFactory;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Wharf beside ActiveMQ Artemis: the same four JMS workloads (persistent TextMessages of {@code --size} bytes:
 * {@code send1} one producer, {@code send4} four, {@code sendtx} one transacted session committing every
 * {@code --batch}, {@code drain} one AUTO_ACKNOWLEDGE consumer taking everything send1 and send4 stored) against
 * each provider in turn, A B C D, A B C D, ..., for {@code --rounds} rounds of {@code --seconds} per workload. Every
 * provider starts a broker on a fresh store before its workloads are timed and stops it after. An unrecorded
 * warm-up round of {@code --warmup} seconds per workload comes first, so that no provider is timed on code the
 * JIT has not compiled. Prints a {@code RESULT} line per measurement, then medians and the ratios Wharf ÷ Artemis.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dexec.classpathScope=test
 * -Dbenchmark.main=dev.wharf.benchmarks.sbs.SideBySide -Dexec.args="--seconds 6 --rounds 3"}.
 *
 * <p>Providers ({@code --providers}, comma-separated): {@code artemis-tuned}, {@code artemis-nosync},
 * {@code artemis} (see {@link ArtemisProvider}); {@code wharf-sync}, {@code wharf-async}, {@code wharf-sync-counts},
 * {@code wharf:vm://NAME?SETTINGS} (see {@link WharfProvider}). {@code --workloads} picks some of send1, send4, sendtx
 * and drain (all by default).
 */
public final class SideBySide {

    static final List<String> OPTIONS = List.of("--seconds", "--rounds", "--size", "--batch", "--providers",
            "--warmup", "--dir", "--workloads");
    static final List<String> WORKLOADS = List.of("send1", "send4", "sendtx", "drain");
    static final String DEFAULT_PROVIDERS = "artemis-tuned,wharf-sync,artemis-nosync,wharf-async";

    private final double seconds;
    private final int rounds;
    private final double warmup;
    private final List<Provider> providers = new ArrayList<>();
    private final Workloads workloads;
    private final PrintStream out;
    private final List<String> selected;

    SideBySide(BenchArgs args, PrintStream out) {
        this.seconds = args.decimal("--seconds", 6);
        this.rounds = args.integer("--rounds", 3);
        this.warmup = args.decimal("--warmup", 8);
        int size = args.integer("--size", 1024);
        int batch = args.integer("--batch", 100);
        if (seconds <= 0 || rounds < 1 || warmup < 0 || size < 1 || batch < 1) {
            throw new IllegalArgumentException("Give --seconds > 0, --rounds >= 1, --warmup >= 0, --size >= 1 and"
                    + " --batch >= 1.");
        }
        for (String name : args.text("--providers", DEFAULT_PROVIDERS).split(",")) {
            Provider p = ArtemisProvider.named(name.trim());
            p = p != null ? p : WharfProvider.named(name.trim());
            if (p == null) {
                throw new IllegalArgumentException("Unknown provider " + name + "; known: artemis, artemis-tuned,"
                        + " artemis-nosync, wharf-sync, wharf-async, wharf-sync-counts, wharf:vm://NAME?SETTINGS.");
            }
            providers.add(p);
        }
        this.selected = List.of(args.text("--workloads", String.join(",", WORKLOADS)).split(","));
        for (String w : selected) {
            if (!WORKLOADS.contains(w)) {
                throw new IllegalArgumentException("Unknown workload " + w + "; known: " + WORKLOADS
                        + " (drain takes what send1 and send4 sent).");
            }
        }
        this.workloads = new Workloads("x".repeat(size), batch);
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        // without a logback configuration both brokers would log at DEBUG, and that would be measured too
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        BenchArgs parsed = BenchArgs.parse(args, OPTIONS);
        SideBySide sbs = new SideBySide(parsed, System.out);
        Path dir = parsed.dir("wharf-sbs");
        try {
            sbs.run(dir).print(System.out);
        } finally {
            VmBrokerRegistry.shared().stopAll();
            if (parsed.temporaryDir()) {
                Bench.deleteTree(dir);
            }
        }
        System.exit(0);
    }

    /** Runs the warm-up and the rounds, storing under {@code dir}. */
    Results run(Path dir) throws Exception {
        out.printf(Locale.ROOT, "Side by side: %s; %d rounds of %.1f s per workload after a warm-up of %.1f s;"
                + " load average %.1f%n", providers.stream().map(Provider::name).toList(), rounds, seconds, warmup,
                loadAverage());
        if (warmup > 0) {
            Results ignored = new Results();
            for (Provider p : providers) {
                round(p, dir, "warmup", warmup, ignored);
            }
        }
        Results results = new Results();
        diskForceRate(dir, "before");
        for (int r = 0; r < rounds; r++) {
            for (Provider p : providers) {
                round(p, dir, "r" + r, seconds, results);
            }
            out.printf(Locale.ROOT, "round %d done, load average %.1f%n", r + 1, loadAverage());
        }
        diskForceRate(dir, "after");
        return results;
    }

    private void round(Provider p, Path dir, String round, double secs, Results results) throws Exception {
        Path store = Files.createDirectories(dir.resolve(p.name().replaceAll("[^A-Za-z0-9._-]", "_") + "-" + round));
        long t0 = System.nanoTime();
        ConnectionFactory cf = p.start(store);
        out.printf(Locale.ROOT, "START %s %s in %.2f s%n", round, p.name(), (System.nanoTime() - t0) / 1e9);
        try {
            String queue = "sbs." + round;
            long queued = 0;
            if (selected.contains("send1")) {
                Workloads.Count send1 = workloads.send(cf, queue, secs, 1, false);
                report(results, p, round, "send1", send1);
                queued += send1.messages();
            }
            if (selected.contains("send4")) {
                Workloads.Count send4 = workloads.send(cf, queue, secs, 4, false);
                report(results, p, round, "send4", send4);
                queued += send4.messages();
            }
            if (selected.contains("sendtx")) {
                report(results, p, round, "sendtx", workloads.send(cf, queue + ".tx", secs, 1, true));
            }
            if (selected.contains("drain") && queued > 0) {
                report(results, p, round, "drain", workloads.drain(cf, queue, queued, 30_000));
            }
        } finally {
            long t1 = System.nanoTime();
            p.stop();
            Bench.deleteTree(store);
            out.printf(Locale.ROOT, "STOP %s %s in %.2f s%n", round, p.name(), (System.nanoTime() - t1) / 1e9);
        }
    }

    /** The disk's small-force rate beside the rounds: a lone durable producer's ceiling (see send1). */
    private void diskForceRate(Path dir, String when) throws java.io.IOException {
        out.printf(Locale.ROOT, "DISK %s the rounds: %.0f forces/s of lone 1 KiB appends (the most one blocking durable"
                + " producer can be acknowledged at)%n", when, DiskForceRate.measure(dir, 2));
    }

    private void report(Results results, Provider p, String round, String workload, Workloads.Count c) {
        results.add(p.name(), workload, c.perSecond());
        out.printf(Locale.ROOT, "RESULT %s %s %s %.0f msgs/s (%d in %.2f s)%n", round, p.name(), workload,
                c.perSecond(), c.messages(), c.seconds());
    }

    /** The system's load average of the last minute, or -1 where the platform does not tell. */
    static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}

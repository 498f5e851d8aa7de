package dev.wharf.benchmarks.sbs;

import dev.wharf.benchmarks.BenchArgs;
import dev.wharf.remoting.NettyClientConfig;
import jakarta.jms.ConnectionFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The side-by-side {@code send1} and {@code send4} workloads against one Wharf provider, alternating between
 * {@code --spin} values of the client's {@code syncSpinMicros} round by round, so each value meets the same broker,
 * store and machine moments. Every round opens new connections, and with them new clients that read the value.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dexec.classpathScope=test
 * -Dbenchmark.main=dev.wharf.benchmarks.sbs.SyncSpinAB -Dexec.args="--provider wharf-async --spin 0,1000
 * --workloads send1,send4 --seconds 4 --rounds 5"}.
 */
public final class SyncSpinAB {

    private SyncSpinAB() {
    }

    public static void main(String[] args) throws Exception {
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        BenchArgs a = BenchArgs.parse(args, List.of("--provider", "--spin", "--workloads", "--seconds", "--rounds",
                "--size"));
        String[] spins = a.text("--spin", "0,1000").split(",");
        String[] workloadNames = a.text("--workloads", "send1,send4").split(",");
        double seconds = a.decimal("--seconds", 4);
        int rounds = a.integer("--rounds", 5);
        Workloads workloads = new Workloads("x".repeat(a.integer("--size", 1024)), 100);
        Provider provider = WharfProvider.named(a.text("--provider", "wharf-async"));
        Path dir = Files.createTempDirectory("wharf-spin-ab");
        ConnectionFactory cf = provider.start(dir);
        System.out.printf(Locale.ROOT, "%s, syncSpinMicros %s, %d rounds of %.1f s; load average %.1f%n",
                provider.name(), String.join(" / ", spins), rounds, seconds, SideBySide.loadAverage());
        int queue = 0;
        try {
            for (String workload : workloadNames) {
                int producers = switch (workload.trim()) {
                    case "send1" -> 1;
                    case "send4" -> 4;
                    default -> throw new IllegalArgumentException("--workloads takes send1 and send4, not " + workload);
                };
                workloads.send(cf, "spin.warmup." + queue++, 2, producers, false);
                List<List<Double>> results = new ArrayList<>();
                for (int i = 0; i < spins.length; i++) {
                    results.add(new ArrayList<>());
                }
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < spins.length; i++) {
                        System.setProperty(NettyClientConfig.SYNC_SPIN_PROPERTY, spins[i].trim());
                        results.get(i).add(workloads.send(cf, "spin." + queue++, seconds, producers, false)
                                .perSecond());
                    }
                }
                for (int i = 0; i < spins.length; i++) {
                    List<Double> values = results.get(i);
                    StringBuilder line = new StringBuilder();
                    for (double v : values) {
                        line.append(String.format(Locale.ROOT, " %.0f", v));
                    }
                    System.out.printf(Locale.ROOT, "RESULT %s spin=%s median %.0f msgs/s, rounds:%s%n", workload,
                            spins[i].trim(), Results.median(values), line);
                }
            }
        } finally {
            System.clearProperty(NettyClientConfig.SYNC_SPIN_PROPERTY);
            provider.stop();
        }
        System.exit(0);
    }
}

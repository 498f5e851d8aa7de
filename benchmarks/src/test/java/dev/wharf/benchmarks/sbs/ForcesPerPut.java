package dev.wharf.benchmarks.sbs;

import dev.wharf.benchmarks.BenchArgs;
import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.namesrv.NameServer;
import dev.wharf.store.FlushDiskType;
import dev.wharf.store.MessageStoreConfig;
import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.store.StoreObserver;
import dev.wharf.store.StoreStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * The side-by-side {@code send4} workload (four blocking JMS producers, persistent messages) against a SYNC_FLUSH
 * broker on loopback, once per {@code --gather} value (microseconds of {@code groupCommitGatherMicros}), alternating
 * for {@code --rounds} rounds, counting the store's puts and forces and what the disk wrote per put (from Linux's
 * block-device statistics: the whole machine's writes, journal included), the mean time of a force and of an append
 * (lock, copy into the file) and the process's minor page faults per put (from {@code /proc/self/stat}). Puts per
 * force is a count, so it reads on a machine too busy for throughput to mean much; it still depends on the round
 * trips fitting in the window. {@code --producers} sets the producers (4), {@code --inline} the store's
 * {@code groupCommitInlineForceMicros}.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dexec.classpathScope=test
 * -Dbenchmark.main=dev.wharf.benchmarks.sbs.ForcesPerPut -Dexec.args="--gather 0,500 --seconds 4 --rounds 3"}.
 */
public final class ForcesPerPut {

    public static void main(String[] args) throws Exception {
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        BenchArgs a = BenchArgs.parse(args, List.of("--gather", "--seconds", "--rounds", "--producers", "--size",
                "--inline"));
        String[] gathers = a.text("--gather", "0,500").split(",");
        double seconds = a.decimal("--seconds", 4);
        int rounds = a.integer("--rounds", 3);
        int producers = a.integer("--producers", 4);
        long inline = a.integer("--inline", (int) new MessageStoreConfig().getGroupCommitInlineForceMicros());
        Workloads workloads = new Workloads("x".repeat(a.integer("--size", 1024)), 100);
        System.out.printf(Locale.ROOT, "send%d, SYNC_FLUSH, groupCommitGatherMicros %s, %d rounds of %.1f s; load"
                + " average %.1f%n", producers, String.join(" / ", gathers), rounds, seconds, SideBySide.loadAverage());
        for (int r = 0; r < rounds; r++) {
            for (String gather : gathers) {
                Path dir = Files.createTempDirectory("wharf-forces");
                NameServer nameServer = NameServer.onPort(0);
                nameServer.start();
                BrokerSettings settings = BrokerSettings.defaults();
                settings.store().setStorePathRootDir(dir.toString());
                settings.store().setFlushDiskType(FlushDiskType.SYNC_FLUSH);
                settings.store().setGroupCommitGatherMicros(Long.parseLong(gather.trim()));
                settings.store().setGroupCommitInlineForceMicros(inline);
                settings.netty().setListenPort(0);
                settings.broker().setNamesrvAddr(nameServer.address());
                Broker broker = new Broker(settings);
                broker.start();
                broker.registerWithNameServers().join();
                try {
                    WharfConnectionFactory cf = new WharfConnectionFactory("wharf://" + nameServer.address());
                    workloads.send(cf, "forces.warmup", 1, producers, false);
                    StoreStats stats = broker.store().stats();
                    LongAdder forceNanos = new LongAdder();
                    LongAdder appendNanos = new LongAdder();
                    LongAdder appends = new LongAdder();
                    stats.setObserver(new StoreObserver() {
                        @Override
                        public void flushed(long nanos) {
                            forceNanos.add(nanos);
                        }

                        @Override
                        public void appended(long nanos) {
                            appendNanos.add(nanos);
                            appends.increment();
                        }
                    });
                    long faults0 = minorFaults();
                    long puts0 = stats.putMessageCount();
                    long forces0 = stats.flushCount();
                    long disk0 = DiskWrites.bytesWritten();
                    Workloads.Count c = workloads.send(cf, "forces." + r, seconds, producers, false);
                    long disk = DiskWrites.bytesWritten() - disk0;
                    long faults = minorFaults() - faults0;
                    long puts = stats.putMessageCount() - puts0;
                    long forces = stats.flushCount() - forces0;
                    double putsPerForce = forces == 0 ? 0 : (double) puts / forces;
                    double forceMicros = forces == 0 ? 0 : forceNanos.sum() / 1000.0 / forces;
                    double appendMicros = appends.sum() == 0 ? 0 : appendNanos.sum() / 1000.0 / appends.sum();
                    String faultsPerPut = faults0 < 0 || puts == 0 ? "page faults unknown"
                            : String.format(Locale.ROOT, "%.2f minor page faults per put", (double) faults / puts);
                    String diskPerPut = disk0 < 0 || puts == 0 ? "disk writes unknown"
                            : String.format(Locale.ROOT, "%.1f KB written to disk per put", disk / 1024.0 / puts);
                    System.out.printf(Locale.ROOT, "RESULT r%d gather=%s %.0f msgs/s, %d puts, %d forces, %.2f puts per"
                            + " force, %.0f µs per force, %.0f µs per append, %s, %s, load average %.1f%n", r,
                            gather.trim(), c.perSecond(), puts, forces, putsPerForce, forceMicros, appendMicros,
                            faultsPerPut, diskPerPut, SideBySide.loadAverage());
                } finally {
                    broker.shutdown();
                    nameServer.shutdown();
                }
            }
        }
        System.exit(0);
    }

    /** Minor page faults of this process so far (Linux), or -1 where they cannot be read. */
    private static long minorFaults() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // fields after the command name, which is in parentheses and may hold spaces; minflt is field 10
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[7]);
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }
}

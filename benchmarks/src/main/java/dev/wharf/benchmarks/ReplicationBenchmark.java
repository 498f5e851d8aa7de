package dev.wharf.benchmarks;

import dev.wharf.benchmarks.load.LatencyHistogram;
import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.broker.ha.BrokerRole;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.common.message.Message;
import dev.wharf.namesrv.NameServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Send throughput and latency of a replicated broker group next to a single broker, in the same run: a NameServer,
 * a master and (for the replicated runs) one slave in this JVM on loopback, producer threads sending 1 KiB messages
 * synchronously. Runs: single broker (no slave), ASYNC_MASTER + slave, SYNC_MASTER + slave, single broker again
 * (the first run also warms up; the better single run is the baseline). For the replicated runs it also samples
 * the replication lag: every 2 ms the master's commit-log end is noted, and the lag is the time until the slave's
 * end passes it.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dbenchmark.main=dev.wharf.benchmarks.ReplicationBenchmark}
 * (options via {@code -Dexec.args="--threads 4 --seconds 15"}). Options: {@code --dir} (default: a temporary
 * folder, deleted afterwards), {@code --seconds} per run (default 10, after a 3 s warm-up), {@code --threads}
 * (default 4), {@code --body} bytes (default 1024).
 */
public final class ReplicationBenchmark {

    private static final String TOPIC = "BenchHa";
    private static final long WARM_UP_MILLIS = 3_000;

    private Path baseDir;
    private boolean deleteBase;
    private int seconds = 10;
    private int threads = 4;
    private int bodySize = 1024;
    private int runNumber;

    private record Result(String name, double rate, long p50Micros, long p99Micros, long failures,
                          LatencyHistogram lagMicros) {
    }

    public static void main(String[] args) throws Exception {
        ReplicationBenchmark bench = new ReplicationBenchmark();
        bench.parse(args);
        bench.run();
        System.exit(0);
    }

    private void parse(String[] args) throws IOException {
        BenchArgs a = BenchArgs.parse(args, List.of("--dir", "--seconds", "--threads", "--body"));
        seconds = a.integer("--seconds", seconds);
        threads = a.integer("--threads", threads);
        bodySize = a.integer("--body", bodySize);
        baseDir = a.dir("wharf-ha-bench");
        deleteBase = a.temporaryDir();
    }


    private void run() throws Exception {
        System.out.printf(Locale.ROOT, "Wharf replication benchmark in %s: %d-byte bodies, %d thread(s), %d s per run,"
                + " %d CPU(s)%n", baseDir, bodySize, threads, seconds, Runtime.getRuntime().availableProcessors());
        try {
            Result single = measure("single broker", BrokerRole.ASYNC_MASTER, false);
            Result async = measure("ASYNC_MASTER + slave", BrokerRole.ASYNC_MASTER, true);
            Result sync = measure("SYNC_MASTER + slave", BrokerRole.SYNC_MASTER, true);
            Result again = measure("single broker (again)", BrokerRole.ASYNC_MASTER, false);
            Result base = again.rate > single.rate ? again : single;
            System.out.println();
            System.out.printf(Locale.ROOT, "%-24s %10s %9s %9s %6s %12s %12s%n", "run", "msg/s", "p50 ms", "p99 ms",
                    "fail", "lag p50 ms", "lag p99 ms");
            for (Result r : List.of(single, async, sync, again)) {
                System.out.printf(Locale.ROOT, "%-24s %10.0f %9.2f %9.2f %6d %12s %12s%n", r.name, r.rate,
                        r.p50Micros / 1000.0, r.p99Micros / 1000.0, r.failures, lag(r, 50), lag(r, 99));
            }
            System.out.println();
            System.out.printf(Locale.ROOT, "ASYNC_MASTER / single: TPS %.2fx (target >= 0.9), p99 %.2fx%n",
                    async.rate / base.rate, (double) async.p99Micros / base.p99Micros);
            System.out.printf(Locale.ROOT, "SYNC_MASTER  / single: TPS %.2fx (target >= 0.6), p99 %.2fx%n",
                    sync.rate / base.rate, (double) sync.p99Micros / base.p99Micros);
        } finally {
            if (deleteBase) {
                Bench.deleteTree(baseDir);
            }
        }
    }

    private static String lag(Result r, double p) {
        return r.lagMicros == null || r.lagMicros.count() == 0 ? "-"
                : String.format(Locale.ROOT, "%.2f", r.lagMicros.percentile(p) / 1000.0);
    }

    private BrokerSettings settings(Path store, BrokerRole role, long brokerId, String namesrv) {
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(store.toString());
        s.store().setMappedFileSizeCommitLog(256 * 1024 * 1024);
        s.netty().setListenPort(0);
        s.broker().setBrokerName("bench-ha");
        s.broker().setBrokerId(brokerId);
        s.broker().setDefaultTopicQueueNums(8);
        if (namesrv != null) {
            s.broker().setNamesrvAddr(namesrv);
        }
        s.ha().setBrokerRole(role);
        s.ha().setHaListenPort(0);
        return s;
    }

    private Result measure(String name, BrokerRole role, boolean withSlave) throws Exception {
        Path dir = baseDir.resolve("run" + (++runNumber));
        NameServer nameServer = NameServer.onPort(0);
        nameServer.start();
        Broker master = new Broker(settings(dir.resolve("master"), role, 0, nameServer.address()));
        Broker slave = null;
        Producer producer = null;
        try {
            master.start();
            master.registerWithNameServers().join();
            if (withSlave) {
                BrokerSettings s = settings(dir.resolve("slave"), BrokerRole.SLAVE, 1, null);
                s.ha().setHaMasterAddress(master.haAddress());
                slave = new Broker(s);
                slave.start();
                long deadline = System.currentTimeMillis() + 10_000;
                while (master.ha().inSyncReplicaCount() < 1 && System.currentTimeMillis() < deadline) {
                    LockSupport.parkNanos(10_000_000); // start-up: wait for the slave's first ack
                }
            }
            ClientConfig config = new ClientConfig();
            config.setNamesrvAddr(nameServer.address());
            config.setInstanceName("ha-bench-" + runNumber);
            AdminClient admin = new AdminClient(config);
            admin.start();
            admin.createTopic(TOPIC, 8);
            admin.shutdown();
            producer = new Producer("bench-ha", config);
            producer.start();
            return drive(name, producer, master, slave);
        } finally {
            if (producer != null) {
                producer.shutdown();
            }
            if (slave != null) {
                slave.shutdown();
            }
            master.shutdown();
            nameServer.shutdown();
        }
    }

    private Result drive(String name, Producer producer, Broker master, Broker slave) throws InterruptedException {
        byte[] body = new byte[bodySize];
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong messages = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        List<LatencyHistogram> histograms = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            LatencyHistogram histogram = new LatencyHistogram();
            histograms.add(histogram);
            Thread worker = new Thread(() -> {
                while (!stop.get()) {
                    long start = System.nanoTime();
                    try {
                        SendStatus status = producer.send(new Message(TOPIC, body)).sendStatus();
                        if (counting.get()) {
                            if (status == SendStatus.SEND_OK) {
                                messages.incrementAndGet();
                                histogram.record((System.nanoTime() - start) / 1_000);
                            } else {
                                failures.incrementAndGet();
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    } catch (Exception e) {
                        if (counting.get()) {
                            failures.incrementAndGet();
                        }
                    }
                }
            }, "bench-sender-" + t);
            worker.start();
            workers.add(worker);
        }
        Thread.sleep(WARM_UP_MILLIS);
        LatencyHistogram lag = slave == null ? null : new LatencyHistogram();
        counting.set(true);
        long started = System.nanoTime();
        long end = started + seconds * 1_000_000_000L;
        ArrayDeque<long[]> pending = new ArrayDeque<>();
        while (System.nanoTime() < end) {
            if (lag != null) {
                long now = System.nanoTime();
                pending.add(new long[] {now, master.store().getMaxPhyOffset()});
                long slaveEnd = slave.store().getMaxPhyOffset();
                while (!pending.isEmpty() && pending.peek()[1] <= slaveEnd) {
                    lag.record((now - pending.poll()[0]) / 1_000);
                }
            }
            LockSupport.parkNanos(2_000_000);
        }
        counting.set(false);
        double elapsed = (System.nanoTime() - started) / 1e9;
        stop.set(true);
        for (Thread worker : workers) {
            worker.join(10_000);
        }
        LatencyHistogram all = new LatencyHistogram();
        for (LatencyHistogram h : histograms) {
            all.add(h);
        }
        double rate = messages.get() / elapsed;
        System.out.printf(Locale.ROOT, "  %-24s %8.0f msg/s, send p50 %.2f ms p99 %.2f ms, %d failed%n", name, rate,
                all.percentile(50) / 1000.0, all.percentile(99) / 1000.0, failures.get());
        return new Result(name, rate, all.percentile(50), all.percentile(99), failures.get(), lag);
    }
}

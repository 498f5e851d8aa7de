package dev.wharf.benchmarks;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.producer.LocalTransaction;
import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.TransactionListener;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.embedded.EmbeddedServer;
import dev.wharf.store.FlushDiskType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Transactional send throughput next to plain send throughput, end to end over loopback: a NameServer and a broker
 * in this JVM, producers with several sending threads. Three runs with the same threads and body size:
 * plain sync sends; single-message transactions ({@code sendMessageInTransaction}: half send, local transaction,
 * END_TRANSACTION commit); {@link LocalTransaction}s of several messages committed with one END_TRANSACTION; and
 * plain sends again (the first run also warms up). Prints messages per second of each and the ratios.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dbenchmark.main=dev.wharf.benchmarks.TransactionBenchmark}
 * (options via {@code -Dexec.args="--threads 8 --seconds 10"}). Options: {@code --dir} (default: a temporary
 * folder, deleted afterwards), {@code --seconds} per run (default 8, after a 2 s warm-up), {@code --threads}
 * sending threads (default 4), {@code --body} body bytes (default 1024), {@code --batch} messages per multi-message
 * transaction (default 10), {@code --sync-flush} to store with SYNC_FLUSH.
 */
public final class TransactionBenchmark {

    private static final String TOPIC = "BenchTx";
    private static final long WARM_UP_MILLIS = 2_000;

    private Path baseDir;
    private boolean deleteBase;
    private int seconds = 8;
    private int threads = 4;
    private int bodySize = 1024;
    private int batch = 10;
    private boolean syncFlush;

    public static void main(String[] args) throws Exception {
        TransactionBenchmark bench = new TransactionBenchmark();
        bench.parse(args);
        bench.run();
        System.exit(0); // client and broker threads are daemons or stopped; exit regardless of stragglers
    }

    private void parse(String[] args) throws IOException {
        BenchArgs a = BenchArgs.parse(args, List.of("--dir", "--seconds", "--threads", "--body", "--batch"),
                "--sync-flush");
        seconds = a.integer("--seconds", seconds);
        threads = a.integer("--threads", threads);
        bodySize = a.integer("--body", bodySize);
        batch = a.integer("--batch", batch);
        syncFlush = syncFlush || a.flag("--sync-flush");
        baseDir = a.dir("wharf-tx-bench");
        deleteBase = a.temporaryDir();
    }

    private void run() throws Exception {
        System.out.printf(Locale.ROOT, "Wharf transaction benchmark in %s: %d-byte bodies, %d thread(s), %d s per run,"
                + " %s, %d CPU(s)%n", baseDir, bodySize, threads, seconds, syncFlush ? "SYNC_FLUSH" : "ASYNC_FLUSH",
                Runtime.getRuntime().availableProcessors());
        EmbeddedServer server = EmbeddedServer.start(brokerSettings(""), 0);
        Broker broker = server.broker();
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(server.namesrvAddr());
        config.setInstanceName("tx-bench");
        Producer plain = new Producer("bench-plain", config);
        TransactionProducer tx = new TransactionProducer("bench-tx", config);
        tx.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }
        });
        try {
            plain.start();
            tx.start();
            double plainRate = measure("plain sync send", body -> {
                plain.send(new Message(TOPIC, body));
                return 1;
            });
            double singleRate = measure("transaction of 1 (half + commit)", body -> {
                tx.sendMessageInTransaction(new Message(TOPIC, body), null);
                return 1;
            });
            double batchRate = measure("transaction of " + batch + " (halves + commit)", body -> {
                LocalTransaction t = tx.beginTransaction();
                for (int i = 0; i < batch; i++) {
                    t.send(new Message(TOPIC, body));
                }
                t.commit();
                return batch;
            });
            // again at the end: the first run also warms the JIT and the page cache, so it may read low
            plainRate = Math.max(plainRate, measure("plain sync send (again)", body -> {
                plain.send(new Message(TOPIC, body));
                return 1;
            }));
            System.out.println();
            System.out.println("Ratios (messages per second, plain = the better of its two runs)");
            System.out.printf(Locale.ROOT, "  transaction of 1  / plain : %.2f%n", singleRate / plainRate);
            System.out.printf(Locale.ROOT, "  transaction of %-2d / plain : %.2f%n", batch, batchRate / plainRate);
            System.out.printf(Locale.ROOT, "  open transactions left on the broker: %d%n",
                    broker.transactions().openTransactionCount());
        } finally {
            tx.shutdown();
            plain.shutdown();
            server.close();
            if (deleteBase) {
                Bench.deleteTree(baseDir);
            }
        }
    }

    private BrokerSettings brokerSettings(String namesrvAddr) {
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(baseDir.resolve("broker").toString());
        s.store().setMappedFileSizeCommitLog(256 * 1024 * 1024);
        s.store().setFlushDiskType(syncFlush ? FlushDiskType.SYNC_FLUSH : FlushDiskType.ASYNC_FLUSH);
        s.netty().setListenPort(0);
        s.broker().setNamesrvAddr(namesrvAddr);
        s.broker().setBrokerName("bench-broker");
        s.broker().setDefaultTopicQueueNums(8);
        return s;
    }

    /** Runs the sender on every thread for the warm-up, then for the measured time; returns messages per second. */
    private double measure(String what, TimedSenders.Sender sender) throws InterruptedException {
        TimedSenders.Result r = TimedSenders.run("bench-sender", threads, bodySize, WARM_UP_MILLIS, seconds * 1000L,
                sender);
        System.out.printf(Locale.ROOT, "  %-40s %10.0f msgs/s%s%n", what, r.perSecond(),
                r.failures() == 0 ? "" : "  (" + r.failures() + " failed sends)");
        return r.perSecond();
    }
}

package dev.wharf.benchmarks;

import dev.wharf.store.DefaultMessageStore;
import dev.wharf.store.FlushDiskType;
import dev.wharf.store.GetMessageResult;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.MessageStoreConfig;
import dev.wharf.store.file.SelectMappedBufferResult;
import dev.wharf.store.recovery.AbortFile;
import dev.wharf.store.recovery.CheckpointLayout;
import dev.wharf.store.recovery.StoreCheckpoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What verifying records on read ({@code checkCRCOnRead}) costs, and how long recovery takes to validate a
 * whole commit log. Fills one store, then reads every queue through the consume queue (32 per call) with the
 * check off and on, alternating rounds so both see the same page cache, and prints the median of each and
 * their ratio, twice: reading views only (the check is then the only thing that touches the bytes, the worst
 * case), and reading views and copying their bytes once into a send buffer, which is what a pull does when it
 * writes them to the socket. Then restarts the store as after a crash with a checkpoint that knows nothing
 * (every record is validated, CRC included, and dispatched again) and prints the time.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dbenchmark.main=dev.wharf.benchmarks.ReadCheckBenchmark}
 * (options via {@code -Dexec.args="--messages 1000000 --body 1024 --rounds 5 --dir /data/bench"}).
 */
public final class ReadCheckBenchmark {

    private Path baseDir;
    private boolean deleteBase;
    private int messages = 500_000;
    private int bodySize = 1024;
    private int rounds = 5;

    public static void main(String[] args) throws Exception {
        ReadCheckBenchmark bench = new ReadCheckBenchmark();
        bench.parse(args);
        bench.run();
    }

    private void parse(String[] args) throws IOException {
        BenchArgs a = BenchArgs.parse(args, List.of("--dir", "--messages", "--body", "--rounds"));
        messages = a.integer("--messages", messages);
        bodySize = a.integer("--body", bodySize);
        rounds = a.integer("--rounds", rounds);
        baseDir = a.dir("wharf-readcheck");
        deleteBase = a.temporaryDir();
    }


    private MessageStoreConfig config(boolean check) {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(baseDir.resolve("store").toString());
        config.setFlushDiskType(FlushDiskType.ASYNC_FLUSH);
        config.setCheckCRCOnRead(check);
        return config;
    }

    private void run() throws Exception {
        System.out.printf(Locale.ROOT, "Read-check benchmark in %s: %d messages of %d bytes, %d round(s), %d CPU(s)%n",
                baseDir, messages, bodySize, rounds, Runtime.getRuntime().availableProcessors());
        try {
            fill();
            compare(false);
            compare(true);
            uncleanRestart();
        } finally {
            if (deleteBase) {
                Bench.deleteTree(baseDir);
            }
        }
    }

    private void fill() throws IOException {
        DefaultMessageStore store = new DefaultMessageStore(config(false));
        store.start();
        byte[] body = new byte[bodySize];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        long start = System.nanoTime();
        for (int i = 0; i < messages; i++) {
            MessageToStore msg = new MessageToStore();
            msg.setTopic("Bench");
            msg.setQueueId(i % 8);
            msg.setBody(body);
            msg.setBornTimestamp(System.currentTimeMillis());
            msg.setPropertiesString("");
            if (!store.putMessage(msg).isOk()) {
                throw new IllegalStateException("put failed");
            }
        }
        store.awaitDispatched(60_000);
        System.out.printf(Locale.ROOT, "  filled %,d messages (%.2f GB) in %.1f s%n", messages,
                store.getMaxPhyOffset() / 1e9, (System.nanoTime() - start) / 1e9);
        store.shutdown();
    }

    private void compare(boolean transfer) throws IOException {
        String what = transfer ? "views + one copy of the bytes (a pull)" : "views only (worst case)";
        double[] off = new double[rounds];
        double[] on = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            off[r] = readAll(false, transfer);
            on[r] = readAll(true, transfer);
            System.out.printf(Locale.ROOT, "  %s, round %d: check off %,.0f msgs/s, on %,.0f msgs/s%n", what, r + 1,
                    off[r], on[r]);
        }
        double medianOff = Bench.median(off);
        double medianOn = Bench.median(on);
        System.out.printf(Locale.ROOT, "  %s, median: off %,.0f msgs/s, on %,.0f msgs/s: on/off = %.3f%n", what,
                medianOff, medianOn, medianOn / medianOff);
    }

    private double readAll(boolean check, boolean transfer) throws IOException {
        ByteBuffer send = ByteBuffer.allocateDirect(512 * 1024);
        DefaultMessageStore store = new DefaultMessageStore(config(check));
        store.start();
        try {
            long count = 0;
            long start = System.nanoTime();
            for (int q = 0; q < 8; q++) {
                long offset = 0;
                long max = store.getMaxOffsetInQueue("Bench", q);
                while (offset < max) {
                    GetMessageResult r = store.getMessage("Bench", q, offset, 32, 256 * 1024, null);
                    count += r.messageCount();
                    if (transfer) {
                        send.clear();
                        for (SelectMappedBufferResult b : r.buffers()) {
                            send.put(b.byteBuffer().duplicate());
                        }
                    }
                    offset = r.nextBeginOffset();
                    r.release();
                }
            }
            double taken = (System.nanoTime() - start) / 1e9;
            if (count != messages) {
                throw new IllegalStateException("read " + count + " of " + messages + " messages");
            }
            return count / taken;
        } finally {
            store.shutdown();
        }
    }

    private void uncleanRestart() throws IOException {
        Path root = baseDir.resolve("store");
        new AbortFile(root).create();
        try (StoreCheckpoint cp = StoreCheckpoint.open(root)) {
            cp.setCleanShutdownOffset(CheckpointLayout.RUNNING);
            cp.setSafeOffset(0);
            cp.flush();
        }
        long start = System.nanoTime();
        DefaultMessageStore store = new DefaultMessageStore(config(true));
        store.start();
        double millis = (System.nanoTime() - start) / 1e6;
        System.out.printf(Locale.ROOT, "  unclean restart validating the whole log (%.2f GB, %,d records): %.0f ms%n",
                store.getMaxPhyOffset() / 1e9, messages, millis);
        store.shutdown();
    }
}

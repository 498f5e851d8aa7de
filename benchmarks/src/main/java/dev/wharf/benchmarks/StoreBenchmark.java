package dev.wharf.benchmarks;

import dev.wharf.store.DefaultMessageStore;
import dev.wharf.store.FlushDiskType;
import dev.wharf.store.GetMessageResult;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.MessageStoreConfig;
import dev.wharf.store.PutMessageResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures the store against the disk it runs on, in one run: raw sequential write bandwidth of the disk
 * (1 MiB FileChannel writes, buffered and forced), then store puts of 1 KiB messages with 1/4 writers in
 * ASYNC_FLUSH and 1/4/8 writers in SYNC_FLUSH, then batch reads through the consume queue, then the time a
 * clean restart of the filled store takes. Prints absolute figures and the ratios that matter.
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java} (options via
 * {@code -Dexec.args="--dir /data/bench --seconds 10"}). Options: {@code --dir} (default: a temporary folder,
 * deleted afterwards), {@code --seconds} per put run (default 8), {@code --max-gib} per async run (default 2),
 * {@code --raw-mib} for the disk test (default 1024), {@code --body} message body bytes (default 1024).
 */
public final class StoreBenchmark {

    private static final int MIB = 1024 * 1024;

    private Path baseDir;
    private boolean deleteBase;
    private int seconds = 8;
    private long maxAsyncBytes = 2L * 1024 * MIB;
    private int rawMib = 1024;
    private int bodySize = 1024;

    public static void main(String[] args) throws Exception {
        StoreBenchmark bench = new StoreBenchmark();
        bench.parse(args);
        bench.run();
    }

    private void parse(String[] args) throws IOException {
        BenchArgs a = BenchArgs.parse(args, List.of("--dir", "--seconds", "--max-gib", "--raw-mib", "--body"));
        seconds = a.integer("--seconds", seconds);
        maxAsyncBytes = (long) (a.decimal("--max-gib", maxAsyncBytes / (1024.0 * MIB)) * 1024 * MIB);
        rawMib = a.integer("--raw-mib", rawMib);
        bodySize = a.integer("--body", bodySize);
        baseDir = a.dir("wharf-bench");
        deleteBase = a.temporaryDir();
    }


    private void run() throws Exception {
        System.out.printf(Locale.ROOT, "Wharf store benchmark in %s: %d-byte bodies, %d s per put run, %d CPU(s)%n",
                baseDir, bodySize, seconds, Runtime.getRuntime().availableProcessors());
        try {
            double rawBuffered = rawWrite(false);
            double rawForced = rawWrite(true);
            line("raw disk, 1 MiB writes, buffered", rawBuffered, 0, "MB/s");
            line("raw disk, 1 MiB writes, force each", rawForced, 0, "MB/s");

            Result async1 = puts(FlushDiskType.ASYNC_FLUSH, 1, true);
            Result async4 = puts(FlushDiskType.ASYNC_FLUSH, 4, false);
            Result sync1 = puts(FlushDiskType.SYNC_FLUSH, 1, false);
            Result sync4 = puts(FlushDiskType.SYNC_FLUSH, 4, false);
            Result sync8 = puts(FlushDiskType.SYNC_FLUSH, 8, false);

            System.out.println();
            System.out.println("Ratios");
            System.out.printf(Locale.ROOT, "  async 1 writer  / raw buffered write : %.2f (target >= 0.60)%n",
                    async1.mbPerSecond / rawBuffered);
            System.out.printf(Locale.ROOT, "  async 4 writers / raw buffered write : %.2f%n", async4.mbPerSecond / rawBuffered);
            System.out.printf(Locale.ROOT, "  sync 8 writers  / sync 1 writer      : %.2f (target >= 5)%n",
                    sync8.msgsPerSecond / sync1.msgsPerSecond);
            System.out.printf(Locale.ROOT, "  sync 4 writers  / sync 1 writer      : %.2f%n", sync4.msgsPerSecond / sync1.msgsPerSecond);
            System.out.printf(Locale.ROOT, "  puts per force: sync1 %.1f, sync4 %.1f, sync8 %.1f%n",
                    sync1.putsPerForce, sync4.putsPerForce, sync8.putsPerForce);
            System.out.printf(Locale.ROOT, "  forces per second: sync1 %.0f, sync4 %.0f, sync8 %.0f (a force costs the disk's flush latency)%n",
                    sync1.msgsPerSecond / sync1.putsPerForce, sync4.msgsPerSecond / sync4.putsPerForce,
                    sync8.msgsPerSecond / sync8.putsPerForce);
        } finally {
            if (deleteBase) {
                Bench.deleteTree(baseDir);
            }
        }
    }

    private void line(String what, double value, double second, String unit) {
        String text = second > 0
                ? String.format(Locale.ROOT, "  %-44s %12.0f msgs/s %9.1f MB/s", what, value, second)
                : String.format(Locale.ROOT, "  %-44s %31.1f %s", what, value, unit);
        System.out.println(text);
    }

    /** Sequential 1 MiB writes into a new file; with {@code force}, each block is forced before the next. */
    private double rawWrite(boolean force) throws IOException {
        Path file = baseDir.resolve(force ? "raw-forced" : "raw-buffered");
        ByteBuffer block = ByteBuffer.allocateDirect(MIB);
        for (int i = 0; i < MIB; i++) {
            block.put(i, (byte) i);
        }
        int blocks = force ? Math.max(16, rawMib / 4) : rawMib;
        long start = System.nanoTime();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < blocks; i++) {
                block.clear();
                while (block.hasRemaining()) {
                    ch.write(block);
                }
                if (force) {
                    ch.force(false);
                }
            }
        }
        double secondsTaken = (System.nanoTime() - start) / 1e9;
        Files.delete(file);
        return blocks * (double) MIB / 1e6 / secondsTaken;
    }

    private record Result(double msgsPerSecond, double mbPerSecond, double putsPerForce) {
    }

    private Result puts(FlushDiskType flush, int writers, boolean alsoReadAndRestart) throws Exception {
        Path root = baseDir.resolve(flush + "-" + writers);
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(root.toString());
        config.setFlushDiskType(flush);
        config.setMessageIndexEnable(true);
        DefaultMessageStore store = new DefaultMessageStore(config);
        store.start();
        byte[] body = new byte[bodySize];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        AtomicLong puts = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        long bytesLimit = flush == FlushDiskType.ASYNC_FLUSH ? maxAsyncBytes : Long.MAX_VALUE;
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        CountDownLatch done = new CountDownLatch(writers);
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread t = new Thread(() -> {
                long n = 0;
                long b = 0;
                try {
                    while (!stop.get()) {
                        MessageToStore msg = new MessageToStore();
                        msg.setTopic("Bench");
                        msg.setQueueId(writer % 8);
                        msg.setBody(body);
                        msg.setBornTimestamp(System.currentTimeMillis());
                        msg.setPropertiesString("");
                        PutMessageResult r = store.putMessage(msg);
                        if (!r.isOk()) {
                            throw new IllegalStateException("put failed: " + r);
                        }
                        n++;
                        b += r.appendResult().wroteBytes();
                        if ((n & 63) == 0 && (System.nanoTime() > deadline || bytes.get() + b * writers > bytesLimit)) {
                            break;
                        }
                    }
                } finally {
                    puts.addAndGet(n);
                    bytes.addAndGet(b);
                    stop.set(true);
                    done.countDown();
                }
            }, "bench-writer-" + w);
            threads.add(t);
            t.start();
        }
        done.await();
        double taken = (System.nanoTime() - start) / 1e9;
        long forces = store.stats().flushCount();
        Result result = new Result(puts.get() / taken, bytes.get() / 1e6 / taken,
                forces == 0 ? 0 : puts.get() / (double) forces);
        line(flush + ", " + writers + " writer(s), put", result.msgsPerSecond, result.mbPerSecond, null);

        if (alsoReadAndRestart) {
            while (store.dispatchBehindBytes() > 0) {
                Thread.onSpinWait();
            }
            readAll(store, writers);
            store.shutdown();
            long reopenStart = System.nanoTime();
            DefaultMessageStore reopened = new DefaultMessageStore(config);
            reopened.start();
            double reopenMillis = (System.nanoTime() - reopenStart) / 1e6;
            String text = String.format(Locale.ROOT, "  %-44s %28.0f ms (store of %.2f GB)",
                    "clean restart", reopenMillis, reopened.getMaxPhyOffset() / 1e9);
            System.out.println(text);
            reopened.shutdown();
        } else {
            store.shutdown();
        }
        Bench.deleteTree(root);
        return result;
    }

    private void readAll(DefaultMessageStore store, int queues) {
        long messages = 0;
        long bytes = 0;
        long start = System.nanoTime();
        for (int q = 0; q < queues; q++) {
            long offset = 0;
            long max = store.getMaxOffsetInQueue("Bench", q);
            while (offset < max) {
                GetMessageResult r = store.getMessage("Bench", q, offset, 32, 256 * 1024, null);
                messages += r.messageCount();
                bytes += r.bufferTotalSize();
                offset = r.nextBeginOffset();
                r.release();
            }
        }
        double taken = (System.nanoTime() - start) / 1e9;
        line("batch read (32 per call) from consume queue", messages / taken, bytes / 1e6 / taken, null);
    }
}

package dev.wharf.benchmarks;

import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.store.DefaultMessageStore;
import dev.wharf.store.GetMessageResult;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.MessageStoreConfig;
import dev.wharf.store.PutMessageResult;
import dev.wharf.store.queue.QueueManifest;
import dev.wharf.store.recovery.StoreCheckpoint;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * One phase of a store with many queues, in a process of its own (so that its open-file limit can be lowered with
 * {@code ulimit -n} and it can be killed): {@code write} puts one message into each of {@code topics x queues}
 * queues; {@code write-crash} then waits until the queue manifest and the checkpoint cover everything written and
 * says {@code READY} to be killed; {@code verify} only reads. Every mode reads every message back. Prints
 * {@code key=value} lines (start time, queues mapped, messages readable, heap and RSS, descriptors and maps) and
 * a {@code missing=} line per unreadable message; exits with 0 only when every message was there.
 *
 * <p>Arguments: store root, topics, queues per topic, mode, units per consume-queue file. Used by
 * {@link ManyQueuesBenchmark} and by the many-queues process test.
 */
public final class ManyQueuesChild {

    private static final long CRASH_WAIT_SECONDS = 120;

    private ManyQueuesChild() {
    }

    static MessageStoreConfig config(Path root, int cqUnits) {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(root.toString());
        config.setMappedFileSizeCommitLog(64 * 1024 * 1024);
        config.setMappedFileSizeConsumeQueue(cqUnits * 20);
        config.setMaxHashSlotNum(100_000);
        config.setMaxIndexNum(400_000);
        config.setQueueManifestInterval(1_000);
        // the crash comes once a complete flush put the checkpoint at the end: an idle broker's state
        config.setFlushConsumeQueueThoroughInterval(1_000);
        config.setStoreHost("10.1.2.3:10911");
        return config;
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        int topics = Integer.parseInt(args[1]);
        int queues = Integer.parseInt(args[2]);
        String mode = args[3];
        int cqUnits = Integer.parseInt(args[4]);
        // logging and the store's classes are loaded before the clock starts: the figure is the store's own
        LoggerFactory.getLogger(ManyQueuesChild.class).info("Child {} starting", mode);
        DefaultMessageStore store = new DefaultMessageStore(config(root, cqUnits));
        long started = System.nanoTime();
        store.start();
        print("startMillis", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        print("mappedAfterStart", store.mappedQueueCount());
        printMemory("Start");
        if (mode.startsWith("write")) {
            write(store, topics, queues);
        }
        int readable = readAll(store, topics, queues);
        print("readable", readable);
        printMemory("Read");
        print("fds", count(Path.of("/proc/self/fd")));
        print("maps", lines(Path.of("/proc/self/maps")));
        print("mapped", store.mappedQueueCount());
        if (mode.endsWith("crash")) {
            awaitDurable(root, store.getMaxPhyOffset());
            System.out.println("READY");
            System.out.flush();
            LockSupport.park(); // killed here
        }
        store.shutdown();
        System.exit(readable == topics * queues ? 0 : 3);
    }

    /** Waits until the running store's manifest and checkpoint both reach {@code end} (each within its interval). */
    private static void awaitDurable(Path root, long end) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CRASH_WAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            QueueManifest m = QueueManifest.read(root.resolve(QueueManifest.FILE_NAME));
            long safe;
            try (StoreCheckpoint checkpoint = StoreCheckpoint.open(root)) {
                safe = checkpoint.getSafeOffset();
            }
            if (m != null && m.dispatchedOffset() == end && safe == end) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private static void write(DefaultMessageStore store, int topics, int queues) {
        for (int t = 0; t < topics; t++) {
            for (int q = 0; q < queues; q++) {
                MessageToStore msg = new MessageToStore();
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
                            continue;
                        }
                    }
                    System.out.println("missing=Topic" + t + "-" + q + " " + r.status());
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

package dev.wharf.store;

import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.store.queue.QueueManifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A store in its own process for {@link ManyQueuesProcessTest}: {@code write} puts one message into each of
 * {@code topics x queues} queues and then either stops cleanly or, with {@code crash}, waits to be killed;
 * {@code verify} starts the store, reads every message back and stops cleanly. Prints {@code key=value} lines
 * (start time, descriptors and maps in use) and exits with 0 only when every message was there.
 */
public final class ManyQueuesChild {

    private ManyQueuesChild() {
    }

    static MessageStoreConfig config(Path root) {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(root.toString());
        config.setMappedFileSizeCommitLog(64 * 1024 * 1024);
        config.setMappedFileSizeConsumeQueue(1_000 * 20);
        config.setMaxHashSlotNum(100_000);
        config.setMaxIndexNum(400_000);
        config.setQueueManifestInterval(500);
        config.setStoreHost("10.1.2.3:10911");
        return config;
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        int topics = Integer.parseInt(args[1]);
        int queues = Integer.parseInt(args[2]);
        String mode = args[3];
        long started = System.nanoTime();
        DefaultMessageStore store = new DefaultMessageStore(config(root));
        store.start();
        System.out.println("startMillis=" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        System.out.println("mappedAfterStart=" + store.mappedQueueCount());
        if (mode.startsWith("write")) {
            write(store, topics, queues);
        }
        int found = verify(store, topics, queues);
        System.out.println("readable=" + found);
        System.out.println("fds=" + count(Path.of("/proc/self/fd")));
        System.out.println("maps=" + lines(Path.of("/proc/self/maps")));
        System.out.println("mapped=" + store.mappedQueueCount());
        if (mode.equals("write-crash")) {
            long end = store.getMaxPhyOffset();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                QueueManifest m = QueueManifest.read(root.resolve(QueueManifest.FILE_NAME));
                if (m != null && m.dispatchedOffset() == end) {
                    break;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
            System.out.println("READY");
            System.out.flush();
            LockSupport.park(); // killed here
        }
        store.shutdown();
        System.exit(found == topics * queues ? 0 : 3);
    }

    private static void write(DefaultMessageStore store, int topics, int queues) {
        for (int t = 0; t < topics; t++) {
            for (int q = 0; q < queues; q++) {
                MessageExtBrokerInner msg = new MessageExtBrokerInner();
                msg.setTopic("T" + t);
                msg.setQueueId(q);
                msg.setBody((t + "/" + q).getBytes(StandardCharsets.UTF_8));
                msg.setBornTimestamp(System.currentTimeMillis());
                msg.setBornHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 5555));
                PutMessageResult r = store.putMessage(msg);
                if (!r.isOk()) {
                    throw new IllegalStateException("put to T" + t + "-" + q + " failed: " + r.status());
                }
            }
        }
        if (!store.awaitDispatched(TimeUnit.MINUTES.toMillis(5))) {
            throw new IllegalStateException("dispatch did not finish");
        }
    }

    private static int verify(DefaultMessageStore store, int topics, int queues) {
        int found = 0;
        for (int t = 0; t < topics; t++) {
            for (int q = 0; q < queues; q++) {
                GetMessageResult r = store.getMessage("T" + t, q, 0, 4, 1 << 20, null);
                try {
                    if (r.buffers().size() == 1) {
                        MessageExt m = MessageDecoder.decode(r.buffers().get(0).byteBuffer().duplicate(), true, false);
                        if (new String(m.getBody(), StandardCharsets.UTF_8).equals(t + "/" + q)) {
                            found++;
                            continue;
                        }
                    }
                    System.out.println("missing=T" + t + "-" + q + " " + r.status());
                } finally {
                    r.release();
                }
            }
        }
        return found;
    }

    private static long count(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.count();
        }
    }

    private static long lines(Path file) throws IOException {
        try (var s = Files.lines(file)) {
            return s.count();
        }
    }
}

package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.readAll;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreFlushAndCleanupTest {

    @TempDir
    Path dir;

    private DefaultMessageStore store;

    @AfterEach
    void tearDown() {
        if (store != null) {
            store.shutdown();
        }
    }

    @Test
    void syncFlushGroupCommitSharesForcesAmongEightWriters() throws Exception {
        MessageStoreConfig config = smallConfig(dir);
        config.setFlushDiskType(FlushDiskType.SYNC_FLUSH);
        config.setMappedFileSizeCommitLog(1024 * 1024);
        store = new DefaultMessageStore(config);
        store.start();
        int writers = 8;
        int perWriter = 100;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perWriter; i++) {
                        PutMessageResult r = store.putMessage(message("Sync", writer, "w" + writer + "-" + i));
                        assertThat(r.status()).isEqualTo(PutMessageStatus.PUT_OK);
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        long puts = store.stats().putMessageCount();
        long forces = store.stats().flushCount();
        assertThat(puts).isEqualTo(writers * perWriter);
        assertThat(forces).as("%d forces for %d synchronous puts", forces, puts).isPositive().isLessThanOrEqualTo(puts / 2);
        assertThat(store.stats().flushTimeoutCount()).isZero();
    }

    @Test
    void aRecordForcedLaterIsAnsweredWithoutItsForceAndForcedSoonAfterWithoutAnotherPut() throws Exception {
        MessageStoreConfig config = smallConfig(dir);
        config.setFlushDiskType(FlushDiskType.SYNC_FLUSH);
        store = new DefaultMessageStore(config);
        store.start();
        long forcesBefore = store.stats().flushCount();
        MessageToStore ack = message("Acks", 0, "ack");
        ack.setForcedLater(true);
        assertThat(store.asyncPutMessage(ack).get().status()).isEqualTo(PutMessageStatus.PUT_OK);
        // nothing else is put: the force the put requested is what brings the record to the disk
        await().atMost(Duration.ofSeconds(10)).until(() -> store.stats().flushCount() > forcesBefore);
        MessageToStore sync = message("Acks", 0, "sync put");
        sync.setForcedLater(true);
        assertThat(store.putMessage(sync).status()).isEqualTo(PutMessageStatus.PUT_OK);
        await().atMost(Duration.ofSeconds(10)).until(() -> readAll(store, "Acks", 0, 0).size() == 2);
        assertThat(readAll(store, "Acks", 0, 0)).containsExactly("ack", "sync put");
    }

    @Test
    void putThatDoesNotWaitForTheDiskReturnsAtOnceInSyncMode() throws IOException {
        MessageStoreConfig config = smallConfig(dir);
        config.setFlushDiskType(FlushDiskType.SYNC_FLUSH);
        store = new DefaultMessageStore(config);
        store.start();
        MessageToStore m = message("NoWait", 0, "x");
        m.setWaitStoreMsgOK(false);
        assertThat(store.putMessage(m).status()).isEqualTo(PutMessageStatus.PUT_OK);
    }

    @Test
    void cleanUpDeletesOldFilesAndReadsBelowAnswerOffsetTooSmall() throws IOException {
        MessageStoreConfig config = smallConfig(dir);
        config.setFileReservedTime(0); // every file but the one being written has expired
        store = new DefaultMessageStore(config);
        store.start();
        for (int i = 0; i < 700; i++) {
            MessageToStore m = message("Old", 0, "old-" + i + "-" + "o".repeat(300));
            m.putProperty(MessageProperties.KEYS, "old-" + i);
            assertThat(store.putMessage(m).isOk()).isTrue();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);
        long commitLogFiles = countFiles(dir.resolve("commitlog"));
        long queueFiles = countFiles(dir.resolve("consumequeue/Old/0"));
        assertThat(commitLogFiles).isGreaterThan(3);
        assertThat(queueFiles).isGreaterThan(3);

        store.cleanExpiredFilesNow();

        assertThat(countFiles(dir.resolve("commitlog"))).isEqualTo(1);
        assertThat(countFiles(dir.resolve("consumequeue/Old/0"))).isLessThan(queueFiles);
        long minPhy = store.getMinPhyOffset();
        assertThat(minPhy).isPositive();
        long min = store.getMinOffsetInQueue("Old", 0);
        assertThat(min).isPositive();
        assertThat(store.getCommitLogOffsetInQueue("Old", 0, min)).isGreaterThanOrEqualTo(minPhy);

        GetMessageResult tooSmall = store.getMessage("Old", 0, 0, 32, 1 << 20, null);
        assertThat(tooSmall.status()).isEqualTo(GetMessageStatus.OFFSET_TOO_SMALL);
        assertThat(tooSmall.nextBeginOffset()).isEqualTo(min);
        List<String> rest = readAll(store, "Old", 0, min);
        assertThat(rest).hasSize((int) (700 - min));
        assertThat(rest.get(rest.size() - 1)).startsWith("old-699-");
        assertThat(store.readMessageAt(0)).as("deleted range").isNull();
        assertThat(store.selectOneMessageByOffset(0)).isNull();
        QueryMessageResult gone = store.queryMessage("Old", "old-0", 10, 0, Long.MAX_VALUE);
        assertThat(gone.buffers()).isEmpty();
        assertThat(store.getOffsetInQueueByTime("Old", 0, 0)).isEqualTo(min);

        // the store keeps working
        assertThat(store.putMessage(message("Old", 0, "new")).appendResult().logicsOffset()).isEqualTo(700);
    }

    private static long countFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).count();
        }
    }
}

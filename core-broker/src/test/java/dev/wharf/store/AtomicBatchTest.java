package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.copyTree;
import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.readAll;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.store.file.MappedFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Atomic batches: the continue bit on every record but the last, all-or-nothing recovery, and the visibility
 * boundary that keeps a batch unreadable until its last record is dispatched.
 */
class AtomicBatchTest {

    private static final int FILE_SIZE = 64 * 1024;

    @TempDir
    Path dir;

    private final List<DefaultMessageStore> stores = new ArrayList<>();

    @AfterEach
    void tearDown() {
        stores.forEach(DefaultMessageStore::shutdown);
    }

    private DefaultMessageStore create(Path root) {
        MessageStoreConfig config = smallConfig(root);
        config.setFlushDiskType(FlushDiskType.SYNC_FLUSH);
        // no periodic consume-queue flush, so the checkpoint's safe offset never passes the batch: damage below it
        // is bit rot that recovery skips and reports, damage above it is the torn write these tests make
        config.setFlushIntervalConsumeQueue(3_600_000);
        DefaultMessageStore store = new DefaultMessageStore(config);
        stores.add(store);
        return store;
    }

    private DefaultMessageStore open(Path root) throws IOException {
        DefaultMessageStore store = create(root);
        store.start();
        return store;
    }

    /** A batch spread over queues 0..2 of "Tx", bodies "prefix-i". */
    private static List<MessageToStore> batch(String prefix, int size) {
        List<MessageToStore> batch = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            batch.add(message("Tx", i % 3, prefix + "-" + i));
        }
        return batch;
    }

    private static void putSingles(MessageStore store, String prefix, int count) {
        for (int i = 0; i < count; i++) {
            assertThat(store.putMessage(message("Tx", i % 3, prefix + "-" + i)).isOk()).isTrue();
        }
    }

    private static List<String> bodiesOfAllQueues(MessageStore store) {
        List<String> all = new ArrayList<>();
        for (int q = 0; q < 3; q++) {
            all.addAll(readAll(store, "Tx", q, 0));
        }
        return all;
    }

    @Test
    void everyRecordButTheLastCarriesTheContinueBitAndProducersCannotSetIt() throws IOException {
        DefaultMessageStore store = open(dir);
        List<MessageToStore> batch = batch("b", 4);
        PutMessageResult result = store.putMessages(batch);
        assertThat(result.isOk()).isTrue();
        List<Boolean> continues = new ArrayList<>();
        for (MessageToStore msg : batch) {
            MessageExt stored = store.readMessageAt(msg.getCommitLogOffset());
            continues.add(MessageSysFlag.batchContinues(stored.getSysFlag()));
        }
        assertThat(continues).containsExactly(true, true, true, false);

        MessageToStore forged = message("Tx", 0, "forged");
        forged.setSysFlag(MessageSysFlag.INNER_BATCH_CONTINUES | MessageSysFlag.TRANSACTION_COMMIT_TYPE);
        assertThat(store.putMessage(forged).isOk()).isTrue();
        MessageExt stored = store.readMessageAt(forged.getCommitLogOffset());
        assertThat(MessageSysFlag.batchContinues(stored.getSysFlag())).as("a lone record never continues").isFalse();
        assertThat(MessageSysFlag.transactionType(stored.getSysFlag())).isEqualTo(MessageSysFlag.TRANSACTION_COMMIT_TYPE);

        List<MessageToStore> one = List.of(message("Tx", 1, "alone"));
        assertThat(store.putMessages(one).isOk()).isTrue();
        assertThat(store.readMessageAt(one.get(0).getCommitLogOffset()).getSysFlag()
                & MessageSysFlag.INNER_BATCH_CONTINUES).isZero();

        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);
        assertThat(bodiesOfAllQueues(store)).containsExactlyInAnyOrder("b-0", "b-1", "b-2", "b-3", "forged", "alone");
    }

    @Test
    void aBatchMayBeLargerThanOneMessageButMustFitTheFile() throws IOException {
        DefaultMessageStore store = open(dir);
        int maxMessage = store.config().getMaxMessageSize();
        assertThat(store.config().maxBatchBytes()).isEqualTo(FILE_SIZE - MessageRecord.BLANK_RECORD_MIN_SIZE);
        List<MessageToStore> large = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            large.add(message("Tx", 0, i + "x".repeat(maxMessage / 2)));
        }
        assertThat(store.putMessages(large).isOk()).as("2.5 maximum messages in one batch").isTrue();
        List<MessageToStore> tooLarge = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            tooLarge.add(message("Tx", 0, "y".repeat(maxMessage - 200)));
        }
        PutMessageResult refused = store.putMessages(tooLarge);
        assertThat(refused.status()).isEqualTo(PutMessageStatus.MESSAGE_ILLEGAL);
        assertThat(refused.errorMessage()).contains("most one batch may take").contains("smaller batches");
    }

    enum Damage {
        /** The last record never reached the disk. */
        LAST_RECORD_MISSING,
        /** Only the first half of the last record reached the disk. */
        LAST_RECORD_TORN,
        /** A record in the middle of the batch is corrupt (its body CRC fails). */
        MIDDLE_RECORD_CORRUPT
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void recoveryDropsABatchThatIsNotWholeOnDisk(Damage damage) throws IOException {
        DefaultMessageStore running = open(dir);
        putSingles(running, "before", 10);
        List<MessageToStore> batch = batch("batch", 6);
        assertThat(running.putMessages(batch).isOk()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> running.dispatchBehindBytes() == 0);
        long batchStart = batch.get(0).getCommitLogOffset();
        Path crash = dir.resolveSibling(dir.getFileName() + "-" + damage);
        copyTree(dir, crash);

        MessageToStore last = batch.get(batch.size() - 1);
        switch (damage) {
            case LAST_RECORD_MISSING -> overwrite(crash, last.getCommitLogOffset(), new byte[last.getStoreSize()]);
            case LAST_RECORD_TORN -> {
                int half = last.getStoreSize() / 2;
                overwrite(crash, last.getCommitLogOffset() + half, new byte[last.getStoreSize() - half]);
            }
            case MIDDLE_RECORD_CORRUPT -> overwrite(crash,
                    batch.get(2).getCommitLogOffset() + MessageRecord.BODY_OFFSET, new byte[] {'#'});
            default -> throw new IllegalStateException();
        }

        DefaultMessageStore recovered = open(crash);
        assertThat(recovered.lastRecovery().truncated()).isTrue();
        assertThat(recovered.getMaxPhyOffset()).as("cut back to the batch's first record").isEqualTo(batchStart);
        assertThat(bodiesOfAllQueues(recovered)).as("none of the batch, all before it")
                .containsExactlyInAnyOrderElementsOf(List.of("before-0", "before-1", "before-2", "before-3", "before-4",
                        "before-5", "before-6", "before-7", "before-8", "before-9"));
        assertThat(recovered.readMessageAt(batchStart)).isNull();
        MessageToStore next = message("Tx", 0, "after");
        assertThat(recovered.putMessage(next).isOk()).isTrue();
        assertThat(next.getCommitLogOffset()).isEqualTo(batchStart);
        assertThat(next.getQueueOffset()).as("queue 0 continues after the singles only").isEqualTo(4);
    }

    @Test
    void aWholeBatchSurvivesATornRecordAfterIt() throws IOException {
        DefaultMessageStore running = open(dir);
        List<MessageToStore> batch = batch("kept", 5);
        assertThat(running.putMessages(batch).isOk()).isTrue();
        MessageToStore after = message("Tx", 0, "lost");
        assertThat(running.putMessage(after).isOk()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> running.dispatchBehindBytes() == 0);
        Path crash = dir.resolveSibling(dir.getFileName() + "-after");
        copyTree(dir, crash);
        overwrite(crash, after.getCommitLogOffset() + 10, new byte[after.getStoreSize() - 10]);

        DefaultMessageStore recovered = open(crash);
        assertThat(recovered.getMaxPhyOffset()).isEqualTo(after.getCommitLogOffset());
        assertThat(bodiesOfAllQueues(recovered)).containsExactlyInAnyOrder("kept-0", "kept-1", "kept-2", "kept-3",
                "kept-4");
    }

    @Test
    void aBatchIsUnreadableUntilItsLastRecordIsDispatched() throws IOException {
        DefaultMessageStore store = create(dir);
        List<String> violations = new CopyOnWriteArrayList<>();
        AtomicReference<long[]> before = new AtomicReference<>();
        AtomicBoolean probing = new AtomicBoolean();
        List<String> arrived = new CopyOnWriteArrayList<>();
        // runs after the consume-queue dispatcher: the unit of the record being dispatched is already written
        store.addDispatcher(request -> {
            if (!probing.get() || !MessageSysFlag.batchContinues(request.sysFlag())) {
                return;
            }
            long[] ends = before.get();
            for (int q = 0; q < 3; q++) {
                long max = store.getMaxOffsetInQueue("Tx", q);
                if (max != ends[q]) {
                    violations.add("queue " + q + " end moved to " + max + " inside the batch");
                }
                int qq = q;
                store.visitQueueUnits("Tx", q, ends[q], 32, (offset, phy, size, tags) -> {
                    violations.add("queue " + qq + " unit " + offset + " visited inside the batch");
                    return true;
                });
                GetMessageResult r = store.getMessage("Tx", q, ends[q], 32, 1 << 20, null);
                if (r.messageCount() > 0) {
                    violations.add("queue " + q + " served " + r.messageCount() + " message(s) of an open batch");
                }
                r.release();
            }
            if (store.getCommitLogOffsetInQueue("Tx", request.queueId(), request.consumeQueueOffset()) != -1) {
                violations.add("unit " + request.consumeQueueOffset() + " readable by offset inside the batch");
            }
            if (!arrived.isEmpty()) {
                violations.add("arrival notified inside the batch: " + arrived);
            }
            if (store.getConfirmedPhyOffset() > request.commitLogOffset()) {
                violations.add("confirmed offset inside the batch");
            }
        });
        store.setMessageArrivingListener((topic, queueId, offset, tags, time, props) -> {
            if (probing.get()) {
                arrived.add(queueId + "@" + offset);
            }
        });
        store.start();
        putSingles(store, "single", 6);
        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);
        before.set(new long[] {store.getMaxOffsetInQueue("Tx", 0), store.getMaxOffsetInQueue("Tx", 1),
                store.getMaxOffsetInQueue("Tx", 2)});
        assertThat(before.get()).containsExactly(2, 2, 2);
        probing.set(true);

        List<MessageToStore> batch = batch("atomic", 9);
        assertThat(store.putMessages(batch).isOk()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> arrived.size() == 9);

        assertThat(violations).isEmpty();
        assertThat(arrived).containsExactlyInAnyOrder("0@2", "1@2", "2@2", "0@3", "1@3", "2@3", "0@4", "1@4", "2@4");
        for (int q = 0; q < 3; q++) {
            assertThat(store.getMaxOffsetInQueue("Tx", q)).isEqualTo(5);
            assertThat(readAll(store, "Tx", q, 2)).containsExactly("atomic-" + q, "atomic-" + (q + 3), "atomic-" + (q + 6));
        }
        assertThat(store.getConfirmedPhyOffset()).isEqualTo(store.getMaxPhyOffset());
    }

    @Test
    void aConcurrentReaderNeverSeesPartOfABatch() throws Exception {
        DefaultMessageStore store = open(dir);
        int batches = 150;
        int perBatch = 12;
        AtomicBoolean done = new AtomicBoolean();
        List<Long> partial = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            long offset = 0;
            while (!done.get() || offset < (long) batches * perBatch) {
                long max = store.getMaxOffsetInQueue("Tx", 0);
                if (max % perBatch != 0) {
                    partial.add(max);
                }
                GetMessageResult r = store.getMessage("Tx", 0, offset, 32, 1 << 20, null);
                offset = r.nextBeginOffset();
                r.release();
                if (r.status() != GetMessageStatus.FOUND && offset % perBatch != 0) {
                    partial.add(offset);
                }
                if (done.get() && max == (long) batches * perBatch && offset == max) {
                    return;
                }
            }
        }, "batch-reader");
        reader.start();
        for (int b = 0; b < batches; b++) {
            List<MessageToStore> batch = new ArrayList<>();
            for (int i = 0; i < perBatch; i++) {
                batch.add(message("Tx", 0, b + "-" + i));
            }
            assertThat(store.putMessages(batch).isOk()).isTrue();
            // single messages of another topic between batches
            assertThat(store.putMessage(message("Other", 0, "x" + b)).isOk()).isTrue();
        }
        done.set(true);
        reader.join(Duration.ofSeconds(30).toMillis());
        assertThat(reader.isAlive()).isFalse();
        assertThat(partial).as("queue ends and read positions inside a batch").isEmpty();
        assertThat(readAll(store, "Tx", 0, 0)).hasSize(batches * perBatch);
    }

    private static void overwrite(Path root, long offset, byte[] bytes) throws IOException {
        Path file = root.resolve("commitlog").resolve(MappedFile.fileName(offset - offset % FILE_SIZE));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), offset % FILE_SIZE);
        }
    }
}

package dev.wharf.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.MessageRecord;
import dev.wharf.store.commitlog.RecordFingerprint;
import dev.wharf.store.commitlog.ReplicaAppendResult;
import dev.wharf.store.commitlog.ReplicaSlice;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The store's replication seam on real files: whole-record reads, byte-identical appends, refusals. */
@Timeout(60)
class ReplicableStoreTest {

    @TempDir
    Path dir;

    @Test
    void copyingSlicesGivesAByteIdenticalLogAndTheReplicaDispatchesIt() throws Exception {
        DefaultMessageStore master = new DefaultMessageStore(StoreTestSupport.smallConfig(dir.resolve("m")));
        DefaultMessageStore replica = new DefaultMessageStore(StoreTestSupport.smallConfig(dir.resolve("r")));
        master.start();
        replica.start();
        try {
            List<MessageToStore> batch = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                if (i % 100 == 7) {
                    for (int j = 0; j < 10; j++) {
                        batch.add(StoreTestSupport.message("t", j % 2, "batch-" + i + "-" + j));
                    }
                    assertThat(master.putMessages(batch).isOk()).isTrue();
                    batch.clear();
                } else {
                    assertThat(master.putMessage(StoreTestSupport.message("t", i % 2, "m-" + i + "x".repeat(i % 300)))
                            .isOk()).isTrue();
                }
            }
            assertThat(master.getMaxPhyOffset()).isGreaterThan(master.config().getMappedFileSizeCommitLog());
            long next = 0;
            int slices = 0;
            while (next < master.getMaxPhyOffset()) {
                ReplicaSlice slice = master.readCommitLog(next, 4096);
                assertThat(slice).as("a slice at %d", next).isNotNull();
                try {
                    ReplicaAppendResult appended = replica.appendCommitLog(next, slice.bytes());
                    assertThat(appended.error()).isNull();
                    assertThat(appended.nextOffset()).isEqualTo(slice.nextOffset());
                    next = slice.nextOffset();
                    slices++;
                } finally {
                    slice.release();
                }
            }
            assertThat(slices).isGreaterThan(10);
            assertThat(replica.getMaxPhyOffset()).isEqualTo(master.getMaxPhyOffset());
            assertThat(replica.lastRecordFingerprint()).isEqualTo(master.lastRecordFingerprint());
            assertThat(replica.awaitDispatched(10_000)).isTrue();
            assertThat(master.awaitDispatched(10_000)).isTrue(); // the master dispatches on its own thread too
            assertThat(StoreTestSupport.readAll(replica, "t", 0, 0))
                    .isEqualTo(StoreTestSupport.readAll(master, "t", 0, 0));
        } finally {
            master.shutdown();
            replica.shutdown();
        }
        try (var files = Files.list(dir.resolve("m").resolve("commitlog"))) {
            for (Path f : files.toList()) {
                assertThat(Files.mismatch(f, dir.resolve("r").resolve("commitlog").resolve(f.getFileName())))
                        .isEqualTo(-1L);
            }
        }
    }

    @Test
    void aQuietAppendWakesNobodyUntilItIsAnnounced() throws Exception {
        DefaultMessageStore master = new DefaultMessageStore(StoreTestSupport.smallConfig(dir.resolve("m")));
        DefaultMessageStore replica = new DefaultMessageStore(StoreTestSupport.smallConfig(dir.resolve("r")));
        master.start();
        replica.start();
        try {
            for (int i = 0; i < 5; i++) {
                assertThat(master.putMessage(StoreTestSupport.message("t", 0, "m-" + i)).isOk()).isTrue();
            }
            AtomicInteger heard = new AtomicInteger();
            replica.addAppendListener(heard::incrementAndGet);
            ReplicaSlice first = master.readCommitLog(0, 1);
            long firstEnd = first.nextOffset();
            try {
                // a slave acks between the two calls: nothing it would wake may run before the ack is written
                assertThat(replica.appendCommitLogQuietly(0, first.bytes()).ok()).isTrue();
            } finally {
                first.release();
            }
            assertThat(heard).hasValue(0);
            assertThat(replica.getMaxPhyOffset()).isEqualTo(firstEnd);
            replica.announceAppend();
            assertThat(heard).hasValue(1);

            ReplicaSlice rest = master.readCommitLog(firstEnd, 1 << 20);
            try {
                assertThat(replica.appendCommitLog(firstEnd, rest.bytes()).ok()).isTrue(); // announces by itself
            } finally {
                rest.release();
            }
            assertThat(heard).hasValue(2);
            assertThat(replica.awaitDispatched(10_000)).isTrue();
            assertThat(master.awaitDispatched(10_000)).isTrue();
            assertThat(StoreTestSupport.readAll(replica, "t", 0, 0))
                    .isEqualTo(StoreTestSupport.readAll(master, "t", 0, 0)).hasSize(5);
        } finally {
            master.shutdown();
            replica.shutdown();
        }
    }

    @Test
    void aConfirmGatedLogDispatchesWhatTheConfirmOffsetCoversWhenItMoves() throws Exception {
        DefaultMessageStore master = new DefaultMessageStore(StoreTestSupport.smallConfig(dir.resolve("m")));
        AtomicLong confirmed = new AtomicLong();
        master.setConfirmOffsetSupplier(confirmed::get);
        master.start();
        try {
            assertThat(master.putMessage(StoreTestSupport.message("t", 0, "m-0")).isOk()).isTrue();
            long firstEnd = master.getMaxPhyOffset();
            assertThat(master.putMessage(StoreTestSupport.message("t", 0, "m-1")).isOk()).isTrue();
            // puts no longer wake the dispatcher of a confirm-gated log; moving the confirm offset does
            confirmed.set(firstEnd);
            master.confirmOffsetMoved();
            assertThat(master.awaitDispatched(10_000)).isTrue();
            assertThat(StoreTestSupport.readAll(master, "t", 0, 0)).hasSize(1);
            confirmed.set(master.getMaxPhyOffset());
            master.confirmOffsetMoved();
            assertThat(master.awaitDispatched(10_000)).isTrue();
            assertThat(StoreTestSupport.readAll(master, "t", 0, 0)).hasSize(2);
        } finally {
            master.shutdown();
        }
    }

    @Test
    void badReplicatedBytesAreRefusedAndNothingIsWritten() throws Exception {
        DefaultMessageStore master = new DefaultMessageStore(StoreTestSupport.smallConfig(dir.resolve("m")));
        DefaultMessageStore replica = new DefaultMessageStore(StoreTestSupport.smallConfig(dir.resolve("r")));
        master.start();
        replica.start();
        try {
            for (int i = 0; i < 10; i++) {
                master.putMessage(StoreTestSupport.message("t", 0, "m-" + i));
            }
            ReplicaSlice first = master.readCommitLog(0, 1);
            int firstSize = first.size();
            assertThat(replica.appendCommitLog(0, first.bytes()).ok()).isTrue();
            first.release();

            ReplicaSlice rest = master.readCommitLog(firstSize, 1 << 20);
            ReplicaAppendResult wrongOffset = replica.appendCommitLog(firstSize + 1, rest.bytes());
            assertThat(wrongOffset.ok()).isFalse();
            assertThat(wrongOffset.error()).contains("this log ends at " + firstSize);

            ByteBuffer garbage = ByteBuffer.allocate(200);
            for (int i = 0; i < 200; i++) {
                garbage.put((byte) (i * 31));
            }
            garbage.flip();
            assertThat(replica.appendCommitLog(firstSize, garbage).error()).contains("not an intact record");

            ByteBuffer cut = rest.bytes().duplicate();
            cut.limit(cut.limit() - 3); // the last record is cut short
            assertThat(replica.appendCommitLog(firstSize, cut).ok()).isFalse();
            assertThat(replica.getMaxPhyOffset()).isEqualTo(firstSize);
            rest.release();

            RecordFingerprint mine = master.fingerprintAt(0);
            assertThat(mine.size()).isEqualTo(firstSize);
            assertThat(master.fingerprintAt(1)).isNull();
            assertThat(replica.lastRecordFingerprint()).isEqualTo(mine);
            assertThat(master.getMaxPhyOffset() % MessageRecord.BLANK_RECORD_MIN_SIZE).isNotNegative();
        } finally {
            master.shutdown();
            replica.shutdown();
        }
    }
}

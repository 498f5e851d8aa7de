package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.copyTree;
import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.readAll;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.store.commitlog.AppendResult;
import dev.wharf.store.file.MappedFile;
import dev.wharf.store.recovery.QuarantineReport;
import dev.wharf.store.recovery.StoreCheckpoint;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreRecoveryTest {

    private static final int MESSAGES = 400;

    @TempDir
    Path dir;

    private final List<DefaultMessageStore> stores = new ArrayList<>();

    @AfterEach
    void tearDown() {
        stores.forEach(DefaultMessageStore::shutdown);
    }

    private DefaultMessageStore open(Path root) throws IOException {
        MessageStoreConfig config = smallConfig(root);
        config.setFlushDiskType(FlushDiskType.SYNC_FLUSH);
        DefaultMessageStore store = new DefaultMessageStore(config);
        store.start();
        stores.add(store);
        return store;
    }

    /** Puts MESSAGES messages (acknowledged = on disk with SYNC_FLUSH); returns their append results. */
    private List<AppendResult> fill(DefaultMessageStore store) {
        List<AppendResult> results = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            MessageToStore m = message("Durable", i % 2, "msg-" + i + "-" + "d".repeat(i % 300));
            m.putProperty(MessageProperties.KEYS, "key-" + i);
            PutMessageResult r = store.putMessage(m);
            assertThat(r.status()).isEqualTo(PutMessageStatus.PUT_OK);
            results.add(r.appendResult());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);
        return results;
    }

    private static List<String> expectedBodies(int queueId, int below) {
        List<String> bodies = new ArrayList<>();
        for (int i = queueId; i < below; i += 2) {
            bodies.add("msg-" + i + "-" + "d".repeat(i % 300));
        }
        return bodies;
    }

    private static void overwrite(Path root, int fileSize, long offset, byte[] bytes) throws IOException {
        Path file = root.resolve("commitlog").resolve(MappedFile.fileName(offset - offset % fileSize));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), offset % fileSize);
        }
    }

    @Test
    void cleanRestartTrustsTheCheckpointAndContinues() throws IOException {
        DefaultMessageStore first = open(dir);
        fill(first);
        long maxPhy = first.getMaxPhyOffset();
        first.shutdown();
        assertThat(Files.exists(dir.resolve("abort"))).isFalse();

        DefaultMessageStore second = open(dir);
        assertThat(second.lastRecovery().scanned()).as("no scan on a clean restart").isFalse();
        assertThat(second.getMaxPhyOffset()).isEqualTo(maxPhy);
        assertThat(second.getMaxOffsetInQueue("Durable", 0)).isEqualTo(MESSAGES / 2);
        assertThat(readAll(second, "Durable", 1, 0)).containsExactlyElementsOf(expectedBodies(1, MESSAGES));
        PutMessageResult next = second.putMessage(message("Durable", 0, "after restart"));
        assertThat(next.appendResult().logicsOffset()).isEqualTo(MESSAGES / 2);
        assertThat(next.appendResult().wroteOffset()).isEqualTo(maxPhy);
        QueryMessageResult q = second.queryMessage("Durable", "key-7", 10, 0, Long.MAX_VALUE);
        assertThat(q.buffers()).hasSize(1);
        q.release();
    }

    @Test
    void uncleanRestartCutsATornLastRecord() throws IOException {
        DefaultMessageStore running = open(dir);
        List<AppendResult> acked = fill(running);
        Path crash = dir.resolveSibling(dir.getFileName() + "-crash");
        copyTree(dir, crash);
        assertThat(Files.exists(crash.resolve("abort"))).isTrue();
        AppendResult last = acked.get(MESSAGES - 1);
        // the last record reached the disk only half
        int half = last.wroteBytes() / 2;
        overwrite(crash, 64 * 1024, last.wroteOffset() + half, new byte[last.wroteBytes() - half]);

        DefaultMessageStore recovered = open(crash);
        assertThat(recovered.lastRecovery().truncated()).isTrue();
        assertThat(recovered.getMaxPhyOffset()).isEqualTo(last.wroteOffset());
        int lastQueue = (MESSAGES - 1) % 2;
        assertThat(recovered.getMaxOffsetInQueue("Durable", lastQueue)).isEqualTo(MESSAGES / 2 - 1);
        assertThat(readAll(recovered, "Durable", 0, 0)).containsExactlyElementsOf(expectedBodies(0, MESSAGES - 1));
        assertThat(readAll(recovered, "Durable", 1, 0)).containsExactlyElementsOf(expectedBodies(1, MESSAGES - 1));
        assertThat(recovered.readMessageAt(last.wroteOffset())).isNull();
        QueryMessageResult gone = recovered.queryMessage("Durable", "key-" + (MESSAGES - 1), 10, 0, Long.MAX_VALUE);
        assertThat(gone.buffers()).as("index entries past the end are not served").isEmpty();

        PutMessageResult again = recovered.putMessage(message("Durable", lastQueue, "replacement"));
        assertThat(again.appendResult().logicsOffset()).isEqualTo(MESSAGES / 2 - 1);
        assertThat(again.appendResult().wroteOffset()).isEqualTo(last.wroteOffset());
    }

    @Test
    void uncleanRestartSkipsACorruptedRecordBelowTheCheckpointAndKeepsEverythingElse() throws IOException {
        DefaultMessageStore running = open(dir);
        List<AppendResult> acked = fill(running);
        int victim = MESSAGES / 2;
        // the checkpoint must know the records after the victim were on disk (the flush service writes it)
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
                return cp.getPhysicMsgTimestamp() > acked.get(victim + 1).storeTimestamp();
            }
        });
        Path crash = dir.resolveSibling(dir.getFileName() + "-crc");
        copyTree(dir, crash);
        AppendResult bad = acked.get(victim);
        overwrite(crash, 64 * 1024, bad.wroteOffset() + MessageRecord.BODY_OFFSET + 1, new byte[] {'#'});

        DefaultMessageStore recovered = open(crash);
        assertThat(recovered.lastRecovery().truncated()).isFalse();
        assertThat(recovered.lastRecovery().quarantined()).singleElement().satisfies(e -> {
            assertThat(e.offset()).isEqualTo(bad.wroteOffset());
            assertThat(e.length()).isEqualTo(bad.wroteBytes());
            assertThat(e.topic()).isEqualTo("Durable");
            assertThat(e.queueOffset()).isEqualTo(victim / 2);
        });
        assertThat(recovered.getMaxPhyOffset()).isEqualTo(running.getMaxPhyOffset());
        List<String> queue0 = expectedBodies(0, MESSAGES);
        queue0.remove("msg-" + victim + "-" + "d".repeat(victim % 300));
        assertThat(readAll(recovered, "Durable", 0, 0)).containsExactlyElementsOf(queue0);
        assertThat(readAll(recovered, "Durable", 1, 0)).containsExactlyElementsOf(expectedBodies(1, MESSAGES));
        assertThat(recovered.readMessageAt(bad.wroteOffset())).isNull();
        QueryMessageResult gone = recovered.queryMessage("Durable", "key-" + victim, 10, 0, Long.MAX_VALUE);
        assertThat(gone.buffers()).isEmpty();
        QueryMessageResult after = recovered.queryMessage("Durable", "key-" + (victim + 5), 10, 0, Long.MAX_VALUE);
        assertThat(after.buffers()).hasSize(1);
        after.release();
        assertThat(Files.readString(crash.resolve(QuarantineReport.FILE_NAME)))
                .contains("\"offset\":" + bad.wroteOffset()).contains("\"topic\":\"Durable\"");
        assertThat(recovered.stats().quarantinedRangeCount()).isEqualTo(1);
        List<Long> walked = new ArrayList<>();
        assertThat(recovered.forEachRecord(0, m -> walked.add(m.getCommitLogOffset())))
                .as("a commit-log walk jumps over the quarantined record").isEqualTo(recovered.getMaxPhyOffset());
        assertThat(walked).hasSize(MESSAGES - 1).doesNotContain(bad.wroteOffset());
        assertThat(recovered.putMessage(message("Durable", 0, "new")).appendResult().logicsOffset())
                .isEqualTo(MESSAGES / 2);
    }

    @Test
    void rebuiltConsumeQueuesLeaveAQuarantinedRecordOutAndKeepTheQueueNumbering() throws IOException {
        DefaultMessageStore running = open(dir);
        List<AppendResult> acked = fill(running);
        running.shutdown();
        int victim = MESSAGES - 40;
        AppendResult bad = acked.get(victim);
        overwrite(dir, 64 * 1024, bad.wroteOffset() + MessageRecord.BODY_OFFSET + 3, new byte[] {'#'});
        // a crash that lost every consume queue, with a checkpoint from long before: the whole log is validated
        // and the queues are rebuilt from it
        new dev.wharf.store.recovery.AbortFile(dir).create();
        try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
            cp.setCleanShutdownOffset(dev.wharf.store.recovery.CheckpointLayout.RUNNING);
            cp.setSafeOffset(0);
            cp.flush();
        }
        try (var paths = Files.walk(dir.resolve("consumequeue"))) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }

        DefaultMessageStore recovered = open(dir);
        assertThat(recovered.lastRecovery().quarantined()).singleElement()
                .satisfies(e -> assertThat(e.offset()).isEqualTo(bad.wroteOffset()));
        List<String> expected = expectedBodies(victim % 2, MESSAGES);
        expected.remove("msg-" + victim + "-" + "d".repeat(victim % 300));
        assertThat(readAll(recovered, "Durable", victim % 2, 0)).containsExactlyElementsOf(expected);
        assertThat(readAll(recovered, "Durable", 1 - victim % 2, 0))
                .containsExactlyElementsOf(expectedBodies(1 - victim % 2, MESSAGES));
        assertThat(recovered.getMaxOffsetInQueue("Durable", victim % 2)).as("the numbering keeps its gap")
                .isEqualTo(MESSAGES / 2);
        assertThat(recovered.putMessage(message("Durable", victim % 2, "next")).appendResult().logicsOffset())
                .isEqualTo(MESSAGES / 2);
    }

    @Test
    void uncleanRestartCutsACorruptedRecordAboveTheCheckpoint() throws IOException {
        DefaultMessageStore running = open(dir);
        List<AppendResult> acked = fill(running);
        Path crash = dir.resolveSibling(dir.getFileName() + "-torn");
        copyTree(dir, crash);
        int victim = MESSAGES / 2;
        // a checkpoint that knows nothing was flushed: damage anywhere is a torn write
        try (StoreCheckpoint cp = StoreCheckpoint.open(crash)) {
            cp.setSafeOffset(0);
            cp.setPhysicMsgTimestamp(0);
            cp.flush();
        }
        AppendResult bad = acked.get(victim);
        overwrite(crash, 64 * 1024, bad.wroteOffset() + MessageRecord.BODY_OFFSET + 1, new byte[] {'#'});

        DefaultMessageStore recovered = open(crash);
        assertThat(recovered.lastRecovery().truncated()).isTrue();
        assertThat(recovered.lastRecovery().quarantined()).isEmpty();
        assertThat(recovered.getMaxPhyOffset()).isEqualTo(bad.wroteOffset());
        assertThat(readAll(recovered, "Durable", 0, 0)).containsExactlyElementsOf(expectedBodies(0, victim));
        assertThat(readAll(recovered, "Durable", 1, 0)).containsExactlyElementsOf(expectedBodies(1, victim));
    }

    @Test
    void uncleanRestartRebuildsMissingQueueEntries() throws IOException {
        DefaultMessageStore running = open(dir);
        fill(running);
        Path crash = dir.resolveSibling(dir.getFileName() + "-noqueues");
        copyTree(dir, crash);
        // the crash lost the consume queues and index entirely: they are rebuilt from the commit log
        try (var paths = Files.walk(crash.resolve("consumequeue"))) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        DefaultMessageStore recovered = open(crash);
        assertThat(recovered.lastRecovery().truncated()).isFalse();
        assertThat(readAll(recovered, "Durable", 0, 0)).containsExactlyElementsOf(expectedBodies(0, MESSAGES));
        assertThat(recovered.putMessage(message("Durable", 0, "next")).appendResult().logicsOffset())
                .isEqualTo(MESSAGES / 2);
    }

    @Test
    void aRecordWhoseQueueOffsetCannotBeTrueIsQuarantinedNotDispatched() throws IOException {
        DefaultMessageStore running = open(dir);
        List<AppendResult> acked = fill(running);
        Path crash = dir.resolveSibling(dir.getFileName() + "-header");
        copyTree(dir, crash);
        try (var paths = Files.walk(crash.resolve("consumequeue"))) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        int victim = MESSAGES - 3;
        AppendResult bad = acked.get(victim);
        // the body CRC does not cover the header: a flipped high byte of QUEUEOFFSET passes every record check
        overwrite(crash, 64 * 1024, bad.wroteOffset() + MessageRecord.QUEUE_OFFSET_OFFSET, new byte[] {0x40});

        DefaultMessageStore recovered = open(crash);
        List<String> expected = expectedBodies(victim % 2, MESSAGES);
        expected.remove("msg-" + victim + "-" + "d".repeat(victim % 300));
        assertThat(readAll(recovered, "Durable", victim % 2, 0)).containsExactlyElementsOf(expected);
        assertThat(recovered.getMaxOffsetInQueue("Durable", victim % 2)).isEqualTo(MESSAGES / 2);
        assertThat(Files.readString(crash.resolve(QuarantineReport.FILE_NAME)))
                .contains("\"offset\":" + bad.wroteOffset()).contains("is impossible");
        long queueBytes;
        try (var paths = Files.walk(crash.resolve("consumequeue"))) {
            queueBytes = paths.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
        assertThat(queueBytes).as("no queue was filled up to the garbage offset").isLessThan(1 << 20);
    }

    private static Path commitLogFile(Path root, long offset) {
        return root.resolve("commitlog").resolve(MappedFile.fileName(offset - offset % (64 * 1024)));
    }

    private static void truncate(Path file, long size) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        }
    }

    @Test
    void truncatedLastCommitLogFileIsRecoveredToItsLastIntactRecordAndReported() throws IOException {
        DefaultMessageStore first = open(dir);
        List<AppendResult> acked = fill(first);
        first.shutdown();
        AppendResult lastAcked = acked.get(MESSAGES - 1);
        long lastFileStart = lastAcked.wroteOffset() - lastAcked.wroteOffset() % (64 * 1024);
        // cut the last file in the middle of some record
        int cutIndex = firstRecordInFile(acked, lastFileStart) + 20;
        long cutAt = acked.get(cutIndex).wroteOffset() + 30;
        truncate(commitLogFile(dir, lastFileStart), cutAt - lastFileStart);

        DefaultMessageStore recovered = open(dir);
        assertThat(recovered.getMaxPhyOffset()).isEqualTo(acked.get(cutIndex).wroteOffset());
        assertThat(recovered.lastRecovery().quarantined()).singleElement().satisfies(e -> {
            assertThat(e.endOfLog()).isTrue();
            assertThat(e.offset()).isEqualTo(acked.get(cutIndex).wroteOffset());
            assertThat(e.reason()).contains("file truncated to " + (cutAt - lastFileStart) + " bytes (expected 65536)");
        });
        assertThat(readAll(recovered, "Durable", 0, 0)).containsExactlyElementsOf(expectedBodies(0, cutIndex));
        assertThat(readAll(recovered, "Durable", 1, 0)).containsExactlyElementsOf(expectedBodies(1, cutIndex));
        assertThat(Files.size(commitLogFile(dir, lastFileStart))).as("extended again").isEqualTo(64 * 1024);
        PutMessageResult next = recovered.putMessage(message("Durable", cutIndex % 2, "after the cut"));
        assertThat(next.appendResult().wroteOffset()).isEqualTo(acked.get(cutIndex).wroteOffset());
        assertThat(next.appendResult().logicsOffset()).isEqualTo(cutIndex / 2);
    }

    @Test
    void truncatedFileInTheMiddleKeepsItsHeadAndEveryLaterFileAndReportsTheLostRange() throws IOException {
        DefaultMessageStore first = open(dir);
        List<AppendResult> acked = fill(first);
        long maxPhy = first.getMaxPhyOffset();
        first.shutdown();
        assertThat(maxPhy).as("the test needs two files").isGreaterThan(64 * 1024);
        int cutIndex = 50;
        long cutAt = acked.get(cutIndex).wroteOffset() + 7;
        truncate(commitLogFile(dir, 0), cutAt);
        int firstOfSecondFile = firstRecordInFile(acked, 64 * 1024);

        DefaultMessageStore recovered = open(dir);
        assertThat(recovered.getMaxPhyOffset()).isEqualTo(maxPhy);
        assertThat(recovered.lastRecovery().quarantined()).singleElement().satisfies(e -> {
            assertThat(e.endOfLog()).isFalse();
            assertThat(e.offset()).isEqualTo(acked.get(cutIndex).wroteOffset());
            assertThat(e.offset() + e.length()).isEqualTo(64 * 1024);
            assertThat(e.reason()).contains("file truncated to " + cutAt + " bytes");
        });
        List<List<String>> expected = List.of(new ArrayList<>(), new ArrayList<>());
        for (int i = 0; i < MESSAGES; i++) {
            if (i < cutIndex || i >= firstOfSecondFile) {
                expected.get(i % 2).add("msg-" + i + "-" + "d".repeat(i % 300));
            }
        }
        for (int q = 0; q < 2; q++) {
            assertThat(readAll(recovered, "Durable", q, 0)).containsExactlyElementsOf(expected.get(q));
        }
        assertThat(Files.readString(dir.resolve(QuarantineReport.FILE_NAME))).contains("file truncated");
        recovered.shutdown();

        // the lost range stays skipped after a clean restart (the report is reloaded)
        DefaultMessageStore again = open(dir);
        assertThat(again.stats().quarantinedRangeCount()).isEqualTo(1);
        assertThat(readAll(again, "Durable", 0, 0)).containsExactlyElementsOf(expected.get(0));
    }

    @Test
    void commitLogWrittenWithAnotherFileSizeIsRefusedNamingTheSize() throws IOException {
        DefaultMessageStore first = open(dir);
        fill(first);
        first.shutdown();
        MessageStoreConfig bigger = smallConfig(dir);
        bigger.setMappedFileSizeCommitLog(128 * 1024);
        DefaultMessageStore wrong = new DefaultMessageStore(bigger);
        assertThatThrownBy(wrong::start).isInstanceOf(IOException.class)
                .hasMessageContaining("mappedFileSizeCommitLog=65536");
        assertThat(Files.size(commitLogFile(dir, 0))).as("nothing extended").isEqualTo(64 * 1024);
    }

    private static int firstRecordInFile(List<AppendResult> acked, long fileStart) {
        for (int i = 0; i < acked.size(); i++) {
            if (acked.get(i).wroteOffset() >= fileStart) {
                return i;
            }
        }
        throw new AssertionError("no record in the file at " + fileStart);
    }

    @Test
    void aSecondStoreOnTheSameFolderFailsAtOnce() throws IOException {
        DefaultMessageStore first = open(dir);
        DefaultMessageStore second = new DefaultMessageStore(smallConfig(dir));
        assertThatThrownBy(second::start).isInstanceOf(IOException.class)
                .hasMessageContaining("already in use").hasMessageContaining("storePathRootDir");
        assertThatThrownBy(first::start).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already started once");
        assertThat(first.putMessage(message("Still", 0, "works")).isOk()).isTrue();
    }
}

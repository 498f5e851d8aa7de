package dev.wharf.store.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.store.commitlog.AppendResult;
import dev.wharf.store.commitlog.CommitLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitLogRecoveryTest {

    private static final int FILE_SIZE = 4096;

    @TempDir
    Path dir;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    private CommitLog newLog() {
        CommitLog log = new CommitLog(dir.resolve("commitlog"), FILE_SIZE, 2048);
        toClose.add(log::shutdown);
        return log;
    }

    private StoreCheckpoint checkpoint() throws IOException {
        StoreCheckpoint cp = StoreCheckpoint.open(dir);
        toClose.add(cp);
        return cp;
    }

    /** Writes {@code count} messages, flushes, unmaps; returns each record's offset. */
    private List<Long> write(int count) {
        CommitLog log = newLog();
        List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            MessageExt msg = new MessageExt();
            msg.setTopic("Recover");
            msg.setBody(("message-" + i + "-" + "p".repeat(i % 50)).getBytes(StandardCharsets.UTF_8));
            AppendResult r = log.putMessage(msg, "");
            assertThat(r.isOk()).isTrue();
            offsets.add(r.wroteOffset());
        }
        offsets.add(log.getMaxOffset());
        log.mappedFileQueue().flushAll();
        log.shutdown();
        return offsets;
    }

    private CommitLog reopen() throws IOException {
        CommitLog log = newLog();
        log.load();
        return log;
    }

    private void poke(long offset, byte value) throws IOException {
        Path file = dir.resolve("commitlog").resolve(dev.wharf.store.file.MappedFile.fileName(offset - offset % FILE_SIZE));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {value}), offset % FILE_SIZE);
        }
    }

    private void zero(long from, long to) throws IOException {
        for (long o = from; o < to; o++) {
            poke(o, (byte) 0);
        }
    }

    @Test
    void crashWithoutCheckpointValidatesEverythingAndKeepsAllIntactRecords() throws IOException {
        List<Long> offsets = write(120);
        long end = offsets.get(offsets.size() - 1);
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, true);
        assertThat(r.scanned()).isTrue();
        assertThat(r.truncated()).isFalse();
        assertThat(r.maxPhyOffset()).isEqualTo(end);
        assertThat(r.dispatchFrom()).isZero();
        assertThat(log.getMaxOffset()).isEqualTo(end);
    }

    @Test
    void tornLastRecordIsCutOff() throws IOException {
        List<Long> offsets = write(120);
        long last = offsets.get(119);
        long end = offsets.get(120);
        // the last record only half reached the disk
        zero(last + (end - last) / 2, end);
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, true);
        assertThat(r.truncated()).isTrue();
        assertThat(r.maxPhyOffset()).isEqualTo(last);
        assertThat(log.selectOneMessage(offsets.get(118))).as("the record before is intact").isNotNull()
                .satisfies(s -> s.release());
        assertThat(log.selectOneMessage(last)).isNull();

        // appends continue exactly at the cut
        MessageExt msg = new MessageExt();
        msg.setTopic("Recover");
        msg.setBody(new byte[] {1});
        assertThat(log.putMessage(msg, "").wroteOffset()).isEqualTo(last);
    }

    @Test
    void corruptedBodyByteStopsRecoveryThereAndDropsTheRest() throws IOException {
        List<Long> offsets = write(120);
        long victim = offsets.get(60);
        poke(victim + MessageRecord.BODY_OFFSET + 2, (byte) 'X');
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, true);
        assertThat(r.truncated()).isTrue();
        assertThat(r.maxPhyOffset()).isEqualTo(victim);
        assertThat(log.getMaxOffset()).isEqualTo(victim);
        assertThat(log.mappedFileQueue().lastFile().getFileFromOffset())
                .isEqualTo(victim - victim % FILE_SIZE);
    }

    @Test
    void withoutCrcCheckOnlyStructureIsValidated() throws IOException {
        List<Long> offsets = write(50);
        poke(offsets.get(10) + MessageRecord.BODY_OFFSET, (byte) 'X');
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, false);
        assertThat(r.truncated()).isFalse();
        assertThat(r.maxPhyOffset()).isEqualTo(offsets.get(50));
    }

    @Test
    void cleanShutdownOffsetIsTrustedWithoutScanning() throws IOException {
        List<Long> offsets = write(120);
        long end = offsets.get(120);
        try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
            cp.setCleanShutdownOffset(end);
            cp.flush();
        }
        // damage that a scan would find proves no scan happened
        poke(offsets.get(5) + MessageRecord.BODY_OFFSET, (byte) 'X');
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), true, true);
        assertThat(r.scanned()).isFalse();
        assertThat(r.maxPhyOffset()).isEqualTo(end);
        assertThat(r.dispatchFrom()).isEqualTo(end);
        assertThat(log.getMaxOffset()).isEqualTo(end);
    }

    @Test
    void staleCleanShutdownOffsetFallsBackToAScan() throws IOException {
        List<Long> offsets = write(120);
        try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
            cp.setCleanShutdownOffset(offsets.get(100)); // records exist past it
            cp.flush();
        }
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), true, true);
        assertThat(r.scanned()).isTrue();
        assertThat(r.maxPhyOffset()).isEqualTo(offsets.get(120));
    }

    @Test
    void scanStartsAtTheFileOfTheSafeOffset() throws IOException {
        List<Long> offsets = write(200);
        long safe = offsets.get(150);
        // damage below the safe point is not scanned again (it was on disk with its queue entries)
        poke(offsets.get(3) + MessageRecord.BODY_OFFSET, (byte) 'X');
        try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
            cp.setSafeOffset(safe);
            cp.flush();
        }
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, true);
        assertThat(r.truncated()).isFalse();
        assertThat(r.maxPhyOffset()).isEqualTo(offsets.get(200));
        // queue and index entries below the safe offset were on disk: only the tail above it is dispatched again
        assertThat(r.dispatchFrom()).isEqualTo(safe);
    }

    @Test
    void dispatchResumesAtTheRecordHoldingASafeOffsetInsideIt() throws IOException {
        List<Long> offsets = write(200);
        long safe = offsets.get(150) + 7; // the commit log was flushed into the middle of record 150
        try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
            cp.setSafeOffset(safe);
            cp.flush();
        }
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, true);
        assertThat(r.maxPhyOffset()).isEqualTo(offsets.get(200));
        assertThat(r.dispatchFrom()).isEqualTo(offsets.get(150));
    }

    @Test
    void dispatchNeverResumesPastTheEndOfARecoveredLog() throws IOException {
        List<Long> offsets = write(200);
        try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
            cp.setSafeOffset(offsets.get(200) + 4096); // beyond what the files hold
            cp.flush();
        }
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, true);
        assertThat(r.maxPhyOffset()).isEqualTo(offsets.get(200));
        assertThat(r.dispatchFrom()).isLessThanOrEqualTo(r.maxPhyOffset());
    }

    private void checkpointAt(long safe, long flushedTimestamp) throws IOException {
        try (StoreCheckpoint cp = StoreCheckpoint.open(dir)) {
            cp.setSafeOffset(safe);
            cp.setPhysicMsgTimestamp(flushedTimestamp);
            cp.flush();
        }
    }

    @Test
    void corruptedBodyBelowTheSafeOffsetIsSkippedAndEverythingAfterItKept() throws IOException {
        List<Long> offsets = write(120);
        long end = offsets.get(120);
        long victim = offsets.get(115);
        assertThat(victim).as("in the file holding the safe offset, which recovery scans")
                .isGreaterThanOrEqualTo(end - end % FILE_SIZE);
        checkpointAt(end, 0);
        poke(victim + MessageRecord.BODY_OFFSET + 2, (byte) 'X');
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, true);
        assertThat(r.truncated()).isFalse();
        assertThat(r.maxPhyOffset()).isEqualTo(end);
        assertThat(r.quarantined()).singleElement().satisfies(e -> {
            assertThat(e.offset()).isEqualTo(victim);
            assertThat(e.length()).isEqualTo(offsets.get(116) - victim);
            assertThat(e.topic()).isEqualTo("Recover");
            assertThat(e.reason()).contains("body CRC");
        });
        assertThat(log.selectOneMessage(offsets.get(116))).isNotNull().satisfies(s -> s.release());
    }

    @Test
    void damageAboveTheSafeOffsetIsSkippedWhenLaterRecordsWereFlushedBeforeTheCheckpoint() throws IOException {
        List<Long> offsets = write(120);
        long victim = offsets.get(90);
        checkpointAt(0, Long.MAX_VALUE);
        poke(victim + MessageRecord.TOTAL_SIZE_OFFSET + 3, (byte) 0x7F);
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, true);
        assertThat(r.maxPhyOffset()).isEqualTo(offsets.get(120));
        assertThat(r.quarantined()).singleElement().satisfies(e -> assertThat(e.offset()).isEqualTo(victim));
    }

    @Test
    void zeroedHoleBelowTheSafeOffsetIsSkipped() throws IOException {
        List<Long> offsets = write(120);
        long end = offsets.get(120);
        checkpointAt(end, 0);
        assertThat(offsets.get(110)).isGreaterThanOrEqualTo(end - end % FILE_SIZE);
        long from = offsets.get(110) + 11;
        long to = offsets.get(113) - 5;
        zero(from, to);
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, true);
        assertThat(r.maxPhyOffset()).isEqualTo(end);
        assertThat(r.quarantined()).singleElement().satisfies(e -> {
            assertThat(e.offset()).isEqualTo(offsets.get(110));
            assertThat(e.offset() + e.length()).isEqualTo(offsets.get(113));
        });
    }

    @Test
    void damagedBlankRecordAtAFileEndCostsNoMessage() throws IOException {
        List<Long> offsets = write(120);
        long end = offsets.get(120);
        int lastInFirstFile = 0;
        while (offsets.get(lastInFirstFile + 1) < FILE_SIZE) {
            lastInFirstFile++;
        }
        // the blank record starts where the last record of the first file ends
        long blankAt = offsets.get(lastInFirstFile) + sizeAt(offsets.get(lastInFirstFile));
        assertThat(blankAt).isLessThan(FILE_SIZE);
        checkpointAt(0, Long.MAX_VALUE);
        poke(blankAt + MessageRecord.MAGIC_CODE_OFFSET, (byte) 1);
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, true);
        assertThat(r.maxPhyOffset()).isEqualTo(end);
        assertThat(r.quarantined()).singleElement().satisfies(e -> {
            assertThat(e.offset()).isEqualTo(blankAt);
            assertThat(e.offset() + e.length()).isEqualTo(FILE_SIZE);
        });
    }

    /** TOTALSIZE of the record at {@code offset}, read from the file. */
    private int sizeAt(long offset) throws IOException {
        Path file = dir.resolve("commitlog").resolve(dev.wharf.store.file.MappedFile.fileName(offset - offset % FILE_SIZE));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(4);
            ch.read(b, offset % FILE_SIZE);
            return b.getInt(0);
        }
    }

    @Test
    void emptyLogRecoversToZero() throws IOException {
        CommitLog log = reopen();
        CommitLogRecovery.Result r = CommitLogRecovery.recover(log, checkpoint(), false, true);
        assertThat(r.maxPhyOffset()).isZero();
        assertThat(r.dispatchFrom()).isZero();
    }
}

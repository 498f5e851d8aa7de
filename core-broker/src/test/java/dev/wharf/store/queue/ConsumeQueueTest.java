package dev.wharf.store.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.store.file.SelectMappedBufferResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongUnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsumeQueueTest {

    /** Ten units per file, so a few dozen units cross several files. */
    private static final int UNITS_PER_FILE = 10;
    private static final int FILE_SIZE = UNITS_PER_FILE * ConsumeQueueUnit.SIZE;

    @TempDir
    Path dir;

    private final List<ConsumeQueue> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(ConsumeQueue::shutdown);
    }

    private ConsumeQueue open() {
        ConsumeQueue queue = new ConsumeQueue("orders", 3, dir.resolve("orders").resolve("3"), FILE_SIZE);
        opened.add(queue);
        return queue;
    }

    private ConsumeQueue reopen(ConsumeQueue old) throws IOException {
        old.shutdown();
        opened.remove(old);
        ConsumeQueue queue = open();
        queue.load();
        queue.recover();
        return queue;
    }

    // a deterministic layout: message i lies at i * 100 with a size below 100, so records never overlap
    private static long phy(long i) {
        return i * 100;
    }

    private static int size(long i) {
        return 60 + (int) (i % 30);
    }

    private static long tags(long i) {
        return i * 7 - 3;
    }

    private static void putRange(ConsumeQueue queue, long from, long to) {
        for (long i = from; i < to; i++) {
            assertThat(queue.putUnit(i, phy(i), size(i), tags(i))).isEqualTo(PutUnitStatus.APPENDED);
        }
    }

    /** {phyOffset, size, tagsCode} of unit n, read through the zero-copy view. */
    private static long[] unit(ConsumeQueue queue, long n) {
        SelectMappedBufferResult view = queue.getIndexBuffer(n);
        assertThat(view).as("unit %d", n).isNotNull();
        try {
            ByteBuffer b = view.byteBuffer();
            return new long[] {ConsumeQueueUnit.phyOffset(b, 0), ConsumeQueueUnit.msgSize(b, 0),
                ConsumeQueueUnit.tagsCode(b, 0)};
        } finally {
            view.release();
        }
    }

    private static void assertUnits(ConsumeQueue queue, long from, long to) {
        for (long i = from; i < to; i++) {
            assertThat(unit(queue, i)).as("unit %d", i).containsExactly(phy(i), size(i), tags(i));
        }
    }

    private long[] fileStarts() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("orders").resolve("3"))) {
            return files.mapToLong(p -> Long.parseLong(p.getFileName().toString())).sorted().toArray();
        }
    }

    @Test
    void unitsCrossFilesAndAreFoundByArithmetic() throws IOException {
        ConsumeQueue queue = open();
        assertThat(queue.getMinOffsetInQueue()).isZero();
        assertThat(queue.getMaxOffsetInQueue()).isZero();
        assertThat(queue.getIndexBuffer(0)).isNull();
        assertThat(queue.getLastOffset()).isZero();
        assertThat(queue.getMinPhysicalOffset()).isEqualTo(-1);

        putRange(queue, 0, 95);

        assertThat(fileStarts()).containsExactly(0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800);
        assertThat(queue.getMinOffsetInQueue()).isZero();
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(95);
        assertThat(queue.getLastOffset()).isEqualTo(phy(94) + size(94));
        assertThat(queue.getMinPhysicalOffset()).isZero();
        assertUnits(queue, 0, 95);

        // the view runs from the unit to the end of its file's written part, in whole units
        SelectMappedBufferResult view = queue.getIndexBuffer(13);
        assertThat(view.startOffset()).isEqualTo(13L * ConsumeQueueUnit.SIZE);
        assertThat(view.size()).isEqualTo(7 * ConsumeQueueUnit.SIZE);
        assertThat(ConsumeQueueUnit.phyOffset(view.byteBuffer(), 6 * ConsumeQueueUnit.SIZE)).isEqualTo(phy(19));
        view.release();
        SelectMappedBufferResult tail = queue.getIndexBuffer(92);
        assertThat(tail.size()).isEqualTo(3 * ConsumeQueueUnit.SIZE);
        tail.release();

        assertThat(queue.getIndexBuffer(95)).isNull();
        assertThat(queue.getIndexBuffer(-1)).isNull();
        assertThat(queue.getIndexBuffer(Long.MAX_VALUE)).isNull();
    }

    @Test
    void reopensAfterACleanCloseWithTheSameUnits() throws IOException {
        ConsumeQueue queue = open();
        putRange(queue, 0, 47);
        queue = reopen(queue);

        assertThat(queue.getMinOffsetInQueue()).isZero();
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(47);
        assertThat(queue.getLastOffset()).isEqualTo(phy(46) + size(46));
        assertUnits(queue, 0, 47);

        putRange(queue, 47, 63);
        assertUnits(queue, 0, 63);
        queue = reopen(queue);
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(63);
    }

    @Test
    void reopenOfAFullLastFileKeepsItFull() throws IOException {
        ConsumeQueue queue = open();
        putRange(queue, 0, 30);
        queue = reopen(queue);
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(30);
        putRange(queue, 30, 31);
        assertThat(fileStarts()).containsExactly(0, 200, 400, 600);
        assertUnits(queue, 0, 31);
    }

    /** Overwrites bytes of a queue file as a crash would have left them. */
    private void scribble(long unitIndex, int fieldOffset, ByteBuffer bytes) throws IOException {
        long pos = unitIndex * ConsumeQueueUnit.SIZE;
        long fileStart = pos - pos % FILE_SIZE;
        Path file = dir.resolve("orders").resolve("3").resolve(String.format("%020d", fileStart));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(bytes, pos - fileStart + fieldOffset);
        }
    }

    @Test
    void recoveryCutsATornLastUnit() throws IOException {
        ConsumeQueue queue = open();
        putRange(queue, 0, 25);
        queue.shutdown();
        opened.remove(queue);
        // the crash hit while unit 24 was half written: its offset is there, its size still zero
        scribble(24, ConsumeQueueUnit.MSG_SIZE_OFFSET, ByteBuffer.allocate(12));

        queue = open();
        queue.load();
        queue.recover();

        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(24);
        assertThat(queue.getLastOffset()).isEqualTo(phy(23) + size(23));
        assertUnits(queue, 0, 24);
        // the dispatcher re-puts unit 24 at its place
        assertThat(queue.putUnit(24, phy(24), size(24), tags(24))).isEqualTo(PutUnitStatus.APPENDED);
        assertUnits(queue, 0, 25);
    }

    @Test
    void recoveryCutsAtAZeroedUnitInAnEarlierFileAndDropsLaterFiles() throws IOException {
        ConsumeQueue queue = open();
        putRange(queue, 0, 35);
        queue.shutdown();
        opened.remove(queue);
        // pages lost in a power cut: unit 17 and on are zero in file 1, file 3 still has units
        ByteBuffer zeros = ByteBuffer.allocate(3 * ConsumeQueueUnit.SIZE);
        scribble(17, 0, zeros);

        queue = open();
        queue.load();
        queue.recover();

        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(17);
        assertThat(fileStarts()).containsExactly(0, 200);
        assertUnits(queue, 0, 17);
        putRange(queue, 17, 22);
        assertUnits(queue, 0, 22);
    }

    @Test
    void recoveryCutsAtAUnitWhoseOffsetGoesBackwards() throws IOException {
        ConsumeQueue queue = open();
        putRange(queue, 0, 12);
        queue.shutdown();
        opened.remove(queue);
        // torn garbage that still looks like a message: it would overlap the message before it
        scribble(11, 0, ByteBuffer.allocate(8).putLong(0, phy(10) + 1));

        queue = open();
        queue.load();
        queue.recover();
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(11);
        assertThat(queue.getLastOffset()).isEqualTo(phy(10) + size(10));
    }

    @Test
    void recoveryEndingAtAFileBoundaryKeepsTheNextFileEmpty() throws IOException {
        ConsumeQueue queue = open();
        putRange(queue, 0, 10);
        putRange(queue, 10, 13);
        queue.shutdown();
        opened.remove(queue);
        scribble(10, 0, ByteBuffer.allocate(3 * ConsumeQueueUnit.SIZE));

        queue = open();
        queue.load();
        queue.recover();
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(10);
        assertThat(queue.getLastOffset()).isEqualTo(phy(9) + size(9));
    }

    @Test
    void rePutOfWrittenUnitsIsIgnored() {
        ConsumeQueue queue = open();
        putRange(queue, 0, 30);
        for (long i = 10; i < 30; i++) {
            assertThat(queue.putUnit(i, phy(i), size(i), tags(i))).isEqualTo(PutUnitStatus.DUPLICATE);
        }
        assertThat(queue.putUnit(5, 123_456, 10, 0)).isEqualTo(PutUnitStatus.DUPLICATE);
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(30);
        assertUnits(queue, 0, 30);
        putRange(queue, 30, 31);
    }

    @Test
    void aGapIsFilledWithBlankUnitsThatCarryTheNextMessagesOffset() throws IOException {
        ConsumeQueue queue = open();
        putRange(queue, 0, 5);
        assertThat(queue.putUnit(14, phy(14), size(14), tags(14))).isEqualTo(PutUnitStatus.GAP_FILLED);

        assertThat(queue.getMinOffsetInQueue()).isZero();
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(15);
        for (long i = 5; i < 14; i++) {
            long[] blank = unit(queue, i);
            assertThat(ConsumeQueueUnit.isBlank((int) blank[1])).as("unit %d", i).isTrue();
            assertThat(blank[0]).isEqualTo(phy(14));
        }
        assertThat(unit(queue, 14)).containsExactly(phy(14), size(14), tags(14));
        assertThat(queue.getLastOffset()).isEqualTo(phy(14) + size(14));

        queue = reopen(queue);
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(15);
        assertThat(queue.getMinOffsetInQueue()).isZero();
        assertThat(ConsumeQueueUnit.isBlank((int) unit(queue, 9)[1])).isTrue();
        assertUnits(queue, 0, 5);
        assertUnits(queue, 14, 15);
    }

    @Test
    void aQueueThatStartsLateBeginsAtTheFileBoundaryWithItsMinAtTheFirstUnit() throws IOException {
        ConsumeQueue queue = open();
        assertThat(queue.putUnit(23, phy(23), size(23), tags(23))).isEqualTo(PutUnitStatus.GAP_FILLED);

        assertThat(fileStarts()).containsExactly(400);
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(23);
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(24);
        assertThat(queue.getIndexBuffer(22)).isNull();
        assertThat(queue.getIndexBuffer(5)).isNull();
        assertThat(queue.getMinPhysicalOffset()).isEqualTo(phy(23));
        putRange(queue, 24, 33);
        assertUnits(queue, 23, 33);

        queue = reopen(queue);
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(23);
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(33);
        assertUnits(queue, 23, 33);
    }

    @Test
    void aQueueThatStartsExactlyAtAFileBoundaryNeedsNoBlanks() {
        ConsumeQueue queue = open();
        assertThat(queue.putUnit(40, phy(40), size(40), tags(40))).isEqualTo(PutUnitStatus.APPENDED);
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(40);
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(41);
        assertUnits(queue, 40, 41);
    }

    @Test
    void truncateDropsTheUnitsAtOrPastTheCommitLogEnd() throws IOException {
        ConsumeQueue queue = open();
        putRange(queue, 0, 35);

        queue.truncateDirtyLogicFiles(phy(40));
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(35);

        // the commit log ends where message 17 began
        queue.truncateDirtyLogicFiles(phy(17));
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(17);
        assertThat(queue.getLastOffset()).isEqualTo(phy(16) + size(16));
        assertThat(fileStarts()).containsExactly(0, 200);
        assertThat(queue.getIndexBuffer(17)).isNull();
        assertUnits(queue, 0, 17);

        // a unit whose record runs past the end is dropped too
        queue.truncateDirtyLogicFiles(phy(16) + 1);
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(16);

        // the dispatcher writes the new messages at the freed numbers
        assertThat(queue.putUnit(16, phy(16), size(16), 99)).isEqualTo(PutUnitStatus.APPENDED);
        assertThat(unit(queue, 16)).containsExactly(phy(16), size(16), 99L);

        queue = reopen(queue);
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(17);

        queue.truncateDirtyLogicFiles(0);
        assertThat(queue.getMaxOffsetInQueue()).isZero();
        assertThat(queue.getMinOffsetInQueue()).isZero();
        assertThat(queue.getLastOffset()).isZero();
        assertThat(fileStarts()).containsExactly(0);
        putRange(queue, 0, 3);
        assertUnits(queue, 0, 3);
    }

    @Test
    void truncateOfALateQueueBelowItsFirstMessageEmptiesIt() {
        ConsumeQueue queue = open();
        queue.putUnit(23, phy(23), size(23), tags(23));
        queue.truncateDirtyLogicFiles(phy(23));
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(20);
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(20);
        assertThat(queue.getLastOffset()).isZero();
        assertThat(queue.putUnit(23, phy(23), 5, 1)).isEqualTo(PutUnitStatus.GAP_FILLED);
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(23);
        assertThat(unit(queue, 23)).containsExactly(phy(23), 5L, 1L);
    }

    @Test
    void expiredFilesAreDeletedAndTheMinOffsetCorrected() throws IOException {
        ConsumeQueue queue = open();
        putRange(queue, 0, 35);

        // the commit log now starts at message 22: files 0 and 1 hold only older messages
        assertThat(queue.deleteExpiredFiles(phy(22))).isEqualTo(2);
        assertThat(fileStarts()).containsExactly(400, 600);
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(22);
        assertThat(queue.getMinPhysicalOffset()).isEqualTo(phy(22));
        assertThat(queue.getIndexBuffer(21)).isNull();
        assertThat(queue.getIndexBuffer(3)).isNull();
        assertUnits(queue, 22, 35);

        queue = reopen(queue);
        // after a restart the min is the first unit until the store corrects it
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(20);
        queue.correctMinOffset(phy(22));
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(22);
        queue.correctMinOffset(phy(3));
        assertThat(queue.getMinOffsetInQueue()).as("never moves back").isEqualTo(22);

        // everything expired: the last file stays, nothing is readable, the next unit continues the numbering
        assertThat(queue.deleteExpiredFiles(phy(100))).isEqualTo(1);
        assertThat(fileStarts()).containsExactly(600);
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(35);
        assertThat(queue.getMaxOffsetInQueue()).isEqualTo(35);
        assertThat(queue.getMinPhysicalOffset()).isEqualTo(-1);
        putRange(queue, 35, 37);
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(35);
        assertUnits(queue, 35, 37);
    }

    @Test
    void expiryAcrossABlankGapMovesTheMinPastTheBlanks() {
        ConsumeQueue queue = open();
        putRange(queue, 0, 5);
        queue.putUnit(14, phy(14), size(14), tags(14));
        putRange(queue, 15, 25);

        queue.correctMinOffset(phy(3));
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(3);
        // messages 0 to 4 are gone; the blanks 5 to 13 are skipped
        queue.deleteExpiredFiles(phy(10));
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(14);
        assertThat(queue.getMinPhysicalOffset()).isEqualTo(phy(14));
        // file 0 ends in blanks that carry message 14's offset, so it is kept until message 14 expires too
        queue.deleteExpiredFiles(phy(15));
        assertThat(queue.fileCount()).isEqualTo(2);
        assertThat(queue.getMinOffsetInQueue()).isEqualTo(15);
        assertUnits(queue, 15, 25);
    }

    @Test
    void offsetByTimeFindsTheFirstMessageStoredAtOrAfterTheTimestamp() {
        ConsumeQueue queue = open();
        putRange(queue, 0, 57);
        // store times grow by 10 ms per message, with pairs stored in the same millisecond
        TreeMap<Long, Long> storeTimeByPhy = new TreeMap<>();
        for (long i = 0; i < 57; i++) {
            storeTimeByPhy.put(phy(i), 1_000 + (i / 2) * 10);
        }
        AtomicReference<Long> gone = new AtomicReference<>(-1L);
        LongUnaryOperator storeTime = p -> p < gone.get() ? -1 : storeTimeByPhy.get(p);

        for (long ts = 900; ts <= 1_400; ts += 5) {
            assertThat(queue.getOffsetInQueueByTime(ts, storeTime)).as("ts %d", ts)
                    .isEqualTo(oracleByTime(57, ts, storeTime));
        }
        assertThat(queue.getOffsetInQueueByTime(1_000, storeTime)).isZero();
        assertThat(queue.getOffsetInQueueByTime(1_010, storeTime)).isEqualTo(2);
        assertThat(queue.getOffsetInQueueByTime(1_011, storeTime)).isEqualTo(4);
        assertThat(queue.getOffsetInQueueByTime(5_000, storeTime)).isEqualTo(57);

        // messages below offset phy(20) are gone from the commit log: they count as older than anything
        gone.set(phy(20));
        assertThat(queue.getOffsetInQueueByTime(0, storeTime)).isEqualTo(20);
        assertThat(queue.getOffsetInQueueByTime(1_150, storeTime)).isEqualTo(30);
    }

    /** Linear scan: the first unit whose message is stored at or after ts. */
    private static long oracleByTime(long max, long ts, LongUnaryOperator storeTime) {
        for (long i = 0; i < max; i++) {
            long t = storeTime.applyAsLong(phy(i));
            if (t >= ts) {
                return i;
            }
        }
        return max;
    }

    @Test
    void offsetByTimeSkipsBlankUnits() {
        ConsumeQueue queue = open();
        putRange(queue, 0, 3);
        queue.putUnit(8, phy(8), size(8), tags(8));
        LongUnaryOperator storeTime = p -> p / 100;
        assertThat(queue.getOffsetInQueueByTime(4, storeTime)).isEqualTo(8);
        assertThat(queue.getOffsetInQueueByTime(2, storeTime)).isEqualTo(2);
    }

    @Test
    void readersSeeOnlyCompleteUnitsWhileTheWriterAppends() throws Exception {
        ConsumeQueue queue = open();
        int total = 3_000;
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                long checked = 0;
                while (checked < total) {
                    boolean writerDone = done.get();
                    long max = queue.getMaxOffsetInQueue();
                    if (writerDone && max == checked) {
                        throw new AssertionError("the writer stopped at " + max);
                    }
                    for (long i = checked; i < max; i++) {
                        long[] u = unit(queue, i);
                        if (u[0] != phy(i) || u[1] != size(i) || u[2] != tags(i)) {
                            throw new AssertionError("unit " + i + " read as " + u[0] + "/" + u[1] + "/" + u[2]);
                        }
                    }
                    checked = max;
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "cq-reader");
        reader.start();
        try {
            putRange(queue, 0, total);
        } finally {
            done.set(true);
            reader.join(30_000);
        }
        assertThat(reader.isAlive()).isFalse();
        assertThat(failure.get()).isNull();
    }

    @Test
    void badArgumentsAreRejectedWithAReason() {
        assertThatThrownBy(() -> new ConsumeQueue("t", 0, dir, 30))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("multiple of 20");
        ConsumeQueue queue = open();
        assertThatThrownBy(() -> queue.putUnit(-1, 0, 10, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("orders-3");
        assertThatThrownBy(() -> queue.putUnit(0, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> queue.putUnit(0, -5, 10, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

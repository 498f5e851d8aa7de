package dev.wharf.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MappedFileQueueTest {

    private static final int FILE_SIZE = 1024;
    private static final int UNIT = 16;

    @TempDir
    Path dir;

    private MappedFileQueue queue;

    @AfterEach
    void tearDown() {
        if (queue != null) {
            queue.shutdown(0);
        }
    }

    /** Appends 16-byte units (offset of the unit, then its sequence number) across file boundaries. */
    private void appendUnits(MappedFileQueue q, int count) {
        for (int i = 0; i < count; i++) {
            MappedFile file = q.rollIfFull(0);
            ByteBuffer unit = ByteBuffer.allocate(UNIT);
            long offset = file.getFileFromOffset() + file.getWrotePosition();
            unit.putLong(offset).putLong(i).flip();
            assertThat(file.append(unit)).isTrue();
        }
    }

    @Test
    void appendsRollOverIntoContinuouslyNamedFiles() {
        queue = new MappedFileQueue(dir.resolve("log"), FILE_SIZE);
        assertThat(queue.getMinOffset()).isEqualTo(-1);
        assertThat(queue.getMaxOffset()).isZero();
        int units = FILE_SIZE / UNIT * 3 + 5;
        appendUnits(queue, units);

        assertThat(queue.fileCount()).isEqualTo(4);
        assertThat(queue.getMappedFiles()).extracting(MappedFile::getFileName).containsExactly(
                "00000000000000000000", "00000000000000001024", "00000000000000002048", "00000000000000003072");
        assertThat(queue.getMinOffset()).isZero();
        assertThat(queue.getMaxOffset()).isEqualTo((long) units * UNIT);
        assertThat(queue.getMappedFiles().get(0).isFirstCreateInQueue()).isTrue();
        assertThat(queue.getMappedFiles().get(1).isFirstCreateInQueue()).isFalse();

        for (long offset = 0; offset < (long) units * UNIT; offset += UNIT) {
            MappedFile file = queue.fileAt(offset);
            assertThat(file.getFileFromOffset()).isEqualTo(offset - offset % FILE_SIZE);
            SelectMappedBufferResult unit = file.selectMappedBuffer((int) (offset % FILE_SIZE), UNIT);
            assertThat(unit.byteBuffer().getLong(0)).isEqualTo(offset);
            assertThat(unit.byteBuffer().getLong(8)).isEqualTo(offset / UNIT);
            unit.release();
        }
        assertThat(queue.fileAt(4 * FILE_SIZE)).isNull();
        assertThat(queue.fileAt(-5)).isNull();
        assertThat(queue.firstFile().getFileFromOffset()).isZero();
        assertThat(queue.lastFile().getFileFromOffset()).isEqualTo(3 * FILE_SIZE);
    }

    @Test
    void emptyQueueStartsAtTheFileBoundaryBelowTheRequestedOffset() {
        queue = new MappedFileQueue(dir.resolve("late"), FILE_SIZE);
        assertThat(queue.lastFile()).isNull();
        MappedFile file = queue.rollIfFull(5000);
        assertThat(file.getFileFromOffset()).isEqualTo(4096);
        assertThat(queue.lastFile()).isSameAs(file);
    }

    @Test
    void flushMovesTheFlushPointFileByFile() {
        queue = new MappedFileQueue(dir.resolve("log"), FILE_SIZE);
        appendUnits(queue, FILE_SIZE / UNIT + 3);
        assertThat(queue.howMuchFallBehind()).isEqualTo(FILE_SIZE + 3 * UNIT);
        assertThat(queue.flush(0)).isTrue();
        assertThat(queue.getFlushedWhere()).isEqualTo(FILE_SIZE);
        assertThat(queue.flush(0)).isTrue();
        assertThat(queue.getFlushedWhere()).isEqualTo(FILE_SIZE + 3 * UNIT);
        assertThat(queue.flush(0)).isFalse();
        appendUnits(queue, FILE_SIZE / UNIT * 2);
        assertThat(queue.flushAll()).isEqualTo(3);
        assertThat(queue.howMuchFallBehind()).isZero();
    }

    @Test
    void loadReopensFilesAndTruncateSetsTheEnd() throws IOException {
        Path path = dir.resolve("log");
        MappedFileQueue first = new MappedFileQueue(path, FILE_SIZE);
        appendUnits(first, FILE_SIZE / UNIT * 2 + 10);
        first.flushAll();
        first.shutdown(0);

        queue = new MappedFileQueue(path, FILE_SIZE);
        queue.load();
        assertThat(queue.fileCount()).isEqualTo(3);
        assertThat(queue.getMaxOffset()).as("loaded files count as full until recovery").isEqualTo(3 * FILE_SIZE);

        long end = FILE_SIZE + 5 * UNIT;
        queue.truncateDirtyFiles(end);
        assertThat(queue.fileCount()).isEqualTo(2);
        assertThat(Files.exists(path.resolve(MappedFile.fileName(2 * FILE_SIZE)))).isFalse();
        assertThat(queue.getMaxOffset()).isEqualTo(end);
        assertThat(queue.getFlushedWhere()).isEqualTo(end);
        MappedFile last = queue.lastFile();
        assertThat(last.getLong(5 * UNIT)).as("tail zeroed").isZero();
        assertThat(last.getLong(4 * UNIT)).isEqualTo(end - UNIT);

        // appending continues exactly at the cut
        appendUnits(queue, 1);
        assertThat(last.getLong(5 * UNIT)).isEqualTo(end);
    }

    @Test
    void loadRejectsFilesOfAnotherSize() throws IOException {
        Path path = dir.resolve("log");
        Files.createDirectories(path);
        Files.write(path.resolve(MappedFile.fileName(0)), new byte[FILE_SIZE / 2]);
        queue = new MappedFileQueue(path, FILE_SIZE);
        assertThatThrownBy(queue::load).isInstanceOf(IOException.class)
                .hasMessageContaining("512 bytes but the configured file size is 1024");
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void loadRejectsGapsAndIgnoresForeignFiles() throws IOException {
        Path path = dir.resolve("log");
        Files.createDirectories(path);
        Files.write(path.resolve(MappedFile.fileName(0)), new byte[FILE_SIZE]);
        Files.write(path.resolve(MappedFile.fileName(2 * FILE_SIZE)), new byte[FILE_SIZE]);
        Files.write(path.resolve("notes.txt"), new byte[3]);
        queue = new MappedFileQueue(path, FILE_SIZE);
        assertThatThrownBy(queue::load).isInstanceOf(IOException.class).hasMessageContaining("not continuous");

        Files.delete(path.resolve(MappedFile.fileName(2 * FILE_SIZE)));
        queue.load();
        assertThat(queue.fileCount()).isEqualTo(1);
    }

    @Test
    void deleteExpiredByTimeKeepsTheLastFileAndRecentFiles() throws IOException {
        queue = new MappedFileQueue(dir.resolve("log"), FILE_SIZE);
        appendUnits(queue, FILE_SIZE / UNIT * 4 + 1);
        queue.flushAll();
        List<MappedFile> files = queue.getMappedFiles();
        long old = System.currentTimeMillis() - 10 * 3_600_000L;
        for (int i = 0; i < 3; i++) {
            Files.setLastModifiedTime(files.get(i).getPath(), FileTime.fromMillis(old));
        }
        assertThat(queue.deleteExpiredFileByTime(3_600_000L, 0, 1000, false, 10)).isEqualTo(3);
        assertThat(queue.getMinOffset()).isEqualTo(3 * FILE_SIZE);
        assertThat(queue.fileAt(0)).isNull();
        assertThat(queue.fileAt(3 * FILE_SIZE + 8).getFileFromOffset()).isEqualTo(3 * FILE_SIZE);

        assertThat(queue.deleteExpiredFileByTime(3_600_000L, 0, 1000, false, 10)).as("recent").isZero();
        assertThat(queue.deleteExpiredFileByTime(3_600_000L, 0, 1000, true, 10)).as("at once").isEqualTo(1);
        assertThat(queue.fileCount()).as("the file being written is never deleted").isEqualTo(1);
    }

    @Test
    void deleteStopsAtAFileStillInUseAndRetriesLater() {
        queue = new MappedFileQueue(dir.resolve("log"), FILE_SIZE);
        appendUnits(queue, FILE_SIZE / UNIT * 2 + 1);
        SelectMappedBufferResult reader = queue.firstFile().selectMappedBuffer(0, UNIT);

        assertThat(queue.deleteExpiredFileByTime(0, 0, 60_000, true, 10)).isZero();
        assertThat(queue.fileCount()).isEqualTo(3);
        assertThat(reader.byteBuffer().getLong(0)).isZero();
        reader.release();
        assertThat(queue.retryDeleteFirstFile(60_000)).isTrue();
        assertThat(queue.getMinOffset()).isEqualTo(FILE_SIZE);
    }

    @Test
    void truncationRemovesCutFilesFromTheFolderEvenWhileAReaderStillMapsThem() throws IOException {
        queue = new MappedFileQueue(dir.resolve("log"), FILE_SIZE);
        appendUnits(queue, FILE_SIZE / UNIT * 2 + 1);
        MappedFile third = queue.lastFile();
        SelectMappedBufferResult reader = third.selectMappedBuffer(0, UNIT);

        queue.truncateDirtyFiles(FILE_SIZE / 2);

        // a restart must not find the cut file and load its records again
        try (var files = Files.list(dir.resolve("log"))) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactly("00000000000000000000");
        }
        assertThat(third.isCleanupOver()).as("the reader's mapping is kept until it lets go").isFalse();
        assertThat(reader.byteBuffer().getLong(0)).isEqualTo(2L * FILE_SIZE);
        reader.release();
        assertThat(third.isCleanupOver()).isTrue();
    }

    @Test
    void deleteByOffsetRemovesFilesWhoseLastUnitPointsBelow() {
        queue = new MappedFileQueue(dir.resolve("cq"), FILE_SIZE);
        // each unit's first long is its own offset here, standing in for a commit-log offset
        appendUnits(queue, FILE_SIZE / UNIT * 3 + 2);
        assertThat(queue.deleteExpiredFileByOffset(FILE_SIZE, UNIT)).as("last unit of file 0 < 1024").isEqualTo(1);
        assertThat(queue.deleteExpiredFileByOffset(FILE_SIZE, UNIT)).isZero();
        assertThat(queue.deleteExpiredFileByOffset(Long.MAX_VALUE, UNIT)).as("keeps the last file").isEqualTo(2);
        assertThat(queue.getMinOffset()).isEqualTo(3 * FILE_SIZE);
    }

    @Test
    void deleteFirstFileIfBelow() {
        queue = new MappedFileQueue(dir.resolve("log"), FILE_SIZE);
        appendUnits(queue, FILE_SIZE / UNIT * 2);
        assertThat(queue.deleteFirstFileIfBelow(FILE_SIZE - 1, 0)).isFalse();
        assertThat(queue.deleteFirstFileIfBelow(FILE_SIZE, 0)).isTrue();
        assertThat(queue.deleteFirstFileIfBelow(Long.MAX_VALUE, 0)).as("last file stays").isFalse();
    }

    @Test
    void readersFollowAConcurrentWriterAcrossFiles() throws Exception {
        queue = new MappedFileQueue(dir.resolve("log"), FILE_SIZE);
        int units = FILE_SIZE / UNIT * 20;
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                long next = 0;
                while (next < (long) units * UNIT) {
                    MappedFile file = queue.fileAt(next);
                    SelectMappedBufferResult unit = file == null ? null
                            : file.selectMappedBuffer((int) (next % FILE_SIZE), UNIT);
                    if (unit == null) {
                        if (done.get() && next >= queue.getMaxOffset()) {
                            throw new AssertionError("writer finished but unit at " + next + " unreadable");
                        }
                        Thread.onSpinWait();
                        continue;
                    }
                    try {
                        if (unit.byteBuffer().getLong(0) != next || unit.byteBuffer().getLong(8) != next / UNIT) {
                            throw new AssertionError("torn read at " + next);
                        }
                    } finally {
                        unit.release();
                    }
                    next += UNIT;
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        reader.start();
        appendUnits(queue, units);
        done.set(true);
        reader.join(10_000);
        assertThat(reader.isAlive()).isFalse();
        assertThat(failure.get()).isNull();
    }

    @Test
    void lookupsNeverFailWhileTheHeadIsDeleted() throws Exception {
        queue = new MappedFileQueue(dir.resolve("log"), FILE_SIZE);
        int files = 12;
        appendUnits(queue, FILE_SIZE / UNIT * files);
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                while (!done.get()) {
                    for (long offset = 0; offset < (long) files * FILE_SIZE; offset += FILE_SIZE / 2) {
                        MappedFile file = queue.fileAt(offset);
                        if (file == null) {
                            if (offset >= queue.getMinOffset() && queue.getMinOffset() >= 0) {
                                throw new AssertionError("no file for " + offset + " above the head " + queue.getMinOffset());
                            }
                            continue;
                        }
                        if (offset < file.getFileFromOffset() || offset >= file.getFileFromOffset() + FILE_SIZE) {
                            throw new AssertionError("file " + file.getFileName() + " does not hold " + offset);
                        }
                    }
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        reader.start();
        for (int i = 0; i < files - 1; i++) {
            assertThat(queue.deleteFirstFileIfBelow((long) (i + 1) * FILE_SIZE, 0)).isTrue();
        }
        done.set(true);
        reader.join(10_000);
        assertThat(reader.isAlive()).isFalse();
        assertThat(failure.get()).isNull();
        assertThat(queue.fileCount()).isOne();
        assertThat(queue.fileAt(0)).isNull();
        assertThat(queue.lastFile().getFileFromOffset()).isEqualTo((files - 1L) * FILE_SIZE);
    }

    @Test
    void destroyRemovesEverything() {
        Path path = dir.resolve("log");
        MappedFileQueue q = new MappedFileQueue(path, FILE_SIZE);
        appendUnits(q, FILE_SIZE / UNIT + 1);
        q.destroy();
        assertThat(q.isEmpty()).isTrue();
        assertThat(Files.exists(path)).isFalse();
    }
}

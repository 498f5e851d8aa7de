package dev.wharf.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MappedFileTest {

    @TempDir
    Path dir;

    @Test
    void fileNamesAreTwentyDigitOffsets() {
        assertThat(MappedFile.fileName(0)).isEqualTo("00000000000000000000");
        assertThat(MappedFile.fileName(1073741824L)).isEqualTo("00000000001073741824");
        assertThat(MappedFile.parseOffset("00000000001073741824")).isEqualTo(1073741824L);
        assertThat(MappedFile.isStoreFileName("0000000000000000000x")).isFalse();
        assertThatThrownBy(() -> MappedFile.parseOffset("abc"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("20 decimal digits");
        assertThatThrownBy(() -> MappedFile.fileName(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void appendsAreReadableUpToTheWritePositionOnly() throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(4096)), 4096);
        try {
            assertThat(file.getFileFromOffset()).isEqualTo(4096);
            assertThat(Files.size(file.getPath())).isEqualTo(4096);
            assertThat(file.append(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}))).isTrue();
            assertThat(file.append(new byte[] {9, 5, 6, 9}, 1, 2)).isTrue();
            assertThat(file.getWrotePosition()).isEqualTo(6);

            SelectMappedBufferResult view = file.selectMappedBuffer(2, 4);
            assertThat(view.startOffset()).isEqualTo(4096 + 2);
            assertThat(view.size()).isEqualTo(4);
            byte[] read = new byte[4];
            view.byteBuffer().get(read);
            assertThat(read).containsExactly(3, 4, 5, 6);
            view.release();
            view.release(); // second release is ignored
            assertThat(file.referenceCount()).isEqualTo(1);

            assertThat(file.selectMappedBuffer(4, 3)).as("past the write position").isNull();
            assertThat(file.selectMappedBuffer(6)).as("nothing written there").isNull();
            SelectMappedBufferResult rest = file.selectMappedBuffer(1);
            assertThat(rest.size()).isEqualTo(5);
            rest.release();
        } finally {
            file.destroy(0);
        }
    }

    @Test
    void appendThatDoesNotFitWritesNothing() throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(0)), 16);
        try {
            assertThat(file.append(ByteBuffer.allocate(10))).isTrue();
            assertThat(file.append(ByteBuffer.allocate(7))).isFalse();
            assertThat(file.getWrotePosition()).isEqualTo(10);
            assertThat(file.append(ByteBuffer.allocate(6))).isTrue();
            assertThat(file.isFull()).isTrue();
        } finally {
            file.destroy(0);
        }
    }

    @ParameterizedTest(name = "forced per record: {0}")
    @ValueSource(booleans = {false, true})
    void appendLastClaimsTheRestOfTheFile(boolean forcedPerRecord) throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(1024)), 1024);
        file.setForcedPerRecord(forcedPerRecord);
        try {
            assertThat(file.append(ByteBuffer.allocate(8).putLong(0, 1024))).isTrue();
            assertThat(file.appendLast(ByteBuffer.allocate(4).putInt(0, 1016))).isTrue();
            assertThat(file.isFull()).isTrue();
            assertThat(file.getLong(0)).isEqualTo(1024);
            assertThat(file.getInt(8)).isEqualTo(1016);
            assertThat(file.appendLast(ByteBuffer.allocate(1))).as("nothing fits a full file").isFalse();
        } finally {
            file.destroy(0);
        }
    }

    @Test
    void aFileForcedPerRecordIsWrittenThroughAChannelHeldUntilItIsFull() throws IOException {
        Path path = dir.resolve(MappedFile.fileName(0));
        MappedFile file = new MappedFile(path, 2 * MappedFile.OS_PAGE_SIZE);
        file.setForcedPerRecord(true);
        try {
            assertThat(file.append(ByteBuffer.wrap(new byte[] {1, 2, 3}))).isTrue();
            assertThat(file.append(new byte[] {9, 4, 5, 9}, 1, 2)).isTrue();
            assertThat(file.hasOpenWriteChannel()).isTrue();

            SelectMappedBufferResult view = file.selectMappedBuffer(0, 5);
            byte[] mapped = new byte[5];
            view.byteBuffer().get(mapped);
            view.release();
            assertThat(mapped).as("the mapping sees what was written").containsExactly(1, 2, 3, 4, 5);
            assertThat(file.flush(0)).isEqualTo(5);
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                ByteBuffer read = ByteBuffer.allocate(5);
                channel.read(read, 0);
                assertThat(read.array()).containsExactly(1, 2, 3, 4, 5);
            }

            assertThat(file.appendLast(ByteBuffer.wrap(new byte[] {6}))).isTrue();
            assertThat(file.isFull()).isTrue();
            assertThat(file.hasOpenWriteChannel()).as("a full file holds no descriptor").isFalse();
        } finally {
            file.destroy(0);
        }
    }

    @Test
    void aRecordLargerThanOneWriteIsWrittenInParts() throws IOException {
        Path path = dir.resolve(MappedFile.fileName(0));
        MappedFile file = new MappedFile(path, 1024 * 1024);
        file.setForcedPerRecord(true);
        byte[] record = new byte[PositionalWriter.MAX_WRITE_BYTES * 2 + 1000];
        new java.util.Random(7).nextBytes(record);
        try {
            assertThat(file.append(ByteBuffer.wrap(new byte[] {5}))).isTrue();
            ByteBuffer data = ByteBuffer.wrap(record);
            assertThat(file.append(data)).isTrue();
            assertThat(data.hasRemaining()).isFalse();
            assertThat(file.getWrotePosition()).isEqualTo(1 + record.length);
            assertThat(file.flush(0)).isEqualTo(1 + record.length);
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                ByteBuffer read = ByteBuffer.allocate(record.length);
                while (read.hasRemaining() && channel.read(read, 1 + read.position()) > 0) {
                    // reads until the record is in
                }
                assertThat(read.array()).isEqualTo(record);
            }
        } finally {
            file.destroy(0);
        }
    }

    @Test
    void anInterruptedWriteThroughAppendsNothingAndTheFileStaysUsable() throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(0)), MappedFile.OS_PAGE_SIZE * 2);
        file.setForcedPerRecord(true);
        try {
            assertThat(file.append(ByteBuffer.wrap(new byte[] {1, 1}))).isTrue();
            Thread.currentThread().interrupt();
            try {
                assertThatThrownBy(() -> file.append(ByteBuffer.wrap(new byte[] {7, 7, 7, 7})))
                        .isInstanceOf(UncheckedIOException.class)
                        .hasCauseInstanceOf(ClosedByInterruptException.class)
                        .hasMessageContaining("4 bytes at position 2");
            } finally {
                assertThat(Thread.interrupted()).isTrue();
            }
            assertThat(file.getWrotePosition()).isEqualTo(2);
            assertThat(file.getInt(2)).as("nothing of the failed write is left behind").isZero();

            assertThat(file.append(ByteBuffer.wrap(new byte[] {2, 2}))).isTrue();
            assertThat(file.hasOpenWriteChannel()).isTrue();
            assertThat(file.getInt(0)).isEqualTo(0x01010202);
        } finally {
            file.destroy(0);
            assertThat(file.hasOpenWriteChannel()).as("destroying closes the channel").isFalse();
        }
    }

    @Test
    void flushHonoursLeastPagesUnlessZeroOrFull() throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(0)), 8 * MappedFile.OS_PAGE_SIZE);
        try {
            file.append(ByteBuffer.allocate(MappedFile.OS_PAGE_SIZE + 10));
            assertThat(file.flush(2)).as("one page dirty, two required").isZero();
            assertThat(file.flush(1)).isEqualTo(MappedFile.OS_PAGE_SIZE + 10);
            file.append(ByteBuffer.allocate(5));
            assertThat(file.flush(0)).isEqualTo(MappedFile.OS_PAGE_SIZE + 15);
            file.append(ByteBuffer.allocate(8 * MappedFile.OS_PAGE_SIZE - MappedFile.OS_PAGE_SIZE - 15));
            assertThat(file.flush(4)).as("a full file is always flushed").isEqualTo(8 * MappedFile.OS_PAGE_SIZE);
        } finally {
            file.destroy(0);
        }
    }

    @Test
    void destroyWaitsForViewsThenDeletes() throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(0)), 4096);
        file.append(ByteBuffer.wrap(new byte[] {7, 7, 7}));
        SelectMappedBufferResult view = file.selectMappedBuffer(0, 3);

        assertThat(file.destroy(60_000)).as("a view is still in use").isFalse();
        assertThat(Files.exists(file.getPath())).isTrue();
        assertThat(view.byteBuffer().get(1)).as("the view stays readable").isEqualTo((byte) 7);
        assertThat(file.selectMappedBuffer(0, 3)).as("no new views once shutting down").isNull();
        assertThat(file.hold()).isFalse();

        view.release();
        assertThat(file.isCleanupOver()).isTrue();
        assertThat(file.destroy(60_000)).isTrue();
        assertThat(Files.exists(file.getPath())).isFalse();
    }

    @Test
    void destroyIsForcedAfterTheGracePeriod() throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(0)), 4096);
        file.append(ByteBuffer.allocate(8));
        SelectMappedBufferResult leaked = file.selectMappedBuffer(0, 8);
        assertThat(leaked).isNotNull();
        assertThat(file.destroy(0)).as("first call only shuts down").isFalse();
        assertThat(file.destroy(0)).as("second call past the interval forces it").isTrue();
        assertThat(Files.exists(file.getPath())).isFalse();
        leaked.release(); // must not clean up twice or throw
        assertThat(file.isCleanupOver()).isTrue();
    }

    @Test
    void zeroFromClearsTheTailOnly() throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(0)), 3 * MappedFile.OS_PAGE_SIZE);
        try {
            byte[] ones = new byte[2 * MappedFile.OS_PAGE_SIZE + 100];
            java.util.Arrays.fill(ones, (byte) 1);
            file.append(ByteBuffer.wrap(ones));
            file.zeroFrom(13);
            file.setWrotePosition(ones.length);
            SelectMappedBufferResult all = file.selectMappedBuffer(0);
            for (int i = 0; i < all.size(); i++) {
                assertThat(all.byteBuffer().get(i)).isEqualTo(i < 13 ? (byte) 1 : (byte) 0);
            }
            all.release();
            assertThatThrownBy(() -> file.zeroFrom(-1)).isInstanceOf(IllegalArgumentException.class);
        } finally {
            file.destroy(0);
        }
    }

    @Test
    void warmTouchesTheFileWithoutMovingPositions() throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(0)), 2 * MappedFile.OS_PAGE_SIZE);
        try {
            file.warm();
            assertThat(file.getWrotePosition()).isZero();
            assertThat(file.append(ByteBuffer.allocate(2 * MappedFile.OS_PAGE_SIZE))).isTrue();
        } finally {
            file.destroy(0);
        }
    }
}

package dev.wharf.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void callbackAppendsAndMayClaimTheRestOfTheFile() throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(1024)), 1024);
        try {
            int advanced = file.append((fromOffset, target) -> {
                assertThat(fromOffset).isEqualTo(1024);
                assertThat(target.position()).isZero();
                target.putLong(fromOffset + target.position());
                return Long.BYTES;
            });
            assertThat(advanced).isEqualTo(8);
            int rest = file.append((fromOffset, target) -> {
                int room = target.remaining();
                target.putInt(room);
                return room;
            });
            assertThat(rest).isEqualTo(1016);
            assertThat(file.isFull()).isTrue();
            assertThat(file.getLong(0)).isEqualTo(1024);
            assertThat(file.getInt(8)).isEqualTo(1016);
            assertThatThrownBy(() -> file.append((f, t) -> 1)).isInstanceOf(IllegalStateException.class);
        } finally {
            file.destroy(0);
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

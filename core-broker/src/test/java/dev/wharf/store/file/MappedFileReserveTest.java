package dev.wharf.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.store.TmpfsMount;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reserving disk blocks ahead of mapped writes, and zeroing only what a truncation needs. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MappedFileReserveTest {

    private static final int PAGE = MappedFile.OS_PAGE_SIZE;

    @TempDir
    Path dir;

    @Test
    void appendsReserveStepByStepAheadOfTheWriter() throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(0)), 64 * PAGE);
        try {
            file.setReserveStep(4 * PAGE, false);
            assertThat(file.getReservedPosition()).isZero();
            assertThat(file.append(ByteBuffer.allocate(100))).isTrue();
            assertThat(file.getReservedPosition()).as("one step, which covers the page after the data")
                    .isEqualTo(4 * PAGE);
            assertThat(file.append(ByteBuffer.allocate(3 * PAGE))).isTrue();
            assertThat(file.getReservedPosition()).as("the page after the data is reserved too").isEqualTo(8 * PAGE);
            assertThat(file.append(ByteBuffer.allocate(60 * PAGE - 100))).isTrue();
            assertThat(file.getReservedPosition()).as("never past the file").isEqualTo(64 * PAGE);
        } finally {
            file.destroy(0);
        }
    }

    /**
     * After a truncation only one step is zeroed; bytes an earlier run left further on are zeroed by the
     * reservations before records reach them, so no stale byte ever follows the last record written. The same
     * with reservations prepared for forces of single records.
     */
    @ParameterizedTest(name = "forcedPerRecord = {0}")
    @ValueSource(booleans = {false, true})
    void truncationZeroesOneStepAndReservationsZeroTheRestBeforeTheWriterGetsThere(boolean forcedPerRecord)
            throws IOException {
        Path path = dir.resolve(MappedFile.fileName(0));
        MappedFile first = new MappedFile(path, 32 * PAGE);
        byte[] ones = new byte[20 * PAGE];
        Arrays.fill(ones, (byte) 1);
        first.append(ByteBuffer.wrap(ones));
        first.flush(0);
        first.shutdown(0);

        MappedFile file = new MappedFile(path, 32 * PAGE); // as a restart loads it
        try {
            file.setReserveStep(4 * PAGE, true);
            file.setForcedPerRecord(forcedPerRecord);
            int cut = 1000;
            file.setWrotePosition(cut);
            file.zeroFrom(cut);
            assertThat(file.getInt(cut)).isZero();
            assertThat(file.getReservedPosition()).isEqualTo(4 * PAGE);
            assertThat(file.getLong(4 * PAGE - 8)).as("zeroed to the step's end").isZero();
            assertThat(file.getLong(4 * PAGE)).as("beyond it, untouched").isEqualTo(0x0101010101010101L);

            byte[] twos = new byte[6 * PAGE];
            Arrays.fill(twos, (byte) 2);
            assertThat(file.append(ByteBuffer.wrap(twos))).isTrue();
            int end = cut + twos.length;
            assertThat(file.getLong(end)).as("right after the last record: zeros, not the earlier run's bytes")
                    .isZero();
            for (int pos = (end + 7) / 8 * 8; pos + 8 <= file.getReservedPosition(); pos += 8) {
                assertThat(file.getLong(pos)).as("byte %d", pos).isZero();
            }
            assertThat(file.getReservedPosition()).isEqualTo(8 * PAGE);
        } finally {
            file.destroy(0);
        }
    }

    @Test
    void reserveKeepingContentLeavesTheBytesAsTheyWere() throws IOException {
        MappedFile file = new MappedFile(dir.resolve(MappedFile.fileName(0)), 8 * PAGE);
        try {
            file.setReserveStep(PAGE, false);
            file.putLong(3 * PAGE + 8, 42L);
            file.reserveKeepingContent(5 * PAGE);
            assertThat(file.getLong(3 * PAGE + 8)).isEqualTo(42L);
            assertThat(file.getReservedPosition()).isEqualTo(5 * PAGE);
            assertThatThrownBy(() -> file.reserveKeepingContent(9 * PAGE)).isInstanceOf(IllegalArgumentException.class);
        } finally {
            file.destroy(0);
        }
    }

    /**
     * On a real full file system a reservation fails as an IOException and nothing is appended, also when the
     * disk fills in the middle of a step filled a page at a time.
     */
    @ParameterizedTest(name = "forcedPerRecord = {0}")
    @ValueSource(booleans = {false, true})
    @EnabledOnOs(OS.LINUX)
    void aFullFileSystemRefusesTheReservationNotTheMappedWrite(boolean forcedPerRecord) throws Exception {
        try (TmpfsMount disk = TmpfsMount.mount(dir.resolve("disk"), 2)) {
            MappedFile file = new MappedFile(disk.dir().resolve(MappedFile.fileName(0)), 4 * 1024 * 1024);
            try {
                file.setReserveStep(64 * PAGE, false);
                file.setForcedPerRecord(forcedPerRecord);
                assertThat(file.append(ByteBuffer.allocate(PAGE))).isTrue();
                disk.fill();
                int appended = 0;
                while (file.append(ByteBuffer.allocate(PAGE))) {
                    appended++;
                }
                assertThat(appended).as("only what was reserved before the disk filled").isLessThan(64);
                int stuckAt = file.getWrotePosition();
                assertThatThrownBy(() -> file.reserve(stuckAt + PAGE)).isInstanceOf(IOException.class)
                        .hasMessageContaining("No space left on device");

                disk.free();
                assertThat(file.append(ByteBuffer.allocate(PAGE))).as("room again").isTrue();
                assertThat(file.getWrotePosition()).isEqualTo(stuckAt + PAGE);
            } finally {
                file.destroy(0);
                Files.deleteIfExists(disk.dir().resolve("filler"));
            }
        }
    }
}

package dev.wharf.broker.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The timer's settled bitmap against a BitSet, through flushes and reloads. */
class SettledBitmapTest {

    @TempDir
    Path dir;

    @Test
    void bitsSurviveFlushAndReloadAcrossSegments() throws IOException {
        SettledBitmap bitmap = new SettledBitmap(dir);
        BitSet oracle = new BitSet();
        Random random = new Random(3);
        long span = 3 * SettledBitmap.BITS_PER_SEGMENT;
        for (int i = 0; i < 50_000; i++) {
            int offset = random.nextInt((int) span);
            bitmap.set(offset);
            oracle.set(offset);
            if (i % 10_000 == 0) {
                bitmap.flush();
            }
        }
        bitmap.setRange(100, 300);
        oracle.set(100, 300);
        bitmap.flush();

        SettledBitmap reloaded = new SettledBitmap(dir);
        reloaded.load(0);
        for (int i = 0; i < span; i += 7) {
            assertThat(reloaded.isSet(i)).as("bit %d", i).isEqualTo(oracle.get(i));
        }
        assertThat(reloaded.segmentCount()).isEqualTo(3);
    }

    @Test
    void firstClearFindsTheLowWaterMark() {
        SettledBitmap bitmap = new SettledBitmap(dir);
        assertThat(bitmap.firstClear(0, 10)).isZero();
        bitmap.setRange(0, 130);
        assertThat(bitmap.firstClear(0, 1_000)).isEqualTo(130);
        assertThat(bitmap.firstClear(0, 100)).as("never past the limit").isEqualTo(100);
        bitmap.set(131);
        assertThat(bitmap.firstClear(5, 1_000)).isEqualTo(130);
        bitmap.set(130);
        assertThat(bitmap.firstClear(5, 1_000)).isEqualTo(132);
        long far = SettledBitmap.BITS_PER_SEGMENT - 3;
        bitmap.setRange(132, SettledBitmap.BITS_PER_SEGMENT + 2);
        assertThat(bitmap.firstClear(0, Long.MAX_VALUE)).isEqualTo(SettledBitmap.BITS_PER_SEGMENT + 2);
        assertThat(bitmap.firstClear(far, far + 1)).isEqualTo(far + 1);
    }

    @Test
    void oldSegmentsAreDroppedAndNewerOnesKept() throws IOException {
        SettledBitmap bitmap = new SettledBitmap(dir);
        long seg = SettledBitmap.BITS_PER_SEGMENT;
        bitmap.set(5);
        bitmap.set(seg + 5);
        bitmap.set(2 * seg + 5);
        bitmap.flush();
        assertThat(files()).isEqualTo(3);
        bitmap.dropBelow(2 * seg + 1);
        assertThat(files()).isEqualTo(1);
        assertThat(bitmap.isSet(5)).isFalse();
        assertThat(bitmap.isSet(2 * seg + 5)).isTrue();

        bitmap.set(3 * seg);
        bitmap.flush();
        SettledBitmap reloaded = new SettledBitmap(dir);
        reloaded.load(3 * seg);
        assertThat(files()).as("loading from a later mark deletes older files").isEqualTo(1);
        assertThat(reloaded.isSet(3 * seg)).isTrue();
    }

    @Test
    void clearFromForgetsOffsetsTheQueueNoLongerHas() throws IOException {
        SettledBitmap bitmap = new SettledBitmap(dir);
        bitmap.setRange(0, 200);
        bitmap.set(SettledBitmap.BITS_PER_SEGMENT + 1);
        bitmap.flush();
        bitmap.clearFrom(70);
        bitmap.flush();
        SettledBitmap reloaded = new SettledBitmap(dir);
        reloaded.load(0);
        assertThat(reloaded.firstClear(0, 1_000)).isEqualTo(70);
        assertThat(reloaded.isSet(69)).isTrue();
        assertThat(reloaded.isSet(64)).isTrue();
        assertThat(reloaded.isSet(150)).isFalse();
        assertThat(reloaded.isSet(SettledBitmap.BITS_PER_SEGMENT + 1)).isFalse();
    }

    private long files() throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.count();
        }
    }
}

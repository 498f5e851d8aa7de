package dev.wharf.broker.ack.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class OffsetBitSetTest {

    @Test
    void theFloorMovesOverConsecutiveDoneOffsetsOnly() {
        OffsetBitSet set = new OffsetBitSet(10);
        assertThat(set.isDone(9)).isTrue();
        assertThat(set.markDone(12)).isTrue();
        assertThat(set.markDone(12)).isFalse();
        assertThat(set.floor()).isEqualTo(10);
        assertThat(set.markDone(11)).isTrue();
        assertThat(set.floor()).isEqualTo(10);
        assertThat(set.markDone(10)).isTrue();
        assertThat(set.floor()).isEqualTo(13);
        assertThat(set.countDoneAboveFloor()).isZero();
        assertThat(set.markDone(5)).isFalse();
    }

    @Test
    void behavesLikeASortedSetOracleUnderRandomMarks() {
        Random random = new Random(42);
        for (int round = 0; round < 20; round++) {
            long start = random.nextInt(1000);
            OffsetBitSet set = new OffsetBitSet(start);
            TreeSet<Long> done = new TreeSet<>();
            long floor = start;
            for (int i = 0; i < 5_000; i++) {
                long offset = start + random.nextInt(3_000);
                if (random.nextInt(50) == 0) {
                    long below = start + random.nextInt(3_000);
                    set.markDoneBelow(below);
                    floor = Math.max(floor, below);
                } else {
                    boolean expected = offset >= floor && done.add(offset);
                    assertThat(set.markDone(offset)).isEqualTo(expected);
                }
                while (done.contains(floor)) {
                    floor++;
                }
                done.headSet(floor).clear();
                assertThat(set.floor()).isEqualTo(floor);
                assertThat(set.countDoneAboveFloor()).isEqualTo(done.size());
                assertThat(set.highestDone()).isEqualTo(done.isEmpty() ? floor - 1 : done.last());
            }
            for (long o = start; o < start + 3_100; o++) {
                assertThat(set.isDone(o)).as("offset %d", o).isEqualTo(o < floor || done.contains(o));
            }
        }
    }

    @Test
    void aStuckFloorCostsOneBitPerOffset() {
        OffsetBitSet set = new OffsetBitSet(0);
        for (long o = 1; o < 640_001; o++) {
            set.markDone(o);
        }
        assertThat(set.floor()).isZero();
        assertThat(set.exportWords()).hasSize(10_001);
        set.markDone(0);
        assertThat(set.floor()).isEqualTo(640_001);
        assertThat(set.exportWords()).isEmpty();
    }

    @Test
    void exportAndRestoreGiveTheSameState() {
        OffsetBitSet set = new OffsetBitSet(100);
        for (long o : new long[] {101, 130, 190, 1000}) {
            set.markDone(o);
        }
        OffsetBitSet copy = new OffsetBitSet(0);
        copy.restore(set.floor(), set.wordBase(), set.exportWords());
        for (long o = 0; o < 1100; o++) {
            assertThat(copy.isDone(o)).as("offset %d", o).isEqualTo(set.isDone(o));
        }
        copy.markDone(100);
        assertThat(copy.floor()).isEqualTo(102);
    }

    @Test
    void restoreRejectsPartsThatDoNotFit() {
        assertThatThrownBy(() -> new OffsetBitSet(0).restore(200, 64, new long[] {1L}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("do not fit");
    }
}

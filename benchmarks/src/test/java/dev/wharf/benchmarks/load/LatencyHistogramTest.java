package dev.wharf.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The histogram against an exact oracle (a sorted array). */
class LatencyHistogramTest {

    @Test
    void bucketsAreContiguousAndEachValueFallsInItsOwn() {
        long expectedLow = 0;
        for (int i = 0; i < 3_000; i++) {
            assertThat(LatencyHistogram.lowest(i)).as("bucket %d", i).isEqualTo(expectedLow);
            assertThat(LatencyHistogram.index(LatencyHistogram.lowest(i))).isEqualTo(i);
            assertThat(LatencyHistogram.index(LatencyHistogram.highest(i))).isEqualTo(i);
            expectedLow = LatencyHistogram.highest(i) + 1;
        }
        assertThat(LatencyHistogram.index(Long.MAX_VALUE)).isLessThan(3_712);
        assertThat(LatencyHistogram.highest(LatencyHistogram.index(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void percentilesAreWithinOneSixtyFourthAboveTheExactValue() {
        SplittableRandom random = new SplittableRandom(7);
        long[] values = new long[100_000];
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 0; i < values.length; i++) {
            // a long tail: mostly hundreds of microseconds, some milliseconds and seconds
            values[i] = (long) Math.exp(random.nextDouble() * 16);
            h.record(values[i]);
        }
        Arrays.sort(values);
        for (double p : new double[] {1, 50, 90, 99, 99.9, 99.99, 100}) {
            long exact = values[(int) Math.ceil(p / 100 * values.length) - 1];
            assertThat(h.percentile(p)).as("p%s", p).isBetween(exact, exact + exact / 64);
        }
        assertThat(h.max()).isEqualTo(values[values.length - 1]);
        assertThat(h.count()).isEqualTo(values.length);
        assertThat(h.mean()).isCloseTo(Arrays.stream(values).average().orElseThrow(), org.assertj.core.data.Offset.offset(0.001));
    }

    @Test
    void smallValuesAreExactAndMergingAddsCounts() {
        LatencyHistogram a = new LatencyHistogram();
        LatencyHistogram b = new LatencyHistogram();
        for (int v = 1; v <= 50; v++) {
            a.record(v);
            b.record(v + 50);
        }
        a.add(b);
        assertThat(a.count()).isEqualTo(100);
        assertThat(a.percentile(50)).isEqualTo(50);
        assertThat(a.percentile(99)).isEqualTo(99);
        assertThat(a.percentile(100)).isEqualTo(100);
        assertThat(a.max()).isEqualTo(100);
    }

    @Test
    void emptyNegativeAndBadPercentiles() {
        LatencyHistogram h = new LatencyHistogram();
        assertThat(h.percentile(99)).isZero();
        h.record(-5);
        assertThat(h.max()).isZero();
        assertThatThrownBy(() -> h.percentile(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> h.percentile(101)).isInstanceOf(IllegalArgumentException.class);
    }
}

package dev.wharf.store.commitlog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuarantinedRangesTest {

    @Test
    void emptyCoversNothing() {
        QuarantinedRanges r = new QuarantinedRanges();
        assertThat(r.isEmpty()).isTrue();
        assertThat(r.overlaps(0, 100)).isFalse();
        assertThat(r.endOfRangeAt(5)).isEqualTo(-1);
    }

    @Test
    void lookupsFindTheRangeHoldingAnOffset() {
        QuarantinedRanges r = new QuarantinedRanges();
        assertThat(r.add(100, 200)).isTrue();
        assertThat(r.add(500, 600)).isTrue();
        assertThat(r.add(100, 150)).as("already covered").isFalse();
        assertThat(r.endOfRangeAt(100)).isEqualTo(200);
        assertThat(r.endOfRangeAt(199)).isEqualTo(200);
        assertThat(r.endOfRangeAt(200)).isEqualTo(-1);
        assertThat(r.endOfRangeAt(550)).isEqualTo(600);
        assertThat(r.overlaps(50, 51)).isTrue();
        assertThat(r.overlaps(50, 50)).isFalse();
        assertThat(r.overlaps(200, 300)).isFalse();
        assertThat(r.overlaps(599, 10)).isTrue();
        assertThat(r.overlaps(600, 10)).isFalse();
    }

    @Test
    void touchingOrOverlappingRangesMerge() {
        QuarantinedRanges r = new QuarantinedRanges();
        r.add(100, 200);
        r.add(300, 400);
        r.add(200, 300);
        assertThat(r.toArray()).isDeepEqualTo(new long[][] {{100, 400}});
        r.add(50, 120);
        r.add(390, 450);
        assertThat(r.toArray()).isDeepEqualTo(new long[][] {{50, 450}});
        r.add(1000, 1100);
        assertThat(r.size()).isEqualTo(2);
    }

    @Test
    void cuttingForgetsWhatLiesPastTheCut() {
        QuarantinedRanges r = new QuarantinedRanges();
        r.add(100, 200);
        r.add(300, 400);
        assertThat(r.anyAtOrAbove(350)).isTrue();
        r.removeFrom(350);
        assertThat(r.toArray()).isDeepEqualTo(new long[][] {{100, 200}, {300, 350}});
        r.removeFrom(100);
        assertThat(r.isEmpty()).isTrue();
    }
}

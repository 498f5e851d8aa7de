package dev.wharf.jms.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class PrefetchWindowTest {

    @Test
    void growsOnlyWhileTheApplicationWaitsOnFullPopsAndShrinksWhenTheQueueRunsDry() {
        PrefetchWindow w = new PrefetchWindow(256);
        assertThat(w.size()).isEqualTo(PrefetchWindow.START);
        w.answered(32, 32);
        assertThat(w.size()).as("a full pop nobody waited for: a slow consumer keeps its small window").isEqualTo(32);
        for (int expected : new int[] {64, 128, 256, 256}) {
            w.starved();
            w.answered(w.size(), w.size());
            assertThat(w.size()).isEqualTo(expected);
        }
        w.starved();
        w.answered(256, 200);
        assertThat(w.size()).as("neither full nor short: stays").isEqualTo(256);
        w.answered(256, 10);
        assertThat(w.size()).isEqualTo(128);
        w.answered(128, 0);
        w.answered(64, 0);
        w.answered(32, 0);
        assertThat(w.size()).as("never below the start").isEqualTo(PrefetchWindow.START);
    }

    @Test
    void aSmallPullBatchSizeCapsTheWindow() {
        PrefetchWindow w = new PrefetchWindow(10);
        assertThat(w.size()).isEqualTo(10);
        w.starved();
        w.answered(10, 10);
        assertThat(w.size()).isEqualTo(10);
        w.answered(10, 1);
        assertThat(w.size()).isEqualTo(10);
    }
}

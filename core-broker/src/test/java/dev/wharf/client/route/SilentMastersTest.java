package dev.wharf.client.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.client.route.SilentMasters.Permit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SilentMastersTest {

    private final AtomicLong now = new AtomicLong(10_000);
    private final SilentMasters silent = new SilentMasters(4_000, now::get);

    @Test
    void anAddressNeverSilentMaySend() {
        assertThat(silent.permit("a:1")).isEqualTo(Permit.SEND);
        assertThat(silent.isHeld("a:1")).isFalse();
    }

    @Test
    void aSilentAddressIsHeldForTheQuietPeriodWhileOthersStayFree() {
        silent.silent("a:1");
        assertThat(silent.permit("a:1")).isEqualTo(Permit.HOLD);
        assertThat(silent.isHeld("a:1")).isTrue();
        assertThat(silent.permit("b:2")).as("the new master's address").isEqualTo(Permit.SEND);
        now.addAndGet(3_999);
        assertThat(silent.permit("a:1")).isEqualTo(Permit.HOLD);
    }

    @Test
    void afterTheQuietPeriodOneSendAtATimeProbes() {
        silent.silent("a:1");
        now.addAndGet(4_000);
        assertThat(silent.permit("a:1")).isEqualTo(Permit.PROBE);
        assertThat(silent.permit("a:1")).as("a second sender while the probe is out").isEqualTo(Permit.HOLD);
        silent.probeEnded("a:1"); // the probe found no connection
        assertThat(silent.permit("a:1")).isEqualTo(Permit.PROBE);
    }

    @Test
    void anAnswerClearsTheAddressAndAnotherSilenceStartsANewQuietPeriod() {
        silent.silent("a:1");
        now.addAndGet(4_000);
        assertThat(silent.permit("a:1")).isEqualTo(Permit.PROBE);
        silent.silent("a:1"); // the probe timed out too
        assertThat(silent.permit("a:1")).isEqualTo(Permit.HOLD);
        now.addAndGet(4_000);
        assertThat(silent.permit("a:1")).isEqualTo(Permit.PROBE);
        silent.answered("a:1");
        assertThat(silent.permit("a:1")).isEqualTo(Permit.SEND);
        assertThat(silent.permit("a:1")).isEqualTo(Permit.SEND);
    }

    @Test
    void aProbeThatNeverReportsFreesTheTurnAfterAQuietPeriod() {
        silent.silent("a:1");
        now.addAndGet(4_000);
        assertThat(silent.permit("a:1")).isEqualTo(Permit.PROBE);
        now.addAndGet(3_999);
        assertThat(silent.permit("a:1")).isEqualTo(Permit.HOLD);
        now.addAndGet(1);
        assertThat(silent.permit("a:1")).isEqualTo(Permit.PROBE);
    }

    @Test
    void aNegativeQuietPeriodIsRefusedByName() {
        assertThatThrownBy(() -> new SilentMasters(-1)).hasMessageContaining("quietMillis");
    }
}

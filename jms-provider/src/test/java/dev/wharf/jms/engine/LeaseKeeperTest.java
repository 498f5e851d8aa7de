package dev.wharf.jms.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LeaseKeeperTest {

    @Test
    void everyLeaseIsLookedAtAtLeastTwiceInItsLastHalf() {
        for (long lease : new long[] {1_000, 1_500, 2_000, 4_000, 60_000, 86_400_000}) {
            assertThat(LeaseKeeper.period(lease)).as("round for a %d ms lease", lease)
                    .isPositive().isLessThanOrEqualTo(lease / 4);
        }
        assertThat(LeaseKeeper.period(60_000)).as("long leases keep one round a second").isEqualTo(1_000);
    }
}

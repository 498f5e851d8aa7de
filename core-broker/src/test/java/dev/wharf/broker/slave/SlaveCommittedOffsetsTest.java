package dev.wharf.broker.slave;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SlaveCommittedOffsetsTest {

    private final SlaveCommittedOffsets committed = new SlaveCommittedOffsets();

    @Test
    void theMastersOffsetsAreTakenWhereNothingWasCommittedHereIncludingResets() {
        SlaveCommittedOffsets.Merge merge = committed.merge(Map.of("t@g", Map.of(0, 5L, 1, 0L)));
        assertThat(merge.table()).isEqualTo(Map.of("t@g", Map.of(0, 5L, 1, 0L)));
        assertThat(merge.handBacks()).isEmpty();
    }

    @Test
    void anOffsetCommittedHereAboveTheMastersWinsAndIsHandedBackUntilTheMasterHasIt() {
        committed.record("t", "g", 0, 40);
        committed.record("t", "g", 0, 30); // an older commit arriving late does not move it back
        committed.record("t", "h", 2, 7);

        SlaveCommittedOffsets.Merge first = committed.merge(Map.of("t@g", Map.of(0, 10L, 1, 3L)));
        assertThat(first.table()).isEqualTo(Map.of("t@g", Map.of(0, 40L, 1, 3L), "t@h", Map.of(2, 7L)));
        assertThat(first.handBacks()).containsExactlyInAnyOrder(new SlaveCommittedOffsets.HandBack("t", "g", 0, 40),
                new SlaveCommittedOffsets.HandBack("t", "h", 2, 7));
        assertThat(committed.pendingCount()).isEqualTo(2);

        // the master took g's offset (and moved on), not yet h's
        SlaveCommittedOffsets.Merge second = committed.merge(Map.of("t@g", Map.of(0, 41L, 1, 3L)));
        assertThat(second.table()).isEqualTo(Map.of("t@g", Map.of(0, 41L, 1, 3L), "t@h", Map.of(2, 7L)));
        assertThat(second.handBacks()).containsExactly(new SlaveCommittedOffsets.HandBack("t", "h", 2, 7));

        SlaveCommittedOffsets.Merge third = committed.merge(Map.of("t@g", Map.of(0, 41L), "t@h", Map.of(2, 7L)));
        assertThat(third.handBacks()).isEmpty();
        assertThat(committed.pendingCount()).isZero();
        // from now on the master's value rules again, even below what was committed here
        assertThat(committed.merge(Map.of("t@h", Map.of(2, 1L))).table()).isEqualTo(Map.of("t@h", Map.of(2, 1L)));
    }
}

package dev.wharf.broker.ack.persist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.broker.ack.persist.AckLogRecord.Kind;
import org.junit.jupiter.api.Test;

/**
 * Which ack-log records a SYNC_FLUSH answer waits for on the disk: acknowledgements never do; leases (delivery counts)
 * do unless forceDeliveryCounts is off; group creation and deletion always do.
 */
class AckLogForcingTest {

    @Test
    void leasesAreForcedUnlessDeliveryCountsAreNot() {
        for (Kind kind : Kind.values()) {
            boolean lease = kind == Kind.POP || kind == Kind.DELIVERIES;
            boolean ack = kind == Kind.ACK || kind == Kind.DONE;
            assertThat(AckLog.forcedLater(kind, true)).as(kind + ", delivery counts forced").isEqualTo(ack);
            assertThat(AckLog.forcedLater(kind, false)).as(kind + ", delivery counts not forced")
                    .isEqualTo(ack || lease);
        }
    }
}

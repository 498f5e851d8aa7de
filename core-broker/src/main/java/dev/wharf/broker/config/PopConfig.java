package dev.wharf.broker.config;

import java.util.List;

/**
 * Settings of acknowledgement-based consumption (pop, peek, ack, lease changes): how far one pop looks, how often
 * ended leases are found, and how the acknowledgement state is saved.
 */
public class PopConfig {

    /** Consume-queue units one pop or peek looks at per queue at most (then it continues on the next one). */
    private int popScanUnitsPerQueue = 2_048;
    /** How often ended leases are looked for, in milliseconds. */
    private long popLeaseScanInterval = 200;
    /** How often the acknowledgement state is written to config/ackState.json when it changed, in milliseconds. */
    private long ackStateSnapshotInterval = 3_000;
    /**
     * SYNC_FLUSH: whether the record of a delivery (lease and delivery counts) is forced before the messages are handed
     * out; false lets it ride on the group commit's next force, at most one round later.
     */
    private boolean forceDeliveryCounts = false;

    /** Adds a sentence to {@code errors} for each bad setting, naming the key and what is allowed. */
    public void validate(List<String> errors) {
        ConfigChecks.range(errors, "popScanUnitsPerQueue", popScanUnitsPerQueue, 32, 1_000_000);
        ConfigChecks.range(errors, "popLeaseScanInterval", popLeaseScanInterval, 10, 60_000);
        ConfigChecks.range(errors, "ackStateSnapshotInterval", ackStateSnapshotInterval, 100, 3_600_000);
    }

    public int getPopScanUnitsPerQueue() {
        return popScanUnitsPerQueue;
    }

    public void setPopScanUnitsPerQueue(int popScanUnitsPerQueue) {
        this.popScanUnitsPerQueue = popScanUnitsPerQueue;
    }

    public long getPopLeaseScanInterval() {
        return popLeaseScanInterval;
    }

    public void setPopLeaseScanInterval(long popLeaseScanInterval) {
        this.popLeaseScanInterval = popLeaseScanInterval;
    }

    public long getAckStateSnapshotInterval() {
        return ackStateSnapshotInterval;
    }

    public void setAckStateSnapshotInterval(long ackStateSnapshotInterval) {
        this.ackStateSnapshotInterval = ackStateSnapshotInterval;
    }

    public boolean isForceDeliveryCounts() {
        return forceDeliveryCounts;
    }

    /**
     * false: under SYNC_FLUSH a delivery's lease record is not forced before the messages go out. A power loss (not a
     * process crash) in the next group-commit round can then hand a message out again with its earlier delivery
     * count (JMSRedelivered false); it loses nothing.
     */
    public void setForceDeliveryCounts(boolean forceDeliveryCounts) {
        this.forceDeliveryCounts = forceDeliveryCounts;
    }
}

package dev.wharf.broker.ack;

/**
 * Tuning of acknowledgement-based consumption (from the broker configuration).
 *
 * @param scanUnitsPerQueue      consume-queue units one pop or peek looks at per queue at most
 * @param maxTransferBytes       bytes of records one pop or peek returns at most (at least one record)
 * @param leaseScanIntervalMillis how often ended leases are looked for
 * @param snapshotIntervalMillis how often the state is written to its snapshot file when it changed
 * @param forceDeliveryCounts    under SYNC_FLUSH, whether lease records (delivery counts) are forced before the
 *                               messages are handed out, or ride on the group commit's next force
 */
public record AckSettings(int scanUnitsPerQueue, int maxTransferBytes, long leaseScanIntervalMillis,
                          long snapshotIntervalMillis, boolean forceDeliveryCounts) {

    /** Settings whose lease records are forced. */
    public AckSettings(int scanUnitsPerQueue, int maxTransferBytes, long leaseScanIntervalMillis,
                       long snapshotIntervalMillis) {
        this(scanUnitsPerQueue, maxTransferBytes, leaseScanIntervalMillis, snapshotIntervalMillis, true);
    }

    public AckSettings {
        if (scanUnitsPerQueue < 1 || maxTransferBytes < 1 || leaseScanIntervalMillis < 1
                || snapshotIntervalMillis < 1) {
            throw new IllegalArgumentException("ack settings must be positive: " + scanUnitsPerQueue + ", "
                    + maxTransferBytes + ", " + leaseScanIntervalMillis + ", " + snapshotIntervalMillis);
        }
    }
}

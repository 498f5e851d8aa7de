package dev.wharf.broker.ha;

/**
 * A slave's view of its replication. Immutable snapshot.
 *
 * @param masterAddress       the master's HA address (null when not known yet)
 * @param connected           whether the master accepted this slave and the connection is up
 * @param localMaxOffset      this slave's commit-log end
 * @param masterMaxOffset     the master's commit-log end as last reported (-1 before the first frame)
 * @param masterConfirmOffset the master's confirm offset as last reported (-1 before the first frame)
 * @param lastTransferMillis  when the last frame (data or heartbeat) arrived (epoch millis; 0 = never)
 * @param lastRefusal         why replication was last refused (by the master or by this slave), or null
 */
public record SlaveStatus(String masterAddress, boolean connected, long localMaxOffset, long masterMaxOffset,
                          long masterConfirmOffset, long lastTransferMillis, String lastRefusal) {

    /** Bytes the slave is behind the master's last reported end (0 when unknown). */
    public long lagBytes() {
        return masterMaxOffset < 0 ? 0 : Math.max(0, masterMaxOffset - localMaxOffset);
    }
}

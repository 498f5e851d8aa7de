package dev.wharf.broker.ha;

/**
 * A master's view of one connected slave. Immutable snapshot.
 *
 * @param brokerId        the slave's brokerId
 * @param address         the slave's HA connection address (host:port)
 * @param ackedOffset     the slave's commit-log end as last reported (-1 before its first ack)
 * @param lagBytes        master's commit-log end minus ackedOffset
 * @param lastAckMillis   when the last ack arrived (epoch millis)
 * @param caughtUpMillis  when the slave last held everything the master had (epoch millis; 0 = never)
 * @param inSync          whether it counts for SYNC_MASTER (lag within haMaxGapNotInSync)
 */
public record ReplicaStatus(long brokerId, String address, long ackedOffset, long lagBytes, long lastAckMillis,
                            long caughtUpMillis, boolean inSync) {
}

package dev.wharf.protocol.body;

/**
 * GET_BROKER_RUNTIME_INFO answer: who the broker is and how far its commit log reaches, so that tools can show a
 * slave's replication lag as the difference to its master.
 *
 * @param brokerId               0 for a master, above 0 for a slave
 * @param commitLogMinOffset     the first byte of the commit log still on disk
 * @param commitLogMaxOffset     the end of the commit log (the next byte to be written or replicated)
 * @param lastStoreTimestamp     the store time of the newest message this broker has made readable since it
 *                               started (a slave's copies keep the master's store time), 0 when none arrived yet
 * @param dispatchBehindBytes    commit-log bytes not yet in the consume queues
 * @param masterAddr             for a slave: its master's address as the NameServers answer it, else null
 * @param bootTimestamp          when the broker started
 * @param brokerRole             ASYNC_MASTER, SYNC_MASTER or SLAVE; null when the broker does not replicate
 * @param inSyncSlaves           for a master: its slaves within haMaxGapNotInSync now; -1 when unknown
 * @param requiredSlaves         the slaves a send must reach before it is acknowledged (SYNC_MASTER:
 *                               minInSyncReplicas - 1), 0 otherwise
 */
public record BrokerRuntime(String clusterName, String brokerName, long brokerId, String brokerAddr,
                            long commitLogMinOffset, long commitLogMaxOffset, long lastStoreTimestamp,
                            long dispatchBehindBytes, String masterAddr, long bootTimestamp, String brokerRole,
                            int inSyncSlaves, int requiredSlaves) {
}

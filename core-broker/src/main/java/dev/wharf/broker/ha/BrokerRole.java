package dev.wharf.broker.ha;

/** A broker's part in its replica group (all members share a brokerName). */
public enum BrokerRole {
    /** Takes writes; a send returns once stored here, slaves copy afterwards (the default). */
    ASYNC_MASTER,
    /** Takes writes; a send returns once minInSyncReplicas replicas (this one included) hold it. */
    SYNC_MASTER,
    /** Copies its master's commit log and serves reads; refuses every write. */
    SLAVE;

    public boolean isMaster() {
        return this != SLAVE;
    }
}

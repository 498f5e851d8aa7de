package dev.wharf.broker.ha;

import java.util.ArrayList;
import java.util.List;

/**
 * Replication settings of one broker (RocketMQ's key names where one exists). Bound from the broker's
 * configuration file with the other beans of {@link dev.wharf.broker.config.BrokerSettings}; the broker's
 * identity ({@code brokerName}, {@code brokerId}) stays in {@link dev.wharf.broker.config.BrokerConfig}.
 *
 * <p>SYNC_MASTER means what it says: by default a send waits for one slave ({@code minInSyncReplicas=2}, the
 * master counting as one), and with no slave in sync it is answered SLAVE_NOT_AVAILABLE rather than silently
 * acknowledged by the master alone. The one way to relax that is {@link #isSyncMasterDegradeToAsync()}.
 */
public final class HaConfig {

    /** {@link #getHaListenPort()} when not set: the client port + 1 (any free port when that is 0). */
    public static final int HA_PORT_FROM_LISTEN_PORT = -1;

    /** ASYNC_MASTER, SYNC_MASTER or SLAVE; until set, follows the brokerId (see {@link #validate}). */
    private BrokerRole brokerRole = BrokerRole.ASYNC_MASTER;
    /** Whether brokerRole was given; if not, the brokerId alone says master or slave. */
    private boolean brokerRoleGiven;
    /** Port a master accepts slaves on; -1 = listenPort + 1; 0 = any free port (see HaService#haPort()). */
    private int haListenPort = HA_PORT_FROM_LISTEN_PORT;
    /** host:port of the master's HA port, for a slave. */
    private String haMasterAddress;
    /** How often a slave reports its offset when nothing arrives, and a master sends a heartbeat when idle (ms). */
    private long haSendHeartbeatInterval = 5_000;
    /** A connection on which nothing was read for this long is closed (ms). */
    private long haHousekeepingInterval = 20_000;
    /** Most commit-log bytes per transfer frame (a single larger record still goes whole). */
    private int haTransferBatchSize = 32 * 1024;
    /** A slave more than this many bytes behind the master is not in sync (does not count for SYNC_MASTER). */
    private long haMaxGapNotInSync = 256L * 1024 * 1024;
    /** Controller mode: a sync-state set member whose acks stayed behind this long (ms) leaves the set. */
    private long haMaxTimeSlaveNotCatchup = 15_000;
    /** How long a SYNC_MASTER send waits for its slaves before FLUSH_SLAVE_TIMEOUT (ms). */
    private long slaveTimeout = 3_000;
    /** Replicas, the master included, that must hold a SYNC_MASTER send before it is acknowledged. */
    private int minInSyncReplicas = 2;
    /**
     * Whether a SYNC_MASTER with fewer than minInSyncReplicas - 1 slaves in sync acknowledges sends once stored
     * locally (as an ASYNC_MASTER would) instead of answering SLAVE_NOT_AVAILABLE. Off: no silent degradation.
     */
    private boolean syncMasterDegradeToAsync;
    /** First wait before a slave reconnects; doubles up to haReconnectMaxInterval (ms). */
    private long haReconnectInterval = 100;
    /** Longest wait between a slave's reconnection attempts (ms). */
    private long haReconnectMaxInterval = 5_000;
    /** Whether consumers may be sent to (and served by) slaves. */
    private boolean slaveReadEnable;

    /**
     * Settles the role against the broker's id, then checks every setting. The id and the role are one signal:
     * without an explicit brokerRole, brokerId 0 is an ASYNC_MASTER and any id above 0 a SLAVE (what a brokerId
     * says to a RocketMQ operator); an explicit brokerRole that contradicts the id is an error, never silently
     * overridden (RocketMQ resets a master's brokerId to 0, which hides a mistyped file).
     *
     * @throws IllegalArgumentException listing each bad setting with what is allowed
     */
    public void validate(long brokerId) {
        List<String> errors = new ArrayList<>();
        if (!brokerRoleGiven) {
            brokerRole = brokerId > 0 ? BrokerRole.SLAVE : BrokerRole.ASYNC_MASTER;
        }
        if (brokerRole == null) {
            errors.add("brokerRole is not set; use ASYNC_MASTER, SYNC_MASTER or SLAVE.");
        } else if (brokerRole == BrokerRole.SLAVE && brokerId <= 0) {
            errors.add("brokerRole is SLAVE but brokerId is " + brokerId + "; give each slave a brokerId above 0"
                    + " (0 is the master's).");
        } else if (brokerRole.isMaster() && brokerId != 0) {
            errors.add("brokerRole is " + brokerRole + " but brokerId is " + brokerId + ": a master has brokerId 0."
                    + " Set brokerId=0 for a master, or brokerRole=SLAVE (or leave brokerRole out) for a slave.");
        }
        if (haMasterAddress != null && !haMasterAddress.isBlank() && !isHostPort(haMasterAddress)) {
            errors.add("haMasterAddress \"" + haMasterAddress + "\" is not host:port; e.g. 10.0.0.5:10912.");
        }
        if (haListenPort < -1 || haListenPort > 65_535) {
            errors.add("haListenPort is " + haListenPort + "; use 1-65535, 0 for any free port, or leave it unset"
                    + " for listenPort + 1.");
        }
        positive(errors, "haSendHeartbeatInterval", haSendHeartbeatInterval);
        positive(errors, "haHousekeepingInterval", haHousekeepingInterval);
        if (haHousekeepingInterval <= haSendHeartbeatInterval) {
            errors.add("haHousekeepingInterval (" + haHousekeepingInterval + " ms) must be longer than"
                    + " haSendHeartbeatInterval (" + haSendHeartbeatInterval + " ms), or idle connections are closed.");
        }
        if (haTransferBatchSize < 1024 || haTransferBatchSize > 64 * 1024 * 1024) {
            errors.add("haTransferBatchSize is " + haTransferBatchSize + "; use 1024 to 67108864 bytes.");
        }
        positive(errors, "haMaxGapNotInSync", haMaxGapNotInSync);
        positive(errors, "haMaxTimeSlaveNotCatchup", haMaxTimeSlaveNotCatchup);
        positive(errors, "slaveTimeout", slaveTimeout);
        positive(errors, "haReconnectInterval", haReconnectInterval);
        if (haReconnectMaxInterval < haReconnectInterval) {
            errors.add("haReconnectMaxInterval (" + haReconnectMaxInterval + " ms) is below haReconnectInterval ("
                    + haReconnectInterval + " ms).");
        }
        if (minInSyncReplicas < 1 || minInSyncReplicas > 16) {
            errors.add("minInSyncReplicas is " + minInSyncReplicas + "; use 1 to 16 (the master counts as one).");
        } else if (brokerRole == BrokerRole.SYNC_MASTER && minInSyncReplicas < 2) {
            errors.add("minInSyncReplicas is 1 with brokerRole=SYNC_MASTER: the master alone would acknowledge"
                    + " every send, which is ASYNC_MASTER; use 2 or more (or brokerRole=ASYNC_MASTER).");
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join(" ", errors));
        }
    }

    private static boolean isHostPort(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            return false;
        }
        try {
            int port = Integer.parseInt(address.substring(colon + 1).trim());
            return port > 0 && port <= 65_535;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static void positive(List<String> errors, String key, long value) {
        if (value <= 0) {
            errors.add(key + " is " + value + "; it must be positive.");
        }
    }

    /** The HA port to bind for a client port: the setting, or listenPort + 1 (0 when listenPort is 0). */
    public int effectiveHaListenPort(int listenPort) {
        if (haListenPort != HA_PORT_FROM_LISTEN_PORT) {
            return haListenPort;
        }
        return listenPort <= 0 || listenPort >= 65_535 ? 0 : listenPort + 1;
    }

    /** Slaves that must confirm a SYNC_MASTER send: minInSyncReplicas minus the master. */
    public int requiredSlaveAcks() {
        return Math.max(0, minInSyncReplicas - 1);
    }

    public BrokerRole getBrokerRole() {
        return brokerRole;
    }

    public void setBrokerRole(BrokerRole brokerRole) {
        this.brokerRole = brokerRole;
        this.brokerRoleGiven = true;
    }

    public int getHaListenPort() {
        return haListenPort;
    }

    public void setHaListenPort(int haListenPort) {
        this.haListenPort = haListenPort;
    }

    public String getHaMasterAddress() {
        return haMasterAddress;
    }

    public void setHaMasterAddress(String haMasterAddress) {
        this.haMasterAddress = haMasterAddress == null || haMasterAddress.isBlank() ? null : haMasterAddress.trim();
    }

    public long getHaSendHeartbeatInterval() {
        return haSendHeartbeatInterval;
    }

    public void setHaSendHeartbeatInterval(long haSendHeartbeatInterval) {
        this.haSendHeartbeatInterval = haSendHeartbeatInterval;
    }

    public long getHaHousekeepingInterval() {
        return haHousekeepingInterval;
    }

    public void setHaHousekeepingInterval(long haHousekeepingInterval) {
        this.haHousekeepingInterval = haHousekeepingInterval;
    }

    public int getHaTransferBatchSize() {
        return haTransferBatchSize;
    }

    public void setHaTransferBatchSize(int haTransferBatchSize) {
        this.haTransferBatchSize = haTransferBatchSize;
    }

    public long getHaMaxGapNotInSync() {
        return haMaxGapNotInSync;
    }

    public void setHaMaxGapNotInSync(long haMaxGapNotInSync) {
        this.haMaxGapNotInSync = haMaxGapNotInSync;
    }

    public long getSlaveTimeout() {
        return slaveTimeout;
    }

    public void setSlaveTimeout(long slaveTimeout) {
        this.slaveTimeout = slaveTimeout;
    }

    public int getMinInSyncReplicas() {
        return minInSyncReplicas;
    }

    public void setMinInSyncReplicas(int minInSyncReplicas) {
        this.minInSyncReplicas = minInSyncReplicas;
    }

    public boolean isSyncMasterDegradeToAsync() {
        return syncMasterDegradeToAsync;
    }

    public void setSyncMasterDegradeToAsync(boolean syncMasterDegradeToAsync) {
        this.syncMasterDegradeToAsync = syncMasterDegradeToAsync;
    }

    public long getHaReconnectInterval() {
        return haReconnectInterval;
    }

    public void setHaReconnectInterval(long haReconnectInterval) {
        this.haReconnectInterval = haReconnectInterval;
    }

    public long getHaReconnectMaxInterval() {
        return haReconnectMaxInterval;
    }

    public void setHaReconnectMaxInterval(long haReconnectMaxInterval) {
        this.haReconnectMaxInterval = haReconnectMaxInterval;
    }

    public boolean isSlaveReadEnable() {
        return slaveReadEnable;
    }

    public void setSlaveReadEnable(boolean slaveReadEnable) {
        this.slaveReadEnable = slaveReadEnable;
    }

    @Override
    public String toString() {
        return "HaConfig{brokerRole=" + brokerRole + ", haListenPort=" + haListenPort + ", haMasterAddress="
                + haMasterAddress + ", minInSyncReplicas=" + minInSyncReplicas + ", slaveTimeout=" + slaveTimeout
                + ", syncMasterDegradeToAsync=" + syncMasterDegradeToAsync + "}";
    }

    public long getHaMaxTimeSlaveNotCatchup() {
        return haMaxTimeSlaveNotCatchup;
    }

    public void setHaMaxTimeSlaveNotCatchup(long haMaxTimeSlaveNotCatchup) {
        this.haMaxTimeSlaveNotCatchup = haMaxTimeSlaveNotCatchup;
    }
}

package dev.wharf.protocol.header;

/**
 * Headers of the controller requests (automatic failover). Broker ids here are the controller's stable replica ids
 * (1, 2, ...), not the classic "0 = master" ids; {@code -1} means "none".
 */
public final class ControllerHeaders {

    /** The broker id of "no broker" (no master, no designated id, the controller itself asking). */
    public static final long NO_BROKER = -1;

    private ControllerHeaders() {
    }

    /**
     * CONTROLLER_REGISTER_BROKER. {@code brokerId} &le; 0 asks the controller to assign an id; the same
     * {@code registerCheckCode} sent again gets the same id back, so a broker that crashed before saving its id
     * does not claim a second one. {@code brokerId} &gt; 0 confirms an id the broker already has (and records a
     * new address if it moved).
     */
    public record RegisterRequest(
            @Required String clusterName,
            @Required String brokerName,
            @Required String brokerAddress,
            long brokerId,
            String registerCheckCode) {
    }

    /**
     * CONTROLLER_BROKER_HEARTBEAT: liveness plus what an election compares (last epoch, then max offset, then
     * priority, lowest first). {@code heartbeatTimeoutMillis} 0 means the controller's default.
     */
    public record HeartbeatRequest(
            @Required String clusterName,
            @Required String brokerName,
            @Required String brokerAddress,
            long brokerId,
            int epoch,
            long maxOffset,
            long confirmOffset,
            int electionPriority,
            long heartbeatTimeoutMillis) {
    }

    /**
     * The group's current master as the leader knows it: in heartbeat responses (so a broker notices an election
     * at its next heartbeat) and in NOTIFY_BROKER_ROLE_CHANGED (with a SyncStateSet body).
     */
    public record MasterHeader(
            @Required String brokerName,
            long masterBrokerId,
            String masterAddress,
            int masterEpoch,
            int syncStateSetEpoch) {
    }

    /** CONTROLLER_ALTER_SYNC_STATE_SET; the body is a SyncStateSet with the set epoch the master last saw. */
    public record AlterSyncStateSetRequest(
            @Required String brokerName,
            long masterBrokerId,
            int masterEpoch) {
    }

    /**
     * CONTROLLER_ELECT_MASTER. With {@code designateElect} the admin asks for {@code brokerId} as master (refused
     * unless it is alive and in the sync-state set); without, {@code brokerId} is the asking broker (or -1).
     */
    public record ElectMasterRequest(
            @Required String brokerName,
            long brokerId,
            boolean designateElect) {
    }

    /** CONTROLLER_GET_REPLICA_INFO; no broker name means every broker name. */
    public record ReplicaInfoRequest(String brokerName) {
    }

    /** Header of a CONTROLLER_NOT_LEADER answer: where the leader is, when this node knows. */
    public record NotLeaderHeader(String leaderId, String leaderAddress) {
    }
}

package dev.wharf.protocol.body;

import java.util.List;

/** Bodies of the controller requests and answers (JSON). */
public final class ControllerData {

    private ControllerData() {
    }

    /**
     * One registered replica of a broker name. The liveness fields are the controller leader's view from the
     * heartbeats ({@code alive} false and zeros when it has not heard from the replica within its timeout).
     */
    public record ReplicaInfo(long brokerId, String address, boolean alive, int epoch, long maxOffset,
                              long confirmOffset, int electionPriority, long lastHeartbeatMillis) {
    }

    /**
     * The controller's state of one broker name. {@code masterBrokerId} is -1 when there is no master;
     * {@code masterEpoch} 0 means never elected.
     */
    public record BrokerGroupInfo(String clusterName, String brokerName, long masterBrokerId, String masterAddress,
                                  boolean masterAlive, int masterEpoch, List<Long> syncStateSet,
                                  int syncStateSetEpoch, List<ReplicaInfo> replicas) {

        public boolean hasMaster() {
            return masterBrokerId >= 0;
        }
    }

    /** Answer to CONTROLLER_GET_REPLICA_INFO. */
    public record BrokerGroups(List<BrokerGroupInfo> groups) {
    }

    /** Answer to CONTROLLER_REGISTER_BROKER: the id the broker holds from now on, and its group. */
    public record RegisterResult(long brokerId, BrokerGroupInfo group) {
    }

    /** A sync-state set with its epoch (body of ALTER requests and answers, and of role-change notices). */
    public record SyncStateSet(List<Long> members, int epoch) {
    }

    /** One node of the controller group, as configured; {@code remotingAddress} is null until it has led once. */
    public record ControllerMember(String id, String raftAddress, String remotingAddress) {
    }

    /** Answer to CONTROLLER_GET_METADATA_INFO, from whichever node was asked. */
    public record ControllerMetadata(String group, String selfId, String selfAddress, String role, long term,
                                     String leaderId, String leaderAddress, boolean leaderReady,
                                     long lastAppliedIndex, List<ControllerMember> members) {
    }
}

package dev.wharf.controller.state;

import dev.wharf.protocol.ResponseCode;
import java.util.List;
import java.util.TreeSet;

/**
 * The checks of a sync-state set change that depend on replicated state only, shared by the leader (before it writes
 * the change) and by every node applying it. Liveness of the members is the leader's check alone.
 */
public final class AlterCheck {

    private AlterCheck() {
    }

    /** Why the change is refused, or null when it is valid. */
    public static String problem(GroupRecord group, long masterId, int masterEpoch, int setEpoch, List<Long> newSet) {
        if (!group.hasMaster() || group.masterBrokerId() != masterId) {
            return "broker " + masterId + " is not the master of " + group.brokerName() + " (the master is "
                    + (group.hasMaster() ? group.masterBrokerId() : "none") + "); only the master changes the set";
        }
        if (masterEpoch != group.masterEpoch()) {
            return "master epoch " + masterEpoch + " is stale; " + group.brokerName() + " is at master epoch "
                    + group.masterEpoch();
        }
        if (setEpoch != group.syncStateSetEpoch()) {
            return "sync-state set epoch " + setEpoch + " is stale; " + group.brokerName() + " is at set epoch "
                    + group.syncStateSetEpoch() + " (fetch the replica info and propose again)";
        }
        TreeSet<Long> set = new TreeSet<>(newSet);
        if (!set.contains(masterId)) {
            return "the new sync-state set " + set + " leaves out the master " + masterId;
        }
        for (long id : set) {
            if (!group.isRegistered(id)) {
                return "the new sync-state set names broker " + id + ", which is not a registered replica of "
                        + group.brokerName();
            }
        }
        if (set.equals(new TreeSet<>(group.syncStateSet()))) {
            return "the sync-state set of " + group.brokerName() + " is already " + set;
        }
        return null;
    }

    /** The response code that goes with {@link #problem}. */
    public static int code(GroupRecord group, long masterId, int masterEpoch, int setEpoch, List<Long> newSet) {
        if (!group.hasMaster() || group.masterBrokerId() != masterId) {
            return ResponseCode.CONTROLLER_INVALID_MASTER;
        }
        if (masterEpoch != group.masterEpoch()) {
            return ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH;
        }
        if (setEpoch != group.syncStateSetEpoch()) {
            return ResponseCode.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH;
        }
        if (!newSet.contains(masterId)) {
            return ResponseCode.CONTROLLER_INVALID_MASTER;
        }
        return ResponseCode.CONTROLLER_INVALID_REPLICAS;
    }
}

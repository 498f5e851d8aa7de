package dev.wharf.controller.state;

import java.util.List;

/**
 * A change to the controller state: one Raft log entry. The leader decides what to write (it alone knows which
 * brokers are alive); each command carries the epochs it was decided against, and applying it checks them again, so a
 * command decided on an outdated view is refused identically on every node instead of overwriting a newer decision.
 * Encoded by {@link CommandLayout}.
 */
public sealed interface LogCommand {

    /** Register a replica: confirm {@code requestedId} (&gt; 0) or assign the next free id. */
    record Register(String clusterName, String brokerName, long requestedId, String address, String checkCode)
            implements LogCommand {
    }

    /**
     * The outcome of an election decided by the leader: {@code newMasterId}, or no master
     * ({@link dev.wharf.protocol.header.ControllerHeaders#NO_BROKER}). Applies only if the group's master epoch is
     * still {@code expectedMasterEpoch}.
     */
    record Elect(String brokerName, int expectedMasterEpoch, long newMasterId) implements LogCommand {
    }

    /** A master's new sync-state set, valid only under the master and set epochs it was proposed against. */
    record AlterSyncStateSet(String brokerName, long masterId, int expectedMasterEpoch, int expectedSetEpoch,
                             List<Long> newSet) implements LogCommand {
        public AlterSyncStateSet {
            newSet = List.copyOf(newSet);
        }
    }

    /** Where a controller node serves requests; a leader records its own, so followers can redirect to it. */
    record MemberAddress(String nodeId, String address) implements LogCommand {
    }
}

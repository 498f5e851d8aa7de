package dev.wharf.controller.client;

import java.util.Set;

/**
 * Told when the master of the broker's group changes (a new master epoch), in epoch order, on one thread of the
 * {@link ControllerClient}; never twice for an epoch, never for an older epoch than one already told. The broker
 * compares {@code masterBrokerId} with its own id to become master or slave.
 */
@FunctionalInterface
public interface RoleChangeListener {

    /**
     * @param masterBrokerId the new master's id, or -1 when the group has no master (none in sync is alive)
     * @param masterAddress  the master's broker address, or null without a master
     * @param masterEpoch    the new master epoch (goes up by one with every election outcome)
     * @param syncStateSet   the replicas in sync: just the new master right after an election
     */
    void onRoleChanged(String brokerName, long masterBrokerId, String masterAddress, int masterEpoch,
                       Set<Long> syncStateSet);
}

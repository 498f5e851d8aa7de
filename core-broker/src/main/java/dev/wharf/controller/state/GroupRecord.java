package dev.wharf.controller.state;

import dev.wharf.protocol.header.ControllerHeaders;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The replicated state of one broker name, immutable: applying a command builds a new record. {@code masterBrokerId}
 * is {@link ControllerHeaders#NO_BROKER} without a master; {@code masterEpoch} 0 means never elected. The sync-state
 * set is kept sorted.
 */
public record GroupRecord(String clusterName, String brokerName, long masterBrokerId, int masterEpoch,
                          List<Long> syncStateSet, int syncStateSetEpoch, SortedMap<Long, Replica> replicas,
                          long nextBrokerId) {

    public GroupRecord {
        syncStateSet = List.copyOf(syncStateSet);
        replicas = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(replicas));
    }

    static GroupRecord empty(String clusterName, String brokerName) {
        return new GroupRecord(clusterName, brokerName, ControllerHeaders.NO_BROKER, 0, List.of(), 0, new TreeMap<>(),
                1);
    }

    public boolean hasMaster() {
        return masterBrokerId != ControllerHeaders.NO_BROKER;
    }

    /** Whether a master was ever elected: before that, no replica can hold acknowledged data another lacks. */
    public boolean everElected() {
        return masterEpoch > 0;
    }

    public boolean isRegistered(long brokerId) {
        return replicas.containsKey(brokerId);
    }

    public String addressOf(long brokerId) {
        Replica r = replicas.get(brokerId);
        return r == null ? null : r.address();
    }

    public String masterAddress() {
        return hasMaster() ? addressOf(masterBrokerId) : null;
    }

    GroupRecord withReplica(Replica replica, long nextBrokerId) {
        SortedMap<Long, Replica> copy = new TreeMap<>(replicas);
        copy.put(replica.brokerId(), replica);
        return new GroupRecord(clusterName, brokerName, masterBrokerId, masterEpoch, syncStateSet, syncStateSetEpoch,
                copy, nextBrokerId);
    }

    GroupRecord withMaster(long newMaster) {
        if (newMaster == ControllerHeaders.NO_BROKER) {
            // no candidate: the set is kept, so a member that comes back can still be elected without loss
            return new GroupRecord(clusterName, brokerName, newMaster, masterEpoch + 1, syncStateSet,
                    syncStateSetEpoch, replicas, nextBrokerId);
        }
        // the new master starts alone in the set: the others earn their way back by catching up with it
        return new GroupRecord(clusterName, brokerName, newMaster, masterEpoch + 1, List.of(newMaster),
                syncStateSetEpoch + 1, replicas, nextBrokerId);
    }

    GroupRecord withSyncStateSet(List<Long> sortedSet) {
        return new GroupRecord(clusterName, brokerName, masterBrokerId, masterEpoch, sortedSet,
                syncStateSetEpoch + 1, replicas, nextBrokerId);
    }
}

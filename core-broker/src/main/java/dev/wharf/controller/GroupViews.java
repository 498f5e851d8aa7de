package dev.wharf.controller;

import dev.wharf.controller.elect.BrokerLiveTable;
import dev.wharf.controller.elect.LiveBroker;
import dev.wharf.controller.state.GroupRecord;
import dev.wharf.controller.state.Replica;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.protocol.body.ControllerData.ReplicaInfo;
import java.util.ArrayList;
import java.util.List;

/** Turns the replicated state of a group plus the leader's liveness view into the wire form. */
final class GroupViews {

    private GroupViews() {
    }

    static BrokerGroupInfo info(GroupRecord g, BrokerLiveTable live, long now) {
        if (g == null) {
            return null;
        }
        List<ReplicaInfo> replicas = new ArrayList<>();
        for (Replica r : g.replicas().values()) {
            LiveBroker b = live.alive(g.brokerName(), r.brokerId(), now);
            LiveBroker last = b != null ? b : live.last(g.brokerName(), r.brokerId());
            replicas.add(last == null
                    ? new ReplicaInfo(r.brokerId(), r.address(), false, 0, 0, 0, 0, 0)
                    : new ReplicaInfo(r.brokerId(), r.address(), b != null, last.epoch(), last.maxOffset(),
                    last.confirmOffset(), last.electionPriority(), last.lastHeartbeatMillis()));
        }
        // a master the leader presumes alive (it became leader less than a heartbeat timeout ago) is not "silent"
        boolean masterAlive = g.hasMaster() && live.aliveOrPresumed(g.brokerName(), g.masterBrokerId(), now);
        return new BrokerGroupInfo(g.clusterName(), g.brokerName(), g.masterBrokerId(), g.masterAddress(), masterAlive,
                g.masterEpoch(), g.syncStateSet(), g.syncStateSetEpoch(), replicas);
    }
}

package dev.wharf.controller.elect;

import dev.wharf.controller.state.GroupRecord;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.ControllerHeaders;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Who becomes master of a broker name. Only alive members of the sync-state set qualify (they hold everything the
 * old master acknowledged); the old master stays if it is alive; a designated broker is taken only if it qualifies;
 * among several, the highest last epoch wins, then the highest max offset, then the lowest election priority, then
 * the lowest id (so every leader decides alike). Before the first election any alive replica qualifies: no master
 * ever acknowledged anything. With {@code enableElectUncleanMaster} an alive replica outside the set may be taken
 * when no member qualifies, which can lose acknowledged messages. Pure: no clock, no I/O.
 */
public final class ElectPolicy {

    /** Highest epoch, then highest max offset (Long.compare: gaps over 2 GiB sort right), lowest priority, lowest id. */
    static final Comparator<LiveBroker> PREFERENCE = Comparator.comparingInt(LiveBroker::epoch).reversed()
            .thenComparing(Comparator.comparingLong(LiveBroker::maxOffset).reversed())
            .thenComparingInt(LiveBroker::electionPriority)
            .thenComparingLong(LiveBroker::brokerId);

    private final boolean enableElectUncleanMaster;

    public ElectPolicy(boolean enableElectUncleanMaster) {
        this.enableElectUncleanMaster = enableElectUncleanMaster;
    }

    /**
     * @param group      the replicated state of the broker name
     * @param alive      the heartbeat of an alive replica by id, or null when it is not alive
     * @param designated a broker id asked for by an admin, or {@link ControllerHeaders#NO_BROKER}
     * @param requester  the broker that asked for the election, or {@link ControllerHeaders#NO_BROKER}
     */
    public ElectDecision decide(GroupRecord group, LongFunction<LiveBroker> alive, long designated, long requester) {
        String name = group.brokerName();
        if (designated != ControllerHeaders.NO_BROKER) {
            return designated(group, alive, designated);
        }
        if (group.hasMaster() && alive.apply(group.masterBrokerId()) != null) {
            return ElectDecision.keep(group.masterBrokerId());
        }
        if (!group.everElected()) {
            if (requester != ControllerHeaders.NO_BROKER && group.isRegistered(requester)
                    && alive.apply(requester) != null) {
                return ElectDecision.newMaster(requester, "first election of " + name + ", asked by " + requester);
            }
            LiveBroker best = best(group, group.replicas().keySet(), alive);
            return best != null ? ElectDecision.newMaster(best.brokerId(), "first election of " + name)
                    : ElectDecision.noCandidate("no replica of " + name + " is alive");
        }
        LiveBroker inSync = best(group, group.syncStateSet(), alive);
        if (inSync != null) {
            return ElectDecision.newMaster(inSync.brokerId(), "alive member of the sync-state set "
                    + group.syncStateSet());
        }
        if (enableElectUncleanMaster) {
            LiveBroker any = best(group, group.replicas().keySet(), alive);
            if (any != null) {
                return ElectDecision.newMaster(any.brokerId(), "UNCLEAN: no member of the sync-state set "
                        + group.syncStateSet() + " is alive; messages acknowledged by the old master may be lost");
            }
        }
        return ElectDecision.noCandidate("no member of the sync-state set " + group.syncStateSet() + " of " + name
                + " is alive" + (enableElectUncleanMaster ? ", nor any other replica"
                : " (replicas outside the set are not elected: enableElectUncleanMaster=false)"));
    }

    private ElectDecision designated(GroupRecord group, LongFunction<LiveBroker> alive, long id) {
        String name = group.brokerName();
        if (!group.isRegistered(id)) {
            return ElectDecision.refused(ResponseCode.CONTROLLER_INVALID_REQUEST, "broker id " + id
                    + " is not a registered replica of " + name + " (registered: " + group.replicas().keySet() + ")");
        }
        if (alive.apply(id) == null) {
            return ElectDecision.refused(ResponseCode.CONTROLLER_BROKER_NOT_ALIVE, "broker " + id + " of " + name
                    + " is not alive (no heartbeat within its timeout); start it or designate another");
        }
        if (group.hasMaster() && group.masterBrokerId() == id) {
            return ElectDecision.keep(id);
        }
        boolean inSync = !group.everElected() || group.syncStateSet().contains(id);
        if (inSync) {
            return ElectDecision.newMaster(id, "designated by an admin");
        }
        if (enableElectUncleanMaster) {
            return ElectDecision.newMaster(id, "UNCLEAN: designated by an admin outside the sync-state set "
                    + group.syncStateSet() + "; messages acknowledged by the old master may be lost");
        }
        return ElectDecision.refused(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED, "broker " + id + " of " + name
                + " is not in the sync-state set " + group.syncStateSet() + ", so it may lack acknowledged messages; "
                + "wait until it has caught up, or designate a member of the set (enableElectUncleanMaster=true on "
                + "the controllers allows it at the risk of losing messages)");
    }

    private static LiveBroker best(GroupRecord group, Iterable<Long> ids, LongFunction<LiveBroker> alive) {
        List<LiveBroker> candidates = new ArrayList<>();
        for (long id : ids) {
            LiveBroker b = group.isRegistered(id) ? alive.apply(id) : null;
            if (b != null) {
                candidates.add(b);
            }
        }
        return candidates.stream().min(PREFERENCE).orElse(null);
    }
}

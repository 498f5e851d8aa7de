package dev.wharf.controller.state;

import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.ControllerHeaders;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The replicated state: a {@link GroupRecord} per broker name, and the remoting address of each controller node that
 * has led. Commands are applied one at a time (Ratis applies the log in order on one thread); readers see immutable
 * records and never wait for an apply. Applying is deterministic: it depends only on the state and the command.
 */
public final class ControllerState {

    private final ConcurrentHashMap<String, GroupRecord> groups = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, String> members = new ConcurrentHashMap<>();

    public GroupRecord group(String brokerName) {
        return groups.get(brokerName);
    }

    /** Every group, by broker name. */
    public List<GroupRecord> groups() {
        List<GroupRecord> all = new ArrayList<>(groups.values());
        all.sort(Comparator.comparing(GroupRecord::brokerName));
        return all;
    }

    /** Controller node id to the address where it serves requests, for the nodes that have led. */
    public Map<String, String> memberAddresses() {
        return Map.copyOf(members);
    }

    public synchronized ApplyResult apply(LogCommand command) {
        if (command instanceof LogCommand.Register r) {
            return register(r);
        } else if (command instanceof LogCommand.Elect e) {
            return elect(e);
        } else if (command instanceof LogCommand.AlterSyncStateSet a) {
            return alter(a);
        } else if (command instanceof LogCommand.MemberAddress m) {
            members.put(m.nodeId(), m.address());
            return ApplyResult.ok(null);
        }
        throw new IllegalArgumentException("not a controller command: " + command);
    }

    private ApplyResult register(LogCommand.Register r) {
        GroupRecord group = groups.get(r.brokerName());
        if (group == null) {
            group = GroupRecord.empty(r.clusterName(), r.brokerName());
        } else if (!group.clusterName().equals(r.clusterName())) {
            return ApplyResult.refused(ResponseCode.CONTROLLER_INVALID_REQUEST, "broker name " + r.brokerName()
                    + " belongs to cluster " + group.clusterName() + ", not " + r.clusterName()
                    + "; check brokerClusterName and brokerName", group);
        }
        long id;
        if (r.requestedId() > 0) {
            id = r.requestedId();
            Replica existing = group.replicas().get(id);
            if (existing != null && existing.address().equals(r.address())) {
                return ApplyResult.registered(id, group);
            }
            String code = existing != null ? existing.registerCheckCode() : r.checkCode();
            group = group.withReplica(new Replica(id, r.address(), code), Math.max(group.nextBrokerId(), id + 1));
        } else {
            Replica same = r.checkCode() == null || r.checkCode().isEmpty() ? null : group.replicas().values().stream()
                    .filter(x -> r.checkCode().equals(x.registerCheckCode())).findFirst().orElse(null);
            if (same != null) {
                // a retry of a registration that was applied but whose answer was lost
                id = same.brokerId();
                if (!same.address().equals(r.address())) {
                    group = group.withReplica(new Replica(id, r.address(), same.registerCheckCode()),
                            group.nextBrokerId());
                }
            } else {
                id = group.nextBrokerId();
                group = group.withReplica(new Replica(id, r.address(), r.checkCode()), id + 1);
            }
        }
        groups.put(r.brokerName(), group);
        return ApplyResult.registered(id, group);
    }

    private ApplyResult elect(LogCommand.Elect e) {
        GroupRecord group = groups.get(e.brokerName());
        if (group == null) {
            return ApplyResult.refused(ResponseCode.CONTROLLER_INVALID_REQUEST, "no broker of name " + e.brokerName()
                    + " has registered", null);
        }
        if (group.masterEpoch() != e.expectedMasterEpoch()) {
            return ApplyResult.refused(ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH, "the election was decided at master "
                    + "epoch " + e.expectedMasterEpoch() + " but " + e.brokerName() + " is at epoch "
                    + group.masterEpoch() + " (another election came first)", group);
        }
        if (e.newMasterId() != ControllerHeaders.NO_BROKER && !group.isRegistered(e.newMasterId())) {
            return ApplyResult.refused(ResponseCode.CONTROLLER_INVALID_REQUEST, "broker id " + e.newMasterId()
                    + " is not a registered replica of " + e.brokerName(), group);
        }
        GroupRecord next = group.withMaster(e.newMasterId());
        groups.put(e.brokerName(), next);
        return ApplyResult.ok(next);
    }

    private ApplyResult alter(LogCommand.AlterSyncStateSet a) {
        GroupRecord group = groups.get(a.brokerName());
        if (group == null) {
            return ApplyResult.refused(ResponseCode.CONTROLLER_INVALID_REQUEST, "no broker of name " + a.brokerName()
                    + " has registered", null);
        }
        String problem = AlterCheck.problem(group, a.masterId(), a.expectedMasterEpoch(), a.expectedSetEpoch(),
                a.newSet());
        if (problem != null) {
            return ApplyResult.refused(AlterCheck.code(group, a.masterId(), a.expectedMasterEpoch(),
                    a.expectedSetEpoch(), a.newSet()), problem, group);
        }
        GroupRecord next = group.withSyncStateSet(new ArrayList<>(new TreeSet<>(a.newSet())));
        groups.put(a.brokerName(), next);
        return ApplyResult.ok(next);
    }

    synchronized StateSnapshot snapshot(long term, long index) {
        return new StateSnapshot(StateSnapshot.VERSION, term, index, groups(), new TreeMap<>(members));
    }

    synchronized void restore(StateSnapshot snapshot) {
        groups.clear();
        members.clear();
        for (GroupRecord g : snapshot.groups()) {
            groups.put(g.brokerName(), g);
        }
        members.putAll(snapshot.members());
    }
}

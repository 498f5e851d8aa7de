package dev.wharf.controller;

import dev.wharf.controller.elect.BrokerLiveTable;
import dev.wharf.controller.elect.ElectDecision;
import dev.wharf.controller.elect.ElectPolicy;
import dev.wharf.controller.elect.LiveBroker;
import dev.wharf.controller.state.ApplyResult;
import dev.wharf.controller.state.ControllerState;
import dev.wharf.controller.state.GroupRecord;
import dev.wharf.controller.state.LogCommand;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ControllerData.SyncStateSet;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.ControllerHeaders;
import dev.wharf.protocol.header.ControllerHeaders.MasterHeader;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.exception.RemotingException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's election duty: decides with the {@link ElectPolicy}, writes the outcome through the Raft log (guarded
 * by the master epoch it was decided on), and tells the group's alive replicas. Runs for requests (a broker, an
 * admin) and for the periodic scan that finds masters whose heartbeats lapsed. Elections are serialized: one decision
 * at a time sees the state the previous one wrote.
 *
 * <p>After this node becomes leader it does not know who is alive (liveness is not replicated: heartbeats went to the
 * old leader's memory). It presumes every registered replica alive for one heartbeat timeout from the moment it became
 * leader, as if each had just heartbeated: a master that finds the new leader within that time keeps its role and
 * epoch, and one that does not is replaced like any silent master. A presumed replica is never elected (nothing is
 * known of its log), and a group is not left masterless while members of its sync-state set may still turn up.
 */
final class Elections {

    private static final Logger log = LoggerFactory.getLogger(Elections.class);

    /** Who asked for an election. */
    enum Trigger { CONTROLLER, BROKER, ADMIN }

    /** The answer to an election request: a response code, a sentence, and the group afterwards. */
    record Outcome(int code, String remark, GroupRecord group) {
    }

    private final RaftNode raft;
    private final ControllerState state;
    private final BrokerLiveTable live;
    private final ControllerConfig config;
    private final ElectPolicy policy;
    private final LongSupplier clock;
    private volatile long livenessKnownAfter = Long.MAX_VALUE;
    /** The term whose leadership {@link #onLeaderReady} prepared the liveness table for; -1: none. */
    private volatile long seededTerm = -1;

    Elections(RaftNode raft, ControllerState state, BrokerLiveTable live, ControllerConfig config, LongSupplier clock) {
        this.raft = raft;
        this.state = state;
        this.live = live;
        this.config = config;
        this.policy = new ElectPolicy(config.isEnableElectUncleanMaster());
        this.clock = clock;
    }

    /**
     * This node just became a ready leader: every registered replica is presumed alive for one heartbeat timeout.
     * The table is not cleared here (it was when leadership was lost): a heartbeat taken between Ratis reporting
     * this node ready and this call must not be dropped.
     */
    void onLeaderReady() {
        long now = clock.getAsLong();
        long until = now + config.getControllerHeartBeatTimeoutMills();
        int presumed = 0;
        for (GroupRecord g : state.groups()) {
            for (long id : g.replicas().keySet()) {
                live.presume(g.brokerName(), id, until);
                presumed++;
            }
        }
        livenessKnownAfter = until;
        seededTerm = raft.currentTerm();
        log.info("Controller {} leads; {} registered replicas count as alive for {} ms unless they heartbeat sooner",
                raft.selfId(), presumed, config.getControllerHeartBeatTimeoutMills());
    }

    /**
     * Another node leads now: the table is cleared (a later leadership starts from presumptions again). A notice that
     * arrives while this node leads (a late one about an earlier term) is ignored, or it would wipe the presumptions
     * of the current leadership and let masters that have not heartbeated yet count as dead.
     */
    void onLeadershipLost(String newLeaderId) {
        if (raft.isLeader()) {
            log.info("Controller {} leads; a leadership notice naming {} is out of date and ignored", raft.selfId(),
                    newLeaderId);
            return;
        }
        seededTerm = -1;
        livenessKnownAfter = Long.MAX_VALUE;
        live.clear();
    }

    /** Whether this node is a ready leader whose liveness table was prepared for its current term. */
    private boolean leadsWithLiveness() {
        return raft.isLeaderReady() && raft.currentTerm() == seededTerm;
    }

    long livenessKnownInMillis() {
        return Math.max(0, livenessKnownAfter - clock.getAsLong());
    }

    synchronized Outcome elect(String brokerName, long designated, long requester, Trigger trigger) {
        GroupRecord g = state.group(brokerName);
        if (g == null) {
            return new Outcome(ResponseCode.CONTROLLER_INVALID_REQUEST, "no broker of name " + brokerName
                    + " has registered with the controller", null);
        }
        if (g.everElected() && !leadsWithLiveness()) {
            // before the presumptions of this term are in place, a master not heard from yet would count as dead
            return new Outcome(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED, "the controller leader changed a moment"
                    + " ago and is not ready to judge which brokers are alive; retry", g);
        }
        long now = clock.getAsLong();
        if (designated == ControllerHeaders.NO_BROKER && g.hasMaster()
                && live.presumed(brokerName, g.masterBrokerId(), now)) {
            // not heard from since this node became leader, but not silent for a heartbeat timeout either
            return new Outcome(ResponseCode.CONTROLLER_MASTER_STILL_EXIST, "broker " + g.masterBrokerId()
                    + " stays master of " + brokerName + " (the controller leader changed recently; the master counts"
                    + " as alive for another " + livenessKnownInMillis() + " ms unless it heartbeats)", g);
        }
        ElectDecision d = policy.decide(g, id -> live.alive(brokerName, id, now), designated, requester);
        if (d.kind() == ElectDecision.Kind.NO_CANDIDATE && designated == ControllerHeaders.NO_BROKER
                && g.everElected()) {
            List<Long> unheard = g.syncStateSet().stream().filter(id -> live.presumed(brokerName, id, now)).toList();
            if (!unheard.isEmpty()) {
                // a member that has not found this new leader yet may still be elected: do not clear the master
                return new Outcome(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED, "the controller leader changed"
                        + " recently and members " + unheard + " of the sync-state set of " + brokerName + " have not"
                        + " heartbeated to it yet; retry in " + livenessKnownInMillis() + " ms", g);
            }
        }
        switch (d.kind()) {
            case KEEP_MASTER:
                return new Outcome(ResponseCode.CONTROLLER_MASTER_STILL_EXIST, "broker " + d.brokerId()
                        + " stays master of " + brokerName + " (" + d.reason() + ")", g);
            case REFUSED:
                return new Outcome(d.refusalCode(), d.reason(), g);
            case NEW_MASTER:
                return write(g, d.brokerId(), d.reason(), trigger);
            case NO_CANDIDATE:
            default:
                if (trigger == Trigger.CONTROLLER && g.hasMaster()) {
                    // the master is gone and nobody may replace it: clear it so no one follows a dead master
                    Outcome cleared = write(g, ControllerHeaders.NO_BROKER, d.reason(), trigger);
                    return new Outcome(cleared.code() == ResponseCode.SUCCESS
                            ? ResponseCode.CONTROLLER_ELECT_MASTER_FAILED : cleared.code(), d.reason(), cleared.group());
                }
                return new Outcome(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED, d.reason(), g);
        }
    }

    private Outcome write(GroupRecord g, long newMaster, String reason, Trigger trigger) {
        ApplyResult r = raft.write(new LogCommand.Elect(g.brokerName(), g.masterEpoch(), newMaster))
                .orTimeout(config.getControllerRequestTimeoutMillis(), TimeUnit.MILLISECONDS).join();
        if (!r.isSuccess()) {
            return new Outcome(r.code(), r.remark(), r.group() != null ? r.group() : g);
        }
        GroupRecord after = r.group();
        if (after.hasMaster()) {
            log.info("Elected broker {} ({}) master of {} at epoch {} ({}, by {})", after.masterBrokerId(),
                    after.masterAddress(), after.brokerName(), after.masterEpoch(), reason, trigger);
        } else {
            log.warn("{} has no master from epoch {}: {}", after.brokerName(), after.masterEpoch(), reason);
        }
        notifyReplicas(after);
        return new Outcome(ResponseCode.SUCCESS, reason, after);
    }

    /** One-way notices to the group's alive replicas; they also learn it from heartbeat answers and polls. */
    private void notifyReplicas(GroupRecord g) {
        if (!config.isNotifyBrokerRoleChanged()) {
            return;
        }
        for (LiveBroker b : live.alive(g.brokerName(), clock.getAsLong())) {
            if (!(b.channel() instanceof RemotingChannel channel) || !channel.isActive()) {
                continue;
            }
            RemotingCommand notice = RemotingCommand.createRequest(RequestCode.NOTIFY_BROKER_ROLE_CHANGED)
                    .writeHeader(new MasterHeader(g.brokerName(), g.masterBrokerId(), g.masterAddress(),
                            g.masterEpoch(), g.syncStateSetEpoch()))
                    .setBody(Json.encode(new SyncStateSet(g.syncStateSet(), g.syncStateSetEpoch())))
                    .markOneway();
            try {
                channel.invokeOneway(notice);
            } catch (RemotingException e) {
                log.debug("Role change notice to broker {} of {} failed (it will poll): {}", b.brokerId(),
                        g.brokerName(), e.toString());
            }
        }
    }

    /** The periodic scan on the leader: drops silent brokers and elects where a master is missing or dead. */
    void scan() {
        if (!leadsWithLiveness()) {
            return;
        }
        long now = clock.getAsLong();
        for (LiveBroker gone : live.expire(now)) {
            log.info("Broker {} of {} at {} is silent for over {} ms", gone.brokerId(), gone.brokerName(),
                    gone.address(), gone.timeoutMillis());
        }
        for (String unheard : live.expirePresumptions(now)) {
            log.info("Broker {} did not heartbeat within {} ms of this controller becoming leader", unheard,
                    config.getControllerHeartBeatTimeoutMills());
        }
        for (GroupRecord g : state.groups()) {
            boolean needsElection = g.hasMaster()
                    ? !live.aliveOrPresumed(g.brokerName(), g.masterBrokerId(), now)
                    : !live.alive(g.brokerName(), now).isEmpty();
            if (needsElection) {
                try {
                    elect(g.brokerName(), ControllerHeaders.NO_BROKER, ControllerHeaders.NO_BROKER, Trigger.CONTROLLER);
                } catch (RuntimeException e) {
                    log.warn("Election for {} failed, retried at the next scan: {}", g.brokerName(), e.toString());
                }
            }
        }
    }
}

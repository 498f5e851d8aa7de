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
 * <p>After this node becomes leader it does not know who is alive (liveness is not replicated). For one heartbeat
 * timeout it lets no master count as dead and refuses elections of groups that ever had a master; brokers heartbeat
 * to the new leader meanwhile.
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

    Elections(RaftNode raft, ControllerState state, BrokerLiveTable live, ControllerConfig config, LongSupplier clock) {
        this.raft = raft;
        this.state = state;
        this.live = live;
        this.config = config;
        this.policy = new ElectPolicy(config.isEnableElectUncleanMaster());
        this.clock = clock;
    }

    /** This node just became a ready leader: liveness is re-learnt from scratch over one heartbeat timeout. */
    void onLeaderReady() {
        live.clear();
        livenessKnownAfter = clock.getAsLong() + config.getControllerHeartBeatTimeoutMills();
        log.info("Controller {} leads; broker liveness is known after {} ms of heartbeats", raft.selfId(),
                config.getControllerHeartBeatTimeoutMills());
    }

    void onLeadershipLost() {
        livenessKnownAfter = Long.MAX_VALUE;
        live.clear();
    }

    boolean livenessKnown() {
        return clock.getAsLong() >= livenessKnownAfter;
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
        long now = clock.getAsLong();
        ElectDecision d = policy.decide(g, id -> live.alive(brokerName, id, now), designated, requester);
        // replacing the master because it was not heard from, not because an admin designated an alive replica
        boolean judgesSomeoneDead = designated == ControllerHeaders.NO_BROKER
                && (d.kind() == ElectDecision.Kind.NEW_MASTER || d.kind() == ElectDecision.Kind.NO_CANDIDATE);
        if (g.everElected() && judgesSomeoneDead && !livenessKnown()) {
            // a silent replica may just not have found this new leader yet
            return new Outcome(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED, "the controller leader changed recently "
                    + "and is still learning which brokers are alive; retry in " + livenessKnownInMillis() + " ms", g);
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
        if (!raft.isLeaderReady()) {
            return;
        }
        long now = clock.getAsLong();
        for (LiveBroker gone : live.expire(now)) {
            log.info("Broker {} of {} at {} is silent for over {} ms", gone.brokerId(), gone.brokerName(),
                    gone.address(), gone.timeoutMillis());
        }
        boolean known = livenessKnown();
        for (GroupRecord g : state.groups()) {
            if (g.everElected() && !known) {
                continue;
            }
            boolean needsElection = g.hasMaster()
                    ? live.alive(g.brokerName(), g.masterBrokerId(), now) == null
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

package dev.wharf.controller;

import dev.wharf.controller.elect.BrokerLiveTable;
import dev.wharf.controller.elect.LiveBroker;
import dev.wharf.controller.state.AlterCheck;
import dev.wharf.controller.state.ApplyResult;
import dev.wharf.controller.state.ControllerState;
import dev.wharf.controller.state.GroupRecord;
import dev.wharf.controller.state.LogCommand;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.protocol.body.ControllerData.BrokerGroups;
import dev.wharf.protocol.body.ControllerData.ControllerMember;
import dev.wharf.protocol.body.ControllerData.ControllerMetadata;
import dev.wharf.protocol.body.ControllerData.RegisterResult;
import dev.wharf.protocol.body.ControllerData.SyncStateSet;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.ControllerHeaders;
import dev.wharf.protocol.header.ControllerHeaders.AlterSyncStateSetRequest;
import dev.wharf.protocol.header.ControllerHeaders.ElectMasterRequest;
import dev.wharf.protocol.header.ControllerHeaders.HeartbeatRequest;
import dev.wharf.protocol.header.ControllerHeaders.MasterHeader;
import dev.wharf.protocol.header.ControllerHeaders.NotLeaderHeader;
import dev.wharf.protocol.header.ControllerHeaders.RegisterRequest;
import dev.wharf.protocol.header.ControllerHeaders.ReplicaInfoRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Answers the controller requests. Any node answers CONTROLLER_GET_METADATA_INFO; every other request needs the
 * ready leader, and another node answers CONTROLLER_NOT_LEADER naming the leader (id and address, when known) so the
 * caller goes there.
 */
final class ControllerProcessor implements RequestProcessor {

    private final RaftNode raft;
    private final ControllerState state;
    private final BrokerLiveTable live;
    private final Elections elections;
    private final ControllerConfig config;
    private final Supplier<String> selfAddress;
    private final LongSupplier clock;

    ControllerProcessor(RaftNode raft, ControllerState state, BrokerLiveTable live, Elections elections,
                        ControllerConfig config, Supplier<String> selfAddress, LongSupplier clock) {
        this.raft = raft;
        this.state = state;
        this.live = live;
        this.elections = elections;
        this.config = config;
        this.selfAddress = selfAddress;
        this.clock = clock;
    }

    static int[] codes() {
        return new int[] {RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET, RequestCode.CONTROLLER_ELECT_MASTER,
                RequestCode.CONTROLLER_REGISTER_BROKER, RequestCode.CONTROLLER_GET_REPLICA_INFO,
                RequestCode.CONTROLLER_GET_METADATA_INFO, RequestCode.CONTROLLER_BROKER_HEARTBEAT};
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        if (request.code() == RequestCode.CONTROLLER_GET_METADATA_INFO) {
            return metadata(request);
        }
        if (!raft.isLeaderReady()) {
            return notLeader(request, raft.leaderId());
        }
        try {
            return switch (request.code()) {
                case RequestCode.CONTROLLER_BROKER_HEARTBEAT -> heartbeat(channel, request);
                case RequestCode.CONTROLLER_REGISTER_BROKER -> register(request);
                case RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET -> alter(request);
                case RequestCode.CONTROLLER_ELECT_MASTER -> elect(request);
                case RequestCode.CONTROLLER_GET_REPLICA_INFO -> replicaInfo(request);
                default -> request.newResponse(ResponseCode.REQUEST_CODE_NOT_SUPPORTED, "The controller does not "
                        + "handle " + RequestCode.NAMES.name(request.code()));
            };
        } catch (NotLeaderException e) {
            return notLeader(request, e.leaderId());
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof NotLeaderException nle) {
                return notLeader(request, nle.leaderId());
            }
            if (cause instanceof TimeoutException) {
                return request.newResponse(ResponseCode.SYSTEM_ERROR, "The controller could not commit the change "
                        + "within " + config.getControllerRequestTimeoutMillis() + " ms (is a majority of the "
                        + "controller nodes up?); retry");
            }
            throw e;
        }
    }

    private RemotingCommand heartbeat(RemotingChannel channel, RemotingCommand request) {
        HeartbeatRequest h = request.readHeader(HeartbeatRequest.class);
        GroupRecord g = state.group(h.brokerName());
        if (g == null || !g.isRegistered(h.brokerId())) {
            return request.newResponse(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, "broker " + h.brokerId()
                    + " of " + h.brokerName() + " is not registered with the controller; register first");
        }
        if (!h.brokerAddress().equals(g.addressOf(h.brokerId()))) {
            return request.newResponse(ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED, "broker " + h.brokerId()
                    + " of " + h.brokerName() + " is registered at " + g.addressOf(h.brokerId()) + ", not "
                    + h.brokerAddress() + "; register again to record the new address");
        }
        long timeout = h.heartbeatTimeoutMillis() > 0 ? h.heartbeatTimeoutMillis()
                : config.getControllerHeartBeatTimeoutMills();
        live.onHeartbeat(new LiveBroker(h.clusterName(), h.brokerName(), h.brokerId(), h.brokerAddress(),
                clock.getAsLong(), timeout, h.epoch(), h.maxOffset(), h.confirmOffset(), h.electionPriority(),
                channel));
        return request.newResponse(ResponseCode.SUCCESS, null).writeHeader(masterHeader(g));
    }

    private RemotingCommand register(RemotingCommand request) {
        RegisterRequest h = request.readHeader(RegisterRequest.class);
        checkAddress(h.brokerAddress());
        ApplyResult r = join(raft.write(new LogCommand.Register(h.clusterName(), h.brokerName(), h.brokerId(),
                h.brokerAddress(), h.registerCheckCode())));
        if (!r.isSuccess()) {
            return request.newResponse(r.code(), r.remark());
        }
        return request.newResponse(ResponseCode.SUCCESS, null)
                .setBody(Json.encode(new RegisterResult(r.brokerId(), view(r.group()))));
    }

    private RemotingCommand alter(RemotingCommand request) {
        AlterSyncStateSetRequest h = request.readHeader(AlterSyncStateSetRequest.class);
        SyncStateSet proposed = Json.decode(request.body(), SyncStateSet.class);
        if (proposed.members() == null) {
            return request.newResponse(ResponseCode.CONTROLLER_INVALID_REQUEST, "the SyncStateSet body has no members");
        }
        GroupRecord g = state.group(h.brokerName());
        if (g == null) {
            return request.newResponse(ResponseCode.CONTROLLER_INVALID_REQUEST, "no broker of name " + h.brokerName()
                    + " has registered with the controller");
        }
        List<Long> members = proposed.members();
        String problem = AlterCheck.problem(g, h.masterBrokerId(), h.masterEpoch(), proposed.epoch(), members);
        if (problem != null) {
            return request.newResponse(AlterCheck.code(g, h.masterBrokerId(), h.masterEpoch(), proposed.epoch(),
                    members), problem);
        }
        long now = clock.getAsLong();
        for (long id : members) {
            if (id != h.masterBrokerId() && !live.aliveOrPresumed(h.brokerName(), id, now)) {
                return request.newResponse(ResponseCode.CONTROLLER_INVALID_REPLICAS, "broker " + id + " of "
                        + h.brokerName() + " is not alive (its heartbeats lapsed or its connection closed); it"
                        + " cannot join the sync-state set");
            }
        }
        ApplyResult r = join(raft.write(new LogCommand.AlterSyncStateSet(h.brokerName(), h.masterBrokerId(),
                h.masterEpoch(), proposed.epoch(), members)));
        if (!r.isSuccess()) {
            return request.newResponse(r.code(), r.remark());
        }
        GroupRecord after = r.group();
        return request.newResponse(ResponseCode.SUCCESS, null)
                .setBody(Json.encode(new SyncStateSet(after.syncStateSet(), after.syncStateSetEpoch())));
    }

    private RemotingCommand elect(RemotingCommand request) {
        ElectMasterRequest h = request.readHeader(ElectMasterRequest.class);
        Elections.Outcome o = h.designateElect()
                ? elections.elect(h.brokerName(), h.brokerId(), ControllerHeaders.NO_BROKER, Elections.Trigger.ADMIN)
                : elections.elect(h.brokerName(), ControllerHeaders.NO_BROKER, h.brokerId(), Elections.Trigger.BROKER);
        RemotingCommand response = request.newResponse(o.code(), o.code() == ResponseCode.SUCCESS ? null : o.remark());
        if (o.group() != null) {
            response.setBody(Json.encode(view(o.group())));
        }
        return response;
    }

    private RemotingCommand replicaInfo(RemotingCommand request) {
        String name = request.readHeader(ReplicaInfoRequest.class).brokerName();
        List<GroupRecord> groups = join(raft.read(name == null || name.isBlank() ? null : name));
        if (name != null && !name.isBlank() && groups.isEmpty()) {
            return request.newResponse(ResponseCode.CONTROLLER_INVALID_REQUEST, "no broker of name " + name
                    + " has registered with the controller");
        }
        List<BrokerGroupInfo> infos = new ArrayList<>();
        for (GroupRecord g : groups) {
            infos.add(view(g));
        }
        return request.newResponse(ResponseCode.SUCCESS, null).setBody(Json.encode(new BrokerGroups(infos)));
    }

    private RemotingCommand metadata(RemotingCommand request) {
        Map<String, String> addresses = state.memberAddresses();
        List<ControllerMember> members = new ArrayList<>();
        raft.peers().raftAddresses().forEach((id, raftAddress) -> members.add(new ControllerMember(id, raftAddress,
                id.equals(raft.selfId()) ? selfAddress.get() : addresses.get(id))));
        var info = raft.info();
        String leader = raft.leaderId();
        ControllerMetadata m = new ControllerMetadata(raft.groupName(), raft.selfId(), selfAddress.get(),
                info.getCurrentRole().name(), info.getCurrentTerm(), leader, leaderAddress(leader),
                info.isLeader() && info.isLeaderReady(), info.getLastAppliedIndex(), members);
        return request.newResponse(ResponseCode.SUCCESS, null).setBody(Json.encode(m));
    }

    private RemotingCommand notLeader(RemotingCommand request, String leaderId) {
        String leaderAddress = leaderAddress(leaderId);
        String where;
        if (leaderId == null || leaderId.equals(raft.selfId())) {
            where = "no leader is ready yet; retry shortly";
        } else {
            where = "the leader is " + leaderId + (leaderAddress != null ? " at " + leaderAddress : "");
        }
        return request.newResponse(ResponseCode.CONTROLLER_NOT_LEADER, "controller " + raft.selfId()
                        + " is not the leader; " + where)
                .writeHeader(new NotLeaderHeader(leaderId, leaderAddress));
    }

    private String leaderAddress(String leaderId) {
        if (leaderId == null) {
            return null;
        }
        return leaderId.equals(raft.selfId()) ? selfAddress.get() : state.memberAddresses().get(leaderId);
    }

    private BrokerGroupInfo view(GroupRecord g) {
        return GroupViews.info(g, live, clock.getAsLong());
    }

    private static MasterHeader masterHeader(GroupRecord g) {
        return new MasterHeader(g.brokerName(), g.masterBrokerId(), g.masterAddress(), g.masterEpoch(),
                g.syncStateSetEpoch());
    }

    private <T> T join(CompletableFuture<T> f) {
        return f.orTimeout(config.getControllerRequestTimeoutMillis(), TimeUnit.MILLISECONDS).join();
    }

    private static void checkAddress(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("brokerAddress '" + address + "' is not host:port");
        }
    }
}

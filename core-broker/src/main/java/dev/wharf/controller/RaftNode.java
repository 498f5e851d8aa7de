package dev.wharf.controller;

import dev.wharf.controller.state.ApplyResult;
import dev.wharf.controller.state.CommandLayout;
import dev.wharf.controller.state.ControllerStateMachine;
import dev.wharf.controller.state.GroupList;
import dev.wharf.controller.state.GroupRecord;
import dev.wharf.controller.state.LogCommand;
import dev.wharf.protocol.body.Json;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * One node of the controller's Raft group on Apache Ratis (gRPC transport): starts the Ratis server, and submits
 * commands (writes through the log) and queries (linearizable reads: the leader confirms its leadership with a
 * majority before it answers) to it directly, without a network hop. Thread-safe.
 */
final class RaftNode implements AutoCloseable {

    private final ControllerConfig config;
    private final ControllerPeers peers;
    private final ControllerStateMachine stateMachine;
    private final RaftPeerId selfId;
    private final RaftGroup group;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private volatile RaftServer server;
    private volatile RaftServer.Division division;

    RaftNode(ControllerConfig config, ControllerPeers peers, ControllerStateMachine stateMachine) {
        this.config = config;
        this.peers = peers;
        this.stateMachine = stateMachine;
        if (!peers.raftAddresses().containsKey(config.getControllerSelfId())) {
            throw new IllegalArgumentException("controllerSelfId '" + config.getControllerSelfId() + "' is not one of "
                    + "the controllerPeers " + peers.ids() + "; give this node's id");
        }
        this.selfId = RaftPeerId.valueOf(config.getControllerSelfId());
        List<RaftPeer> members = new ArrayList<>();
        peers.raftAddresses().forEach((id, address) ->
                members.add(RaftPeer.newBuilder().setId(id).setAddress(address).build()));
        RaftGroupId groupId = RaftGroupId.valueOf(
                UUID.nameUUIDFromBytes(config.getControllerGroup().getBytes(StandardCharsets.UTF_8)));
        this.group = RaftGroup.valueOf(groupId, members);
    }

    synchronized void start() throws IOException {
        Path dir = Path.of(config.getControllerStorePath()).toAbsolutePath();
        Files.createDirectories(dir);
        String host = peers.host(selfId.toString());
        int port = peers.port(selfId.toString());
        checkBindable(host, port);
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        RaftServerConfigKeys.setStorageDir(p, List.of(dir.toFile()));
        GrpcConfigKeys.Server.setHost(p, host);
        GrpcConfigKeys.Server.setPort(p, port);
        long t = config.getControllerElectionTimeoutMillis();
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(t, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(2 * t, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setRequestTimeout(p,
                TimeDuration.valueOf(config.getControllerRequestTimeoutMillis(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, config.getControllerSnapshotThreshold());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        // the controller's entries are tiny: small segments keep the disk footprint small
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf("4MB"));
        RaftServerConfigKeys.Log.setPreallocatedSize(p, SizeInBytes.valueOf("64KB"));
        File groupDir = dir.resolve(group.getGroupId().getUuid().toString()).toFile();
        server = RaftServer.newBuilder()
                .setServerId(selfId)
                .setGroup(group)
                .setProperties(p)
                .setStateMachine(stateMachine)
                .setOption(groupDir.isDirectory() ? RaftStorage.StartupOption.RECOVER
                        : RaftStorage.StartupOption.FORMAT)
                .build();
        try {
            server.start();
        } catch (IOException | RuntimeException e) {
            IOException failed = new IOException("Raft server of " + selfId + " on " + host + ":" + port
                    + " did not start: " + e, e);
            try {
                server.close();
            } catch (IOException | RuntimeException closing) {
                failed.addSuppressed(closing);
            }
            server = null;
            throw failed;
        }
        division = server.getDivision(group.getGroupId());
    }

    /**
     * Fails with a clear error when the Raft port is taken. Ratis ends the whole process (System.exit) when its
     * gRPC server cannot bind, which would also take down a NameServer that runs this controller inside it; checked
     * here first, a port in use is an ordinary start failure.
     */
    private static void checkBindable(String host, int port) throws IOException {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(host, port));
        } catch (IOException e) {
            throw new IOException("the Raft port " + host + ":" + port + " cannot be bound (" + e.getMessage()
                    + "); stop what uses it or give this node another port in controllerPeers", e);
        }
    }

    String selfId() {
        return selfId.toString();
    }

    /** This node's member of the group; also while {@link #start} runs (Ratis calls back from inside it). */
    private RaftServer.Division division() {
        RaftServer.Division d = division;
        if (d == null) {
            RaftServer s = server;
            if (s == null) {
                throw new IllegalStateException("controller " + selfId + " is not started");
            }
            try {
                d = s.getDivision(group.getGroupId());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            division = d;
        }
        return d;
    }

    ControllerPeers peers() {
        return peers;
    }

    String groupName() {
        return config.getControllerGroup();
    }

    DivisionInfo info() {
        return division().getInfo();
    }

    boolean isLeaderReady() {
        DivisionInfo info = division().getInfo();
        return info.isLeader() && info.isLeaderReady();
    }

    /** Whether this node is the leader now, ready or not. */
    boolean isLeader() {
        return division().getInfo().isLeader();
    }

    /** The Raft term this node is in. */
    long currentTerm() {
        return division().getInfo().getCurrentTerm();
    }

    /** The leader's id as this node knows it, or null. */
    String leaderId() {
        RaftPeerId id = division().getInfo().getLeaderId();
        return id == null ? null : id.toString();
    }

    /** Appends a command to the log and completes with its result once a majority has it and it is applied here. */
    CompletableFuture<ApplyResult> write(LogCommand command) {
        return submit(CommandLayout.encode(command), RaftClientRequest.writeRequestType())
                .thenApply(bytes -> Json.decode(bytes, ApplyResult.class));
    }

    /** The replicated state of one broker name (null: all), read linearizably. */
    CompletableFuture<List<GroupRecord>> read(String brokerName) {
        return submit(CommandLayout.encode(new CommandLayout.Query(brokerName)), RaftClientRequest.readRequestType())
                .thenApply(bytes -> Json.decode(bytes, GroupList.class).groups());
    }

    private CompletableFuture<byte[]> submit(byte[] payload, RaftClientRequest.Type type) {
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(selfId)
                .setGroupId(group.getGroupId())
                .setCallId(callIds.incrementAndGet())
                .setMessage(Message.valueOf(ByteString.copyFrom(payload)))
                .setType(type)
                .build();
        CompletableFuture<RaftClientReply> reply;
        try {
            reply = server.submitClientRequestAsync(request);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        return reply.orTimeout(config.getControllerRequestTimeoutMillis(), TimeUnit.MILLISECONDS)
                .thenApply(this::content);
    }

    private byte[] content(RaftClientReply reply) {
        if (reply.isSuccess()) {
            return reply.getMessage().getContent().toByteArray();
        }
        if (reply.getNotLeaderException() != null) {
            RaftPeer suggested = reply.getNotLeaderException().getSuggestedLeader();
            throw new NotLeaderException(suggested == null ? null : suggested.getId().toString(),
                    "controller " + selfId + " is not the leader");
        }
        if (reply.getLeaderNotReadyException() != null || reply.getLeaderSteppingDownException() != null) {
            throw new NotLeaderException(null, "controller " + selfId + " is not a ready leader yet");
        }
        Exception e = reply.getException();
        throw new IllegalStateException("the controller's Raft group did not take the request: "
                + (e == null ? "unknown reason" : e.getMessage()), e);
    }

    @Override
    public synchronized void close() throws IOException {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}

package dev.wharf.controller.state;

import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Json;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.MD5FileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Ratis state machine of the controller: applies {@link LogCommand}s to a {@link ControllerState} in log order,
 * answers {@link CommandLayout.Query}s, and writes and loads {@link StateSnapshot}s so that a restarted node (or one
 * too far behind for the log) recovers from a snapshot plus the log after it. Leadership events are passed on to a
 * {@link LeadershipListener}.
 */
public final class ControllerStateMachine extends BaseStateMachine {

    private static final Logger log = LoggerFactory.getLogger(ControllerStateMachine.class);

    /** Told when this node becomes a ready leader (its first entry of the term is applied) or leadership moves. */
    public interface LeadershipListener {
        void onLeaderReady();

        void onLeaderChanged(String newLeaderId);
    }

    private final ControllerState state = new ControllerState();
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private volatile LeadershipListener listener;

    public ControllerState state() {
        return state;
    }

    public void setLeadershipListener(LeadershipListener listener) {
        this.listener = listener;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        load(storage.loadLatestSnapshot());
    }

    /** Called by Ratis after it installed a snapshot from the leader. */
    @Override
    public void reinitialize() throws IOException {
        load(storage.loadLatestSnapshot());
    }

    private void load(SingleFileSnapshotInfo snapshot) throws IOException {
        if (snapshot == null) {
            return;
        }
        File file = snapshot.getFile().getPath().toFile();
        MD5Hash md5 = snapshot.getFile().getFileDigest();
        if (md5 != null) {
            MD5FileUtil.verifySavedMD5(file, md5);
        }
        StateSnapshot s = StateSnapshot.readFrom(file.toPath());
        state.restore(s);
        setLastAppliedTermIndex(snapshot.getTermIndex());
        log.info("Controller state loaded from snapshot {} ({} broker names)", file.getName(), s.groups().size());
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public SingleFileSnapshotInfo getLatestSnapshot() {
        return storage.getLatestSnapshot();
    }

    /** Runs on Ratis's apply thread, like the applies, so the state and the applied index match. */
    @Override
    public long takeSnapshot() throws IOException {
        TermIndex last = getLastAppliedTermIndex();
        if (last == null || last.getIndex() < 0) {
            return RaftLog.INVALID_LOG_INDEX;
        }
        File file = storage.getSnapshotFile(last.getTerm(), last.getIndex());
        state.snapshot(last.getTerm(), last.getIndex()).writeTo(file.toPath());
        MD5Hash md5 = MD5FileUtil.computeAndSaveMd5ForFile(file);
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file.toPath(), md5), last));
        log.debug("Controller snapshot taken at {}", last);
        return last.getIndex();
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        ByteString data = entry.getStateMachineLogEntry().getLogData();
        ApplyResult result;
        try {
            result = state.apply(CommandLayout.decodeCommand(data.asReadOnlyByteBuffer()));
        } catch (IllegalArgumentException e) {
            // every node refuses the same bytes the same way, so the state stays identical
            log.warn("Controller log entry {} is not a valid command and changes nothing: {}", entry.getIndex(),
                    e.getMessage());
            result = ApplyResult.refused(ResponseCode.CONTROLLER_INVALID_REQUEST, e.getMessage(), null);
        }
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(Json.encode(result))));
    }

    @Override
    public CompletableFuture<Message> query(Message request) {
        try {
            CommandLayout.Query q = CommandLayout.decodeQuery(request.getContent().asReadOnlyByteBuffer());
            List<GroupRecord> groups;
            if (q.brokerName() == null) {
                groups = state.groups();
            } else {
                GroupRecord g = state.group(q.brokerName());
                groups = g == null ? List.of() : List.of(g);
            }
            return CompletableFuture.completedFuture(
                    Message.valueOf(ByteString.copyFrom(Json.encode(new GroupList(groups)))));
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void notifyLeaderReady() {
        LeadershipListener l = listener;
        if (l != null) {
            l.onLeaderReady();
        }
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId groupMemberId, RaftPeerId newLeaderId) {
        LeadershipListener l = listener;
        if (l != null) {
            l.onLeaderChanged(newLeaderId == null ? null : newLeaderId.toString());
        }
    }
}

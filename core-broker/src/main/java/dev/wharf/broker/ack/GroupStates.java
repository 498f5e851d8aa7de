package dev.wharf.broker.ack;

import dev.wharf.broker.ack.persist.AckLog;
import dev.wharf.broker.ack.persist.AckLogRecord;
import dev.wharf.broker.ack.state.AckStateTable;
import dev.wharf.broker.ack.state.GroupAck;
import dev.wharf.broker.ack.state.QueueAckState;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.store.MessageStore;
import dev.wharf.store.PutMessageResult;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Creates and deletes groups' queue states, logging each creation and deletion. Both happen under the table's
 * monitor, and a new queue state stays locked until its INIT record is appended, so no record about a state can
 * precede its creation in the ack log, and none of a deleted state can follow its deletion. Thread-safe.
 */
final class GroupStates {

    private static final long DISPATCH_WAIT_MILLIS = 3_000;

    private final AckStateTable table;
    private final MessageStore store;
    private final AckLog ackLog;
    private final Runnable changed;

    GroupStates(AckStateTable table, MessageStore store, AckLog ackLog, Runnable changed) {
        this.table = table;
        this.store = store;
        this.ackLog = ackLog;
        this.changed = changed;
    }

    /**
     * The (group, topic) with a state for every queue below {@code readQueueNums}: new queues of a new group start
     * per {@code initMode}, new queues of an existing group at EARLIEST (the subscription existed before them).
     *
     * @param logged collects the INIT appends (may be null)
     */
    GroupAck ensureGroup(String group, String topic, InitMode initMode, int readQueueNums,
                         List<CompletableFuture<PutMessageResult>> logged) {
        synchronized (table) {
            GroupAck existing = table.find(group, topic);
            InitMode mode = existing == null && initMode != null ? initMode : InitMode.EARLIEST;
            GroupAck g = existing != null ? existing : table.getOrCreate(group, topic);
            for (int queueId = 0; queueId < readQueueNums; queueId++) {
                if (g.queue(queueId) == null) {
                    CompletableFuture<PutMessageResult> f = createQueue(g, queueId, mode);
                    if (logged != null) {
                        logged.add(f);
                    }
                }
            }
            changed.run();
            return g;
        }
    }

    /**
     * A queue's state, created (EARLIEST when the group has other queues, else per initMode) when missing; null
     * when {@code g} was deleted meanwhile (a state created for it would outlive the deletion in the log).
     */
    QueueAckState ensureQueue(GroupAck g, int queueId, InitMode initMode) {
        QueueAckState state = g.queue(queueId);
        if (state != null) {
            return state;
        }
        if (initMode == InitMode.LATEST) {
            // "from now" must include a message whose send returned just before: wait for it to be dispatched
            // (outside the table's monitor, so other groups are not held up)
            store.awaitDispatched(DISPATCH_WAIT_MILLIS);
        }
        synchronized (table) {
            if (table.find(g.group, g.topic) != g) {
                return null;
            }
            state = g.queue(queueId);
            if (state == null) {
                boolean first = g.queues().isEmpty();
                createQueue(g, queueId, first && initMode != null ? initMode : InitMode.EARLIEST);
                changed.run();
                state = g.queue(queueId);
            }
            return state;
        }
    }

    /** Creates and logs a queue state; call under the table's monitor. */
    private CompletableFuture<PutMessageResult> createQueue(GroupAck g, int queueId, InitMode mode) {
        long start = mode == InitMode.LATEST ? store.getMaxOffsetInQueue(g.topic, queueId)
                : store.getMinOffsetInQueue(g.topic, queueId);
        QueueAckState state = new QueueAckState(g.group, g.topic, queueId, start);
        state.lock.lock();
        try {
            g.putIfAbsent(state);
            return ackLog.append(AckLogRecord.init(g.group, g.topic, queueId, start));
        } finally {
            state.lock.unlock();
        }
    }

    /**
     * Deletes the (group, topic): its queue states are marked deleted and dropped.
     *
     * @return the DELETE append, or null when there was no state
     */
    CompletableFuture<PutMessageResult> delete(String group, String topic) {
        CompletableFuture<PutMessageResult> logged;
        synchronized (table) {
            GroupAck g = table.remove(group, topic);
            if (g == null) {
                return null;
            }
            deleteQueues(g);
            logged = ackLog.append(AckLogRecord.delete(group, topic));
        }
        changed.run();
        return logged;
    }

    /** Deletes every group's state on a topic that was deleted. */
    void deleteTopic(String topic) {
        synchronized (table) {
            for (GroupAck g : table.removeTopic(topic)) {
                deleteQueues(g);
                ackLog.append(AckLogRecord.delete(g.group, g.topic));
            }
        }
        changed.run();
    }

    private static void deleteQueues(GroupAck g) {
        for (QueueAckState q : g.queueStates()) {
            q.lock.lock();
            try {
                q.delete();
            } finally {
                q.lock.unlock();
            }
        }
    }
}

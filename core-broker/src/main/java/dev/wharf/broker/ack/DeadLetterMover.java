package dev.wharf.broker.ack;

import dev.wharf.broker.ack.persist.AckLog;
import dev.wharf.broker.ack.persist.AckLogRecord.DoneReason;
import dev.wharf.broker.ack.persist.AckLogRecord;
import dev.wharf.broker.ack.state.Delivery;
import dev.wharf.broker.ack.state.LongList;
import dev.wharf.broker.ack.state.QueueAckState;
import dev.wharf.broker.ack.state.QueueAckState.FinishReason;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageId;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.common.message.Tags;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.MessageStore;
import dev.wharf.store.PutMessageResult;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies messages that were delivered too often to their group's dead-letter topic {@code %DLQ%{group}} (one
 * queue, created on demand) and then marks them done. Until the copy is stored the message stays held by the
 * broker (see {@link QueueAckState#holdForDeadLetter}), so no pop hands it out meanwhile; if the copy fails it
 * becomes available again and the next pop that meets it tries again.
 *
 * <p>The copy keeps body, flag, properties (so the unique id, and with it JMSMessageID) and adds where it came
 * from: {@code DLQ_ORIGIN_TOPIC}, {@code DLQ_ORIGIN_QUEUE_ID}, {@code DLQ_ORIGIN_QUEUE_OFFSET},
 * {@code ORIGIN_MESSAGE_ID}, {@code DLQ_DELIVERY_COUNT} and {@code DLQ_REASON}. A crash between storing the
 * copy and marking the original done copies it again after the restart (at-least-once).
 *
 * <p>Moves run on the ack service's thread. Thread-safe.
 */
final class DeadLetterMover {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterMover.class);

    private final MessageStore store;
    private final TopicConfigManager topics;
    private final AckLog ackLog;
    private final Executor executor;
    private final Runnable changed;
    private final QueueWaker waker;

    DeadLetterMover(MessageStore store, TopicConfigManager topics, AckLog ackLog, Executor executor, Runnable changed,
                    QueueWaker waker) {
        this.store = store;
        this.topics = topics;
        this.ackLog = ackLog;
        this.executor = executor;
        this.changed = changed;
        this.waker = waker;
    }

    /** Moves these held messages of a queue (asynchronously). */
    void move(QueueAckState state, long[] offsets, int maxReconsumeTimes) {
        if (offsets.length == 0) {
            return;
        }
        try {
            executor.execute(() -> moveNow(state, offsets, maxReconsumeTimes));
        } catch (RejectedExecutionException e) {
            // shutting down: the messages stay not done and are moved after the restart
            log.debug("Dead-lettering of {} message(s) of {} postponed: {}", offsets.length, state, e.toString());
        }
    }

    private void moveNow(QueueAckState state, long[] offsets, int maxReconsumeTimes) {
        long[] commitLogOffsets = new long[offsets.length];
        int[] counts = new int[offsets.length];
        state.lock.lock();
        try {
            if (state.isDeleted()) {
                return;
            }
            for (int i = 0; i < offsets.length; i++) {
                Delivery d = state.delivery(offsets[i]);
                boolean held = d != null && d.isDeadLettering();
                commitLogOffsets[i] = held ? d.commitLogOffset() : -1;
                counts[i] = held ? d.deliveries() : 0;
            }
        } finally {
            state.lock.unlock();
        }
        String dlqTopic = SystemTopics.dlqTopic(state.group);
        topics.createDlqTopicIfAbsent(state.group);
        boolean[] stored = new boolean[offsets.length];
        for (int i = 0; i < offsets.length; i++) {
            if (commitLogOffsets[i] < 0) {
                continue;
            }
            MessageExt original = store.readMessageAt(commitLogOffsets[i]);
            if (original == null) {
                stored[i] = true; // removed by clean-up meanwhile: nothing left to keep
                continue;
            }
            MessageToStore copy = copyOf(original, dlqTopic, state, offsets[i], counts[i], maxReconsumeTimes);
            PutMessageResult result = store.putMessage(copy);
            stored[i] = result.isOk();
            if (!stored[i]) {
                log.warn("Could not move message {} of {} to {}: {}; it stays on the queue and is tried again",
                        offsets[i], state, dlqTopic, result);
            }
        }
        finish(state, offsets, commitLogOffsets, stored);
    }

    private void finish(QueueAckState state, long[] offsets, long[] commitLogOffsets, boolean[] stored) {
        LongList done = new LongList(offsets.length);
        LongList returned = new LongList(2);
        state.lock.lock();
        try {
            if (state.isDeleted()) {
                return;
            }
            for (int i = 0; i < offsets.length; i++) {
                if (commitLogOffsets[i] < 0) {
                    continue;
                }
                Delivery d = state.delivery(offsets[i]);
                if (d == null || !d.isDeadLettering()) {
                    continue;
                }
                if (stored[i]) {
                    if (state.markDone(offsets[i])) {
                        state.countFinished(FinishReason.DEAD_LETTERED);
                        done.add(offsets[i]);
                    }
                } else {
                    returned.add(d.tagsCode());
                    state.returnLease(d);
                }
            }
            if (!done.isEmpty()) {
                ackLog.append(AckLogRecord.done(state.group, state.topic, state.queueId, DoneReason.DEAD_LETTERED,
                        done.toArray()));
            }
        } finally {
            state.lock.unlock();
        }
        changed.run();
        for (int i = 0; i < returned.size(); i++) {
            waker.wake(state.topic, state.queueId, returned.get(i));
        }
        if (!done.isEmpty()) {
            log.info("Moved {} message(s) of {} to {}", done.size(), state, SystemTopics.dlqTopic(state.group));
        }
    }

    private static MessageToStore copyOf(MessageExt original, String dlqTopic, QueueAckState state,
                                                long queueOffset, int deliveries, int maxReconsumeTimes) {
        MessageToStore copy = new MessageToStore();
        copy.setTopic(dlqTopic);
        copy.setQueueId(0);
        copy.setFlag(original.getFlag());
        copy.setBody(original.getBody());
        Map<String, String> properties = new HashMap<>(original.getProperties());
        properties.put(MessageProperties.DLQ_ORIGIN_TOPIC, state.topic);
        properties.put(MessageProperties.DLQ_ORIGIN_QUEUE_ID, Integer.toString(state.queueId));
        properties.put(MessageProperties.DLQ_ORIGIN_QUEUE_OFFSET, Long.toString(queueOffset));
        properties.put(MessageProperties.ORIGIN_MESSAGE_ID,
                MessageId.create(original.getStoreHost(), original.getCommitLogOffset()));
        properties.put(MessageProperties.DLQ_DELIVERY_COUNT, Integer.toString(deliveries));
        properties.put(MessageProperties.DLQ_REASON, "delivered " + deliveries + " times; maxReconsumeTimes "
                + maxReconsumeTimes + " of group " + state.group + " exceeded");
        copy.setProperties(properties);
        copy.setTagsCode(Tags.hash(original.getTags()));
        // the body keeps its compression; transaction and batch bits belong to the original's put only
        copy.setSysFlag(original.getSysFlag() & (MessageSysFlag.COMPRESSED
                | MessageSysFlag.COMPRESSION_TYPE_MASK | MessageSysFlag.MULTI_TAGS));
        copy.setBornTimestamp(original.getBornTimestamp());
        copy.setBornHost(original.getBornHost());
        copy.setStoreHost(original.getStoreHost());
        copy.setReconsumeTimes(Math.max(0, deliveries - 1));
        return copy;
    }
}

package dev.wharf.broker.schedule;

import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.MessageStore;
import dev.wharf.store.PutMessageResult;
import dev.wharf.store.PutMessageStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what the scheduler takes out of the schedule topic: a due message under its real topic, or a
 * long-waiting timer message as a fresh copy at the end of the timer queue (a "roll", so commit-log clean-up
 * never deletes a message that still waits). Puts are appended at once and their disk confirmations
 * (SYNC_FLUSH) collected, so one group commit covers a whole round; {@link #awaitPending()} waits for them
 * before the scheduler records its progress. Not thread-safe: owned by the schedule thread.
 */
final class ScheduledPutter {

    private static final Logger log = LoggerFactory.getLogger(ScheduledPutter.class);

    /** What became of one message. */
    enum Outcome {
        /** Written (the append succeeded; its disk confirmation may still be pending). */
        STORED,
        /** Nothing to write, for good: the message is gone from the store, or cannot be stored (logged). */
        SKIPPED,
        /** The store refused for now (shutting down, disk full): leave the message and try again later. */
        RETRY_LATER
    }

    private final MessageStore store;
    private final TopicConfigManager topics;
    private final int timerQueueId;
    private final List<CompletableFuture<PutMessageResult>> pending = new ArrayList<>();
    private long stored;
    private long rolled;
    private long skipped;

    ScheduledPutter(MessageStore store, TopicConfigManager topics, int timerQueueId) {
        this.store = store;
        this.topics = topics;
        this.timerQueueId = timerQueueId;
    }

    /** Stores the scheduled message at {@code phyOffset} (queue {@code queueId}, offset {@code queueOffset}) under its real topic. */
    Outcome deliver(int queueId, long queueOffset, long phyOffset) {
        MessageExt scheduled = store.readMessageAt(phyOffset);
        if (scheduled == null) {
            skipped++;
            log.warn("Scheduled message {}:{} at commit-log offset {} is gone (cleaned up); it cannot be delivered",
                    queueId, queueOffset, phyOffset);
            return Outcome.SKIPPED;
        }
        MessageToStore msg = ScheduledMessages.restore(scheduled, queueId, queueOffset);
        if (msg == null) {
            skipped++;
            log.warn("Message {}:{} of {} names no real topic; skipped", queueId, queueOffset,
                    SystemTopics.SCHEDULE_TOPIC);
            return Outcome.SKIPPED;
        }
        TopicConfig topic = realTopic(msg.getTopic());
        if (topic == null) {
            skipped++;
            log.warn("Scheduled message {} for topic {} dropped: the topic no longer exists on this broker",
                    scheduled.getMsgId(), msg.getTopic());
            return Outcome.SKIPPED;
        }
        if (msg.getQueueId() >= topic.writeQueueNums()) {
            msg.setQueueId(msg.getQueueId() % topic.writeQueueNums()); // the topic shrank while the message waited
        }
        Outcome outcome = put(msg);
        if (outcome == Outcome.STORED) {
            stored++;
        }
        return outcome;
    }

    /** Copies the timer message at {@code phyOffset} to the end of the timer queue, naming the old one its source. */
    Outcome roll(long queueOffset, long phyOffset) {
        MessageExt scheduled = store.readMessageAt(phyOffset);
        if (scheduled == null) {
            skipped++;
            log.warn("Timer message {}:{} at commit-log offset {} is gone (cleaned up); it cannot be delivered",
                    timerQueueId, queueOffset, phyOffset);
            return Outcome.SKIPPED;
        }
        MessageToStore copy = ScheduledMessages.copyForRoll(scheduled, timerQueueId, queueOffset);
        Outcome outcome = put(copy);
        if (outcome == Outcome.STORED) {
            rolled++;
        }
        return outcome;
    }

    /** Notes a scheduled entry whose queue unit is gone (cleaned up with old files). */
    Outcome gone(int queueId, long queueOffset) {
        skipped++;
        log.warn("Scheduled message {}:{} is gone from its queue (cleaned up); it cannot be delivered", queueId,
                queueOffset);
        return Outcome.SKIPPED;
    }

    private TopicConfig realTopic(String name) {
        TopicConfig config = topics.find(name);
        if (config != null) {
            return config;
        }
        if (SystemTopics.isRetryTopic(name) || SystemTopics.isDlqTopic(name)) {
            return topics.createIfAbsent(name, 1);
        }
        return topics.isAutoCreateTopicEnable() ? topics.findOrCreateForSend(name, 0) : null;
    }

    private Outcome put(MessageToStore msg) {
        CompletableFuture<PutMessageResult> future = store.asyncPutMessage(msg);
        PutMessageResult result = future.getNow(null);
        if (result != null && isIllegal(result.status())
                && msg.getProperty(MessageProperties.SCHEDULE_SOURCE) != null) {
            // the source mark itself may push the properties over their limit: deliver without it (a crash right
            // after could then deliver the message twice, which beats never)
            msg.removeProperty(MessageProperties.SCHEDULE_SOURCE);
            msg.setPropertiesString(null);
            future = store.asyncPutMessage(msg);
            result = future.getNow(null);
        }
        if (result == null) {
            pending.add(future);
            return Outcome.STORED;
        }
        switch (result.status()) {
            case PUT_OK, FLUSH_DISK_TIMEOUT -> {
                return Outcome.STORED;
            }
            case MESSAGE_ILLEGAL, PROPERTIES_SIZE_EXCEEDED -> {
                skipped++;
                log.error("Scheduled message for topic {} cannot be stored and is dropped: {}", msg.getTopic(),
                        result.errorMessage());
                return Outcome.SKIPPED;
            }
            default -> {
                return Outcome.RETRY_LATER;
            }
        }
    }

    private static boolean isIllegal(PutMessageStatus status) {
        return status == PutMessageStatus.MESSAGE_ILLEGAL || status == PutMessageStatus.PROPERTIES_SIZE_EXCEEDED;
    }

    /**
     * Waits for the disk confirmations of this round's puts. A put that is appended counts as delivered even
     * if the disk confirmation timed out: it is in the commit log, and writing it again would duplicate it.
     */
    void awaitPending() {
        for (CompletableFuture<PutMessageResult> future : pending) {
            try {
                future.join();
            } catch (CompletionException e) {
                log.warn("Waiting for the disk after a scheduled put failed: {}", e.getCause().toString());
            }
        }
        pending.clear();
    }

    long storedCount() {
        return stored;
    }

    long rolledCount() {
        return rolled;
    }

    long skippedCount() {
        return skipped;
    }
}

package dev.wharf.store;

import dev.wharf.common.message.MessageExt;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The broker's message store: one commit log, a consume queue per topic/queue, an index by key. All methods
 * are thread-safe. Reads never wait for writers.
 */
public interface MessageStore {

    /** Locks the store folder, loads and recovers it, and starts the flush, dispatch and clean-up services. */
    void start() throws IOException;

    /** Stops the services, flushes everything, writes the checkpoint, deletes the abort marker, unlocks. */
    void shutdown();

    /** Stores one message; with SYNC_FLUSH it returns once the message is on disk (or the wait timed out). */
    PutMessageResult putMessage(MessageExtBrokerInner msg);

    /** Like {@link #putMessage} without blocking the caller for the disk. */
    CompletableFuture<PutMessageResult> asyncPutMessage(MessageExtBrokerInner msg);

    /**
     * Stores a batch as consecutive records under one lock hold, waiting once for the disk. The batch is atomic:
     * readers see all of it or none of it, and after a crash it is either all there or not at all. It may take
     * up to {@link MessageStoreConfig#maxBatchBytes()} bytes stored.
     */
    PutMessageResult putMessages(List<MessageExtBrokerInner> batch);

    /**
     * Reads up to {@code maxMsgNums} messages (and about {@code maxTotalBytes}) of one queue from {@code offset}.
     * Release the result once its buffers are sent.
     */
    GetMessageResult getMessage(String topic, int queueId, long offset, int maxMsgNums, int maxTotalBytes,
            MessageFilter filter);

    /**
     * The queue's end as readers see it: the offset after the last readable message (0 for an unknown queue).
     * Messages stored but not dispatched yet, or part of a batch not dispatched whole yet, are not counted.
     */
    long getMaxOffsetInQueue(String topic, int queueId);

    /** The first offset still stored (0 for an unknown queue). */
    long getMinOffsetInQueue(String topic, int queueId);

    /** The first offset whose message was stored at or after {@code timestampMillis}. */
    long getOffsetInQueueByTime(String topic, int queueId, long timestampMillis);

    /** The commit-log offset of a queue's message, or -1 when none. */
    long getCommitLogOffsetInQueue(String topic, int queueId, long queueOffset);

    /** Store time of a queue's message, or -1 when none. */
    long getMessageStoreTimestamp(String topic, int queueId, long queueOffset);

    /** Store time of the queue's first stored message, or -1 when none. */
    long getEarliestMessageTime(String topic, int queueId);

    /** The message at a commit-log offset, decoded; null when gone or not a message. */
    MessageExt lookMessageByOffset(long commitLogOffset);

    /** The record at a commit-log offset, zero-copy; null when gone. The caller releases it. */
    SelectMappedBufferResult selectOneMessageByOffset(long commitLogOffset);

    /** Messages of {@code topic} indexed under {@code key} (a KEYS entry or the unique id), newest first. */
    QueryMessageResult queryMessage(String topic, String key, int maxNum, long beginTimestamp, long endTimestamp);

    long getMinPhyOffset();

    long getMaxPhyOffset();

    /**
     * The commit-log offset below which every record is dispatched and readable: it never stops inside an
     * atomic batch. A message put before returns is readable once this passes its end.
     */
    long getConfirmedPhyOffset();

    /** Commit-log bytes not yet dispatched to consume queues and index. */
    long dispatchBehindBytes();

    void setMessageArrivingListener(MessageArrivingListener listener);

    /** Drops the consume queues of these topics (their messages stay in the commit log until clean-up). */
    void deleteTopics(Set<String> topics);

    /** Topics that have at least one consume queue. */
    Set<String> topicsWithQueues();

    /** Runs clean-up once now, whatever deleteWhen says (expired files only, unless the disk is full). */
    void cleanExpiredFilesNow();

    MessageStoreConfig config();

    StoreStats stats();
}

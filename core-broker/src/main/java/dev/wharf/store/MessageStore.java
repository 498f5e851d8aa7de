package dev.wharf.store;

import dev.wharf.store.health.StoreHealth;
import dev.wharf.common.message.MessageExt;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

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
    PutMessageResult putMessage(MessageToStore msg);

    /** Like {@link #putMessage} without blocking the caller for the disk. */
    CompletableFuture<PutMessageResult> asyncPutMessage(MessageToStore msg);

    /**
     * Stores a batch as consecutive records under one lock hold, waiting once for the disk. The batch is atomic:
     * readers see all of it or none of it, and after a crash it is either all there or not at all. It may take
     * up to {@link MessageStoreConfig#maxBatchBytes()} bytes stored.
     */
    PutMessageResult putMessages(List<MessageToStore> batch);

    /**
     * Reads up to {@code maxMsgNums} messages (and about {@code maxTotalBytes}) of one queue from {@code offset}.
     * Release the result once its buffers are sent.
     */
    GetMessageResult getMessage(String topic, int queueId, long offset, int maxMsgNums, int maxTotalBytes,
            MessageFilter filter);

    /**
     * Hands the units of one queue to {@code visitor} in order, starting at {@code fromOffset} (moved up to the
     * queue's min offset when below it), without reading the commit log: at most {@code maxUnits} units, and
     * only those of the queue file holding the first one, so a call stays short; call again from the returned
     * offset to go on. Blank units (gaps in the numbering) are skipped without a visit.
     *
     * @return the offset to continue from: the unit the visitor declined, or just past the last unit examined;
     *         the start offset when nothing could be read (unknown queue, nothing written there yet)
     */
    long visitQueueUnits(String topic, int queueId, long fromOffset, int maxUnits, QueueUnitVisitor visitor);

    /**
     * Decodes every message record from {@code fromPhyOffset} (a record boundary, e.g. an earlier
     * {@link #getMaxPhyOffset()}; moved up to {@link #getMinPhyOffset()} when below it) to the end of the commit
     * log as it is when the call starts, in order, stepping over the blank ends of files. Bodies are not read.
     * Meant for start-up scans of the last few megabytes, on the caller's thread.
     *
     * @return the offset just past the last record visited (where a later scan would continue)
     */
    long forEachRecord(long fromPhyOffset, Consumer<MessageExt> visitor);

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
    MessageExt readMessageAt(long commitLogOffset);

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

    /**
     * Waits until every record stored before this call is dispatched and readable (sends return once the record is
     * in the commit log; consume queues follow a moment later). For the rare readers that must not miss a record
     * just stored: replaying a log, anchoring a new subscription at "now", resolving a transaction.
     *
     * @return false when that took longer than {@code timeoutMillis}
     */
    boolean awaitDispatched(long timeoutMillis);

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

    /**
     * Whether the store takes writes, and if not why: disk full, dispatch stuck or failed. Health checks report
     * DOWN while it refuses writes.
     */
    StoreHealth health();
}

package dev.wharf.broker.ack.persist;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.store.GetMessageResult;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.MessageFilter;
import dev.wharf.store.MessageStore;
import dev.wharf.store.PutMessageResult;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ack log: {@link AckLogRecord}s stored as messages of the internal topic
 * {@link SystemTopics#ACK_LOG_TOPIC} (one queue) through the normal put path, so they are flushed like every
 * message (per flushDiskType) and recovered with the commit log after a crash. The queue offset of a record
 * orders it; a snapshot names the offset it covers and start-up replays from there.
 *
 * <p>{@link #append} appends synchronously (the store's put lock) and completes when the record is as durable
 * as the flush mode makes it (acknowledgements: stored, and forced with the group commit's next force); callers append while holding the lock of the state they changed, so records of
 * one queue state are in the log in the order their changes were made. Thread-safe.
 */
public final class AckLog {

    private static final long DISPATCH_WAIT_MILLIS = 30_000;

    private static final Logger log = LoggerFactory.getLogger(AckLog.class);
    private static final int REPLAY_BATCH = 32;

    private final MessageStore store;
    private final LongSupplier clock;
    private final boolean forceDeliveryCounts;

    public AckLog(MessageStore store, LongSupplier clock) {
        this(store, clock, true);
    }

    /** @param forceDeliveryCounts whether lease records (POP, DELIVERIES) are forced before the answer (SYNC_FLUSH) */
    public AckLog(MessageStore store, LongSupplier clock, boolean forceDeliveryCounts) {
        this.store = store;
        this.clock = clock;
        this.forceDeliveryCounts = forceDeliveryCounts;
    }

    /** Appends a record; the future completes when it is stored (and flushed, with SYNC_FLUSH). */
    public CompletableFuture<PutMessageResult> append(AckLogRecord record) {
        MessageToStore msg = new MessageToStore();
        msg.setTopic(SystemTopics.ACK_LOG_TOPIC);
        msg.setQueueId(0);
        msg.setBody(AckLogCodec.encode(record));
        msg.setPropertiesString("");
        msg.setBornTimestamp(clock.getAsLong());
        msg.setForcedLater(forcedLater(record.kind(), forceDeliveryCounts));
        return store.asyncPutMessage(msg);
    }

    /**
     * Acknowledgements and finished messages are not waited for on the disk (SYNC_FLUSH): they ride on the next
     * force of the group commit, at most its 10 ms round away, shared with every record and message around them. A power loss right after the answer can cost the newest of
     * them, and the message is then delivered again (marked redelivered: its lease record was forced), never lost.
     * Leases (they carry the delivery counts that mark a redelivery) stay forced unless
     * {@code forceDeliveryCounts} is off: then a power loss can also cost the newest leases, and their messages are
     * handed out again with the earlier delivery count (not marked redelivered), still never lost (the log is
     * sequential, so an acknowledgement on disk always has its lease before it). Group creation and deletion stay
     * forced.
     */
    static boolean forcedLater(AckLogRecord.Kind kind, boolean forceDeliveryCounts) {
        return switch (kind) {
            case ACK, DONE -> true;
            case POP, DELIVERIES -> !forceDeliveryCounts;
            case INIT, DELETE -> false;
        };
    }

    /** The offset the next record will get once dispatched (records below it are readable). */
    public long endOffset() {
        return store.getMaxOffsetInQueue(SystemTopics.ACK_LOG_TOPIC, 0);
    }

    /**
     * Waits (a bounded time) until every record already in the commit log is in the consume queues: records are
     * dispatched asynchronously, and a replay that ran ahead of the dispatcher would miss the newest acks. At broker
     * start the store has dispatched everything before it returns, so this only waits when the service restarts
     * on a live store.
     */
    private void awaitDispatched() {
        if (!store.awaitDispatched(DISPATCH_WAIT_MILLIS)) {
            log.warn("The store is still dispatching {} bytes; replaying the ack log without the newest records",
                    store.dispatchBehindBytes());
        }
    }

    /**
     * Feeds every record from {@code fromOffset} to the end, in order, to {@code apply}.
     *
     * @return how many records were applied
     */
    public long replay(long fromOffset, Consumer<AckLogRecord> apply) {
        awaitDispatched();
        long offset = fromOffset;
        long applied = 0;
        long unreadable = 0;
        long min = store.getMinOffsetInQueue(SystemTopics.ACK_LOG_TOPIC, 0);
        if (offset < min) {
            log.warn("The ack log starts at {} but the snapshot covers only up to {}: the records in between were"
                    + " deleted by clean-up, so acknowledgements made then are lost (messages may be redelivered)",
                    min, offset);
            offset = min;
        }
        while (true) {
            GetMessageResult result = store.getMessage(SystemTopics.ACK_LOG_TOPIC, 0, offset, REPLAY_BATCH,
                    Integer.MAX_VALUE, MessageFilter.ALL);
            try {
                switch (result.status()) {
                    case FOUND, NO_MATCHED_MESSAGE, OFFSET_FOUND_NULL, OFFSET_TOO_SMALL -> {
                        for (SelectMappedBufferResult buffer : result.buffers()) {
                            AckLogRecord record = decodeMessage(buffer.byteBuffer());
                            if (record == null) {
                                unreadable++;
                            } else {
                                apply.accept(record);
                                applied++;
                            }
                        }
                    }
                    default -> {
                        if (unreadable > 0) {
                            log.warn("Skipped {} unreadable ack-log records", unreadable);
                        }
                        return applied;
                    }
                }
                if (result.nextBeginOffset() <= offset) {
                    return applied;
                }
                offset = result.nextBeginOffset();
            } finally {
                result.release();
            }
        }
    }

    private static AckLogRecord decodeMessage(ByteBuffer record) {
        int base = record.position();
        if (record.remaining() < MessageRecord.BODY_OFFSET) {
            return null;
        }
        int bodyLength = record.getInt(base + MessageRecord.BODY_LENGTH_OFFSET);
        if (bodyLength <= 0 || MessageRecord.BODY_OFFSET + bodyLength > record.remaining()) {
            return null;
        }
        return AckLogCodec.decode(record, base + MessageRecord.BODY_OFFSET, bodyLength);
    }
}

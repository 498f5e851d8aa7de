package dev.wharf.store.dispatch;

import dev.wharf.store.file.PeriodicFlushService;
import dev.wharf.store.recovery.StoreCheckpoint;
import java.io.IOException;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flushes the data the dispatcher derives (consume queues, index) on its own schedule; after each complete
 * ("thorough") flush it advances the checkpoint's safe offset: below it, commit log, consume queues and index
 * are all on disk, so recovery after a crash starts at the file holding it. The safe offset need not be a
 * record boundary (the commit log may be flushed to the middle of a record); recovery always restarts at a
 * file start.
 *
 * <p>Runs on its own thread; {@link #flushNow()} may be called when the service is stopped (shutdown).
 */
public final class FlushConsumeQueueService extends PeriodicFlushService {

    private static final Logger log = LoggerFactory.getLogger(FlushConsumeQueueService.class);

    private final IntConsumer flushQueues;
    private final Runnable flushIndex;
    private final LongSupplier dispatchedOffset;
    private final LongSupplier commitLogFlushedOffset;
    private final LongSupplier commitLogStoreTimestamp;
    private final StoreCheckpoint checkpoint;

    /**
     * @param flushQueues             flushes every consume queue with the given least pages
     * @param flushIndex              flushes the index
     * @param dispatchedOffset        the dispatcher's offset (everything below is in queues and index)
     * @param commitLogFlushedOffset  how far the commit log is on disk
     * @param commitLogStoreTimestamp store time of the last flushed commit-log write (for the checkpoint)
     */
    public FlushConsumeQueueService(IntConsumer flushQueues, Runnable flushIndex, LongSupplier dispatchedOffset,
            LongSupplier commitLogFlushedOffset, LongSupplier commitLogStoreTimestamp, StoreCheckpoint checkpoint,
            long intervalMillis, int leastPages, long thoroughIntervalMillis) {
        super(intervalMillis, leastPages, thoroughIntervalMillis);
        this.flushQueues = flushQueues;
        this.flushIndex = flushIndex;
        this.dispatchedOffset = dispatchedOffset;
        this.commitLogFlushedOffset = commitLogFlushedOffset;
        this.commitLogStoreTimestamp = commitLogStoreTimestamp;
        this.checkpoint = checkpoint;
    }

    @Override
    public String getServiceName() {
        return "wharf-flush-consumequeue";
    }

    /** Flushes everything and writes the checkpoint (shutdown, tests). */
    public void flushNow() {
        flush(0);
    }

    @Override
    protected void flush(int pages) {
        // read before flushing: every entry below this offset is already in the mapped queues
        long dispatched = dispatchedOffset.getAsLong();
        long commitLogFlushed = commitLogFlushedOffset.getAsLong();
        long storeTimestamp = commitLogStoreTimestamp.getAsLong();
        flushQueues.accept(pages);
        flushIndex.run();
        long now = System.currentTimeMillis();
        if (pages == 0) {
            // only a complete flush makes every entry below the dispatched offset durable
            checkpoint.setSafeOffset(Math.min(dispatched, commitLogFlushed));
            checkpoint.setLogicsMsgTimestamp(now);
            checkpoint.setIndexMsgTimestamp(now);
        }
        if (storeTimestamp > 0) {
            checkpoint.setPhysicMsgTimestamp(storeTimestamp);
        }
        try {
            checkpoint.flush();
        } catch (IOException e) {
            log.error("Could not write the checkpoint", e);
        }
    }
}

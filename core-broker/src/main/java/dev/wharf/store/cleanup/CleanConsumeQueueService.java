package dev.wharf.store.cleanup;

import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After commit-log files are deleted, drops the consume-queue and index files that only point below the new
 * first commit-log offset (and lets the queues move their minimum offsets past it).
 *
 * <p>Runs on the store's scheduler thread only.
 */
public final class CleanConsumeQueueService implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(CleanConsumeQueueService.class);

    private final LongSupplier commitLogMinOffset;
    private final LongConsumer deleteBelow;
    private long lastMinOffset;

    /**
     * @param commitLogMinOffset the first offset still in the commit log
     * @param deleteBelow        deletes queue and index files wholly below the given commit-log offset
     */
    public CleanConsumeQueueService(LongSupplier commitLogMinOffset, LongConsumer deleteBelow) {
        this.commitLogMinOffset = commitLogMinOffset;
        this.deleteBelow = deleteBelow;
    }

    @Override
    public void run() {
        try {
            long minOffset = commitLogMinOffset.getAsLong();
            if (minOffset > lastMinOffset) {
                deleteBelow.accept(minOffset);
                lastMinOffset = minOffset;
            }
        } catch (RuntimeException e) {
            log.error("Consume-queue clean-up failed; will retry next round", e);
        }
    }
}

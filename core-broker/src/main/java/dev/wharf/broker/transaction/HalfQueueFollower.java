package dev.wharf.broker.transaction;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.store.GetMessageResult;
import dev.wharf.store.GetMessageStatus;
import dev.wharf.store.MessageStore;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the half topic's queue forward from where it stopped and records each half message in the
 * {@link TransactionIndex}. Called before every END_TRANSACTION and check round (so each reads only what is new),
 * and at start-up from the persisted check progress to rebuild the index.
 *
 * <p>Thread-safe: one caller reads at a time (the methods are synchronized); the index locks per transaction.
 */
final class HalfQueueFollower {

    private static final Logger log = LoggerFactory.getLogger(HalfQueueFollower.class);
    private static final int BATCH = 32;

    private final MessageStore store;
    private final TransactionIndex index;
    private long scanned;

    HalfQueueFollower(MessageStore store, TransactionIndex index) {
        this.store = store;
        this.index = index;
    }

    /** Where reading starts (start-up, from the persisted progress). */
    synchronized void startAt(long queueOffset) {
        this.scanned = queueOffset;
    }

    /** The half queue offset read up to. */
    synchronized long scannedOffset() {
        return scanned;
    }

    /** Reads every half message stored since the last call. */
    void catchUp() {
        catchUp(offset -> false);
    }

    /**
     * Reads every half message stored since the last call, except those {@code ended} names (start-up: halves
     * whose op record was read back already).
     *
     * @return how many half messages were recorded
     */
    synchronized int catchUp(LongPredicate ended) {
        String topic = SystemTopics.TRANS_HALF_TOPIC;
        long min = store.getMinOffsetInQueue(topic, 0);
        if (scanned < min) {
            log.warn("Half messages from queue offset {} to {} were deleted with their commit-log files before their"
                    + " transactions were checked; continuing at {}", scanned, min - 1, min);
            scanned = min;
        }
        int recorded = 0;
        while (scanned < store.getMaxOffsetInQueue(topic, 0)) {
            GetMessageResult result = store.getMessage(topic, 0, scanned, BATCH, Integer.MAX_VALUE, null);
            try {
                for (SelectMappedBufferResult buffer : result.buffers()) {
                    MessageExt half = MessageDecoder.decode(buffer.byteBuffer().duplicate(), false, false);
                    if (half != null && !ended.test(half.getQueueOffset()) && record(half)) {
                        recorded++;
                    }
                }
                if (result.nextBeginOffset() <= scanned
                        && result.status() != GetMessageStatus.FOUND) {
                    break; // nothing readable here now; try again next time
                }
                scanned = Math.max(scanned, result.nextBeginOffset());
            } finally {
                result.release();
            }
        }
        return recorded;
    }

    private boolean record(MessageExt half) {
        String transactionId = TransactionRecords.transactionId(half);
        if (transactionId == null) {
            log.warn("Half message at commit-log offset {} has no transaction id; it can never be committed and is"
                    + " skipped", half.getCommitLogOffset());
            return false;
        }
        String group = half.getProperty(MessageProperties.PRODUCER_GROUP);
        index.addHalf(transactionId, group == null ? "" : group, half.getQueueOffset(), half.getCommitLogOffset(),
                half.getStoreSize(), half.getStoreTimestamp());
        return true;
    }
}

package dev.wharf.broker.transaction;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.store.GetMessageResult;
import dev.wharf.store.GetMessageStatus;
import dev.wharf.store.MessageStore;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads the op topic back at start-up: which halves above the check progress already ended, and the outcomes of
 * recently ended transactions (so a producer retrying END_TRANSACTION across a broker restart is answered
 * correctly). An op record is always stored after the halves it ends, so only op records stored after the first
 * half above the progress matter, plus those of the last few minutes; the first of them is found by binary search
 * over the op queue (its units are in commit-log order) and by store time, never by reading the op topic from its
 * start. Single-threaded (start-up).
 */
final class OpLogReader {

    private static final String TOPIC = SystemTopics.TRANS_OP_HALF_TOPIC;
    private static final int BATCH = 32;

    private final MessageStore store;

    OpLogReader(MessageStore store) {
        this.store = store;
    }

    /**
     * Reads every op record stored after commit-log offset {@code afterCommitLogOffset} or at or after
     * {@code sinceTimestamp}, remembering each transaction's outcome in {@code index}.
     *
     * @param afterCommitLogOffset -1 when no half is above the progress (then only the time bound applies)
     * @return the half queue offsets that ended
     */
    Set<Long> readEnded(long afterCommitLogOffset, long sinceTimestamp, TransactionIndex index) {
        Set<Long> ended = new HashSet<>();
        long byTime = store.getOffsetInQueueByTime(TOPIC, 0, sinceTimestamp);
        long offset = afterCommitLogOffset < 0 ? byTime : Math.min(byTime, firstAfter(afterCommitLogOffset));
        while (offset < store.getMaxOffsetInQueue(TOPIC, 0)) {
            GetMessageResult result = store.getMessage(TOPIC, 0, offset, BATCH, Integer.MAX_VALUE, null);
            try {
                for (SelectMappedBufferResult buffer : result.buffers()) {
                    MessageExt msg = MessageDecoder.decode(buffer.byteBuffer().duplicate(), true, false);
                    TransactionRecords.Op op = msg == null ? null : TransactionRecords.readOp(msg);
                    if (op == null) {
                        continue;
                    }
                    index.rememberOutcome(op.transactionId(), op.outcome());
                    for (long half : op.halfQueueOffsets()) {
                        ended.add(half);
                    }
                }
                if (result.nextBeginOffset() <= offset && result.status() != GetMessageStatus.FOUND) {
                    break;
                }
                offset = Math.max(offset, result.nextBeginOffset());
            } finally {
                result.release();
            }
        }
        return ended;
    }

    /** The first op queue offset whose record lies after {@code commitLogOffset}. */
    private long firstAfter(long commitLogOffset) {
        long low = store.getMinOffsetInQueue(TOPIC, 0);
        long high = store.getMaxOffsetInQueue(TOPIC, 0);
        while (low < high) {
            long mid = (low + high) >>> 1;
            // -1: a blank unit or a record already deleted, both older than anything still relevant
            if (store.getCommitLogOffsetInQueue(TOPIC, 0, mid) > commitLogOffset) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }
}

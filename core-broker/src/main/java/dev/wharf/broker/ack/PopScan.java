package dev.wharf.broker.ack;

import dev.wharf.broker.ack.state.Delivery;
import dev.wharf.broker.ack.state.LongList;
import dev.wharf.broker.ack.state.QueueAckState;
import dev.wharf.broker.ack.state.QueueAckState.FinishReason;
import dev.wharf.broker.filter.CompiledSubscription;
import dev.wharf.broker.filter.RecordPropertySource;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.filter.Selector;
import dev.wharf.store.GetMessageResult;
import dev.wharf.store.MessageFilter;
import dev.wharf.store.MessageStore;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One pop's walk over one queue, run while holding the queue state's lock. It reads the queue through the
 * store's filtered read with itself as the filter: a unit that is done or leased is passed over before its
 * record is read; the subscription decides on the tag hash and then (SQL92) on the record's properties, with
 * the broker's delivery count as JMSXDeliveryCount. On the way it finishes what it meets: unmatched messages
 * when the pop skips them, expired messages, and messages delivered too often (held for the dead-letter
 * queue). It starts at the selector's scan position, stops after {@code budget} units, and leaves the
 * position where it stopped.
 *
 * <p>Single use, one thread.
 */
final class PopScan implements MessageFilter {

    private final QueueAckState state;
    private final CompiledSubscription subscription;
    private final Selector selector;
    private final boolean skipUnmatched;
    private final long now;
    private final int maxReconsumeTimes;
    private final RecordPropertySource source = new RecordPropertySource();

    private long candidateOffset = -1;
    private long candidateTags;
    private int candidateDeliveries;

    /** Tag hash of each accepted record, in the order the store returns them. */
    private final LongList acceptedTags = new LongList();
    final LongList skipped = new LongList(4);
    final LongList expired = new LongList(4);
    final LongList deadLetters = new LongList(4);
    final List<SelectMappedBufferResult> found = new ArrayList<>();
    /** The scan stopped because its budget ran out before the queue's end. */
    boolean budgetExhausted;
    /** The queue's end as read before the scan. */
    long queueEnd;

    /**
     * @param maxReconsumeTimes a message whose counted deliveries exceed this goes to the dead-letter queue
     */
    PopScan(QueueAckState state, CompiledSubscription subscription, boolean skipUnmatched, long now,
            int maxReconsumeTimes) {
        this.state = state;
        this.subscription = subscription;
        this.selector = subscription.selector();
        this.skipUnmatched = skipUnmatched;
        this.now = now;
        this.maxReconsumeTimes = maxReconsumeTimes;
    }

    /**
     * Reads up to {@code want} available matching messages (and about {@code maxBytes}), looking at no more
     * than {@code budget} units. The records found stay referenced in {@link #found} until released.
     */
    void run(MessageStore store, String selectorKey, int want, int maxBytes, int budget) {
        String topic = state.topic;
        int queueId = state.queueId;
        long min = store.getMinOffsetInQueue(topic, queueId);
        if (state.ackOffset() < min) {
            state.markDoneBelow(min); // removed by clean-up: nothing left to deliver there
        }
        queueEnd = store.getMaxOffsetInQueue(topic, queueId);
        long from = state.scans().start(selectorKey, state.ackOffset());
        int bytes = 0;
        int left = budget;
        while (found.size() < want && bytes < maxBytes && from < queueEnd) {
            if (left <= 0) {
                budgetExhausted = true;
                break;
            }
            GetMessageResult result = store.getMessage(topic, queueId, from, want - found.size(), maxBytes - bytes,
                    this);
            long next = result.nextBeginOffset();
            switch (result.status()) {
                case FOUND, NO_MATCHED_MESSAGE, OFFSET_FOUND_NULL -> {
                    found.addAll(result.buffers());
                    bytes += result.bufferTotalSize();
                }
                case OFFSET_TOO_SMALL -> state.markDoneBelow(result.minOffset());
                default -> next = from; // the queue's end (or no queue): stop here
            }
            if (next <= from) {
                break;
            }
            left -= (int) Math.min(left, next - from);
            from = next;
        }
        state.scans().set(selectorKey, from);
    }

    /** Queue offset of a found record. */
    static long queueOffset(SelectMappedBufferResult record) {
        ByteBuffer b = record.byteBuffer();
        return b.getLong(b.position() + MessageRecord.QUEUE_OFFSET_OFFSET);
    }

    static long commitLogOffset(SelectMappedBufferResult record) {
        ByteBuffer b = record.byteBuffer();
        return b.getLong(b.position() + MessageRecord.PHYSICAL_OFFSET_OFFSET);
    }

    /** Tag hash of the i-th found record. */
    long tagsCode(int index) {
        return acceptedTags.get(index);
    }

    @Override
    public boolean isMatchedByConsumeQueue(long tagsCode) {
        throw new IllegalStateException("a pop scan needs the queue offset of each unit");
    }

    @Override
    public boolean isMatchedByConsumeQueue(long queueOffset, long tagsCode) {
        if (state.isDone(queueOffset)) {
            return false;
        }
        Delivery d = state.delivery(queueOffset);
        if (d != null && d.isLeased()) {
            return false;
        }
        if (!subscription.matchesTagsCode(tagsCode)) {
            unmatched(queueOffset);
            return false;
        }
        candidateOffset = queueOffset;
        candidateTags = tagsCode;
        candidateDeliveries = d == null ? 0 : d.deliveries();
        return true;
    }

    @Override
    public boolean isMatchedByCommitLog(ByteBuffer record) {
        long offset = candidateOffset;
        if (selector != null && !selector.matches(source.reset(record, candidateDeliveries + 1))) {
            unmatched(offset);
            return false;
        }
        long expiration = RecordExpiry.expiration(record);
        if (expiration > 0 && expiration <= now) {
            if (state.markDone(offset)) {
                state.countFinished(FinishReason.EXPIRED);
                expired.add(offset);
            }
            return false;
        }
        if (candidateDeliveries > maxReconsumeTimes) {
            long commitLogOffset = record.getLong(record.position() + MessageRecord.PHYSICAL_OFFSET_OFFSET);
            state.holdForDeadLetter(offset, commitLogOffset, candidateTags);
            deadLetters.add(offset);
            return false;
        }
        acceptedTags.add(candidateTags);
        return true;
    }

    private void unmatched(long offset) {
        if (skipUnmatched && state.markDone(offset)) {
            state.countFinished(FinishReason.SKIPPED);
            skipped.add(offset);
        }
    }

    /** Releases every record found (those not handed out). */
    void releaseFound() {
        for (SelectMappedBufferResult record : found) {
            record.release();
        }
        found.clear();
    }
}

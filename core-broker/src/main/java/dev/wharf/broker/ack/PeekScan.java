package dev.wharf.broker.ack;

import dev.wharf.broker.ack.state.QueueAckState;
import dev.wharf.broker.filter.CompiledSubscription;
import dev.wharf.broker.filter.RecordPropertySource;
import dev.wharf.filter.Selector;
import dev.wharf.store.GetMessageResult;
import dev.wharf.store.MessageFilter;
import dev.wharf.store.MessageStore;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A browse of one queue for a group: the messages that are not done (leased ones included) and not expired,
 * matching the selector, in queue order. Changes nothing; run under the queue state's lock when the group has
 * state (without one, nothing is done yet). Single use, one thread.
 */
final class PeekScan implements MessageFilter {

    private final QueueAckState state;
    private final CompiledSubscription subscription;
    private final Selector selector;
    private final long now;
    private final RecordPropertySource source = new RecordPropertySource();
    private int candidateDeliveries;

    final List<SelectMappedBufferResult> found = new ArrayList<>();
    /** Counted deliveries so far of each found message, in order. */
    final List<Integer> deliveries = new ArrayList<>();
    long nextOffset;

    /** @param state the group's state of the queue, or null when it has none */
    PeekScan(QueueAckState state, CompiledSubscription subscription, long now) {
        this.state = state;
        this.subscription = subscription;
        this.selector = subscription.selector();
        this.now = now;
    }

    void run(MessageStore store, String topic, int queueId, long fromOffset, int want, int maxBytes, int budget) {
        long from = Math.max(fromOffset, state == null ? store.getMinOffsetInQueue(topic, queueId) : state.ackOffset());
        long end = store.getMaxOffsetInQueue(topic, queueId);
        int bytes = 0;
        int left = budget;
        while (found.size() < want && bytes < maxBytes && from < end && left > 0) {
            GetMessageResult result = store.getMessage(topic, queueId, from, want - found.size(), maxBytes - bytes,
                    this);
            long next = result.nextBeginOffset();
            switch (result.status()) {
                case FOUND, NO_MATCHED_MESSAGE, OFFSET_FOUND_NULL, OFFSET_TOO_SMALL -> {
                    found.addAll(result.buffers());
                    bytes += result.bufferTotalSize();
                }
                default -> next = from;
            }
            if (next <= from) {
                break;
            }
            left -= (int) Math.min(left, next - from);
            from = next;
        }
        nextOffset = from;
    }

    @Override
    public boolean isMatchedByConsumeQueue(long tagsCode) {
        throw new IllegalStateException("a peek needs the queue offset of each unit");
    }

    @Override
    public boolean isMatchedByConsumeQueue(long queueOffset, long tagsCode) {
        if (state != null && state.isDone(queueOffset)) {
            return false;
        }
        candidateDeliveries = state == null ? 0 : state.deliveriesOf(queueOffset);
        return subscription.matchesTagsCode(tagsCode);
    }

    @Override
    public boolean isMatchedByCommitLog(ByteBuffer record) {
        if (selector != null && !selector.matches(source.reset(record, candidateDeliveries + 1))) {
            return false;
        }
        long expiration = RecordExpiry.expiration(record);
        if (expiration > 0 && expiration <= now) {
            return false;
        }
        deliveries.add(candidateDeliveries);
        return true;
    }
}

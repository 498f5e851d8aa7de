package dev.wharf.store;

import dev.wharf.common.message.MessageRecord;
import dev.wharf.store.dispatch.CommitLogDispatcher;
import dev.wharf.store.dispatch.DispatchRequest;
import dev.wharf.store.queue.ConsumeQueue;
import dev.wharf.store.queue.ConsumeQueueStore;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Writes each dispatched record's consume-queue unit, refusing a record whose header cannot be true. The body
 * CRC does not cover the header, so damage there (a flipped bit in the queue id, queue offset or topic) passes
 * every other check; trusting it would create a queue under a garbage name, or fill a queue with billions of
 * blank units up to a garbage offset and shadow the real records. A queue offset is impossible when more
 * offsets are missing before it than records of the smallest size fit in the commit log between the queue's
 * last unit and this record. Such a record is quarantined instead of dispatched (readers never serve it).
 *
 * <p>Runs on the dispatch thread only.
 */
final class QueueUnitDispatcher implements CommitLogDispatcher {

    /** The smallest record: empty body and properties, one-byte topic. */
    static final int MIN_RECORD_SIZE = MessageRecord.totalSize(0, 1, 0);

    private final ConsumeQueueStore queues;
    private final BiConsumer<DispatchRequest, String> quarantine;
    private final Consumer<DispatchRequest> notStored;

    /**
     * @param quarantine called with a refused record and the reason
     * @param notStored  called when a possible record's unit could not be stored; it throws, so that the
     *                   dispatcher retries the record instead of skipping it
     */
    QueueUnitDispatcher(ConsumeQueueStore queues, BiConsumer<DispatchRequest, String> quarantine,
            Consumer<DispatchRequest> notStored) {
        this.queues = queues;
        this.quarantine = quarantine;
        this.notStored = notStored;
    }

    @Override
    public void dispatch(DispatchRequest request) {
        String problem = impossibleOffset(request);
        if (problem != null) {
            quarantine.accept(request, problem);
            return;
        }
        ConsumeQueue queue;
        try {
            queue = queues.findOrCreate(request.topic(), request.queueId());
        } catch (IllegalArgumentException e) {
            quarantine.accept(request, "record header names no possible queue: " + e.getMessage());
            return;
        }
        if (!queue.putUnit(request.consumeQueueOffset(), request.commitLogOffset(), request.msgSize(),
                request.tagsCode()).isStored()) {
            notStored.accept(request);
        }
    }

    private String impossibleOffset(DispatchRequest request) {
        long offset = request.consumeQueueOffset();
        if (offset < 0) {
            return "negative queue offset " + offset;
        }
        ConsumeQueue queue = queues.find(request.topic(), request.queueId());
        long next = queue == null ? 0 : queue.getMaxOffsetInQueue();
        long lastEnd = queue == null ? 0 : queue.getLastOffset();
        if (offset <= next) {
            return null;
        }
        long room = Math.max(0, request.commitLogOffset() - lastEnd);
        if (offset - next > room / MIN_RECORD_SIZE + 1) {
            return "queue offset " + offset + " is impossible: queue " + request.topic() + "-" + request.queueId()
                    + " ends at offset " + next + " and only " + room + " commit-log bytes lie between its last unit"
                    + " and this record";
        }
        return null;
    }
}

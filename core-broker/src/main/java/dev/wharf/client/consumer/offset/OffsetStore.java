package dev.wharf.client.consumer.offset;

import dev.wharf.client.ClientException;
import dev.wharf.common.message.MessageQueue;
import java.util.Set;

/**
 * A consumer group's offsets per queue: kept in memory, persisted on {@link #persistAll(Set)} (periodically and on
 * shutdown) and {@link #persist(MessageQueue)}. Thread-safe.
 */
public interface OffsetStore {

    /** Answer of {@link #readOffset} when no offset is known for the queue. */
    long NO_OFFSET = -1L;

    /** Loads persisted offsets (a no-op for the broker-side store). */
    void load() throws ClientException;

    /**
     * Sets the in-memory offset. With {@code increaseOnly} a smaller value than the current one is ignored, so
     * consume threads finishing out of order cannot move an offset back.
     */
    void updateOffset(MessageQueue mq, long offset, boolean increaseOnly);

    /** The offset, or {@link #NO_OFFSET}. */
    long readOffset(MessageQueue mq, ReadOffsetType type) throws ClientException, InterruptedException;

    /**
     * Persists the in-memory offsets of these queues (the ones the consumer owns); failures are logged and the
     * next round retries. The local file store writes its whole table.
     */
    void persistAll(Set<MessageQueue> mqs);

    /** Persists one queue's in-memory offset now. */
    void persist(MessageQueue mq) throws ClientException, InterruptedException;

    /** Forgets the queue's in-memory offset (after the queue left this consumer). */
    void removeOffset(MessageQueue mq);

    /** The queues with an in-memory offset. */
    Set<MessageQueue> queues();
}

package dev.wharf.client.consumer.offset;

import dev.wharf.common.message.MessageQueue;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory offsets of an {@link OffsetStore}, one per queue, whatever the store persists them to. Updates
 * take no lock, so consume threads finishing out of order only contend on the one queue they share. Thread-safe.
 */
final class OffsetTable {

    private final Map<MessageQueue, AtomicLong> offsets = new ConcurrentHashMap<>();

    /** See {@link OffsetStore#updateOffset}: with {@code increaseOnly} a smaller offset is ignored. */
    void update(MessageQueue mq, long offset, boolean increaseOnly) {
        AtomicLong current = offsets.computeIfAbsent(mq, k -> new AtomicLong(offset));
        if (increaseOnly) {
            current.accumulateAndGet(offset, Math::max);
        } else {
            current.set(offset);
        }
    }

    /** The queue's offset, or null when none is held. */
    Long offset(MessageQueue mq) {
        AtomicLong current = offsets.get(mq);
        return current == null ? null : current.get();
    }

    /** The queue's offset, or {@link OffsetStore#NO_OFFSET}. */
    long offsetOrNone(MessageQueue mq) {
        AtomicLong current = offsets.get(mq);
        return current == null ? OffsetStore.NO_OFFSET : current.get();
    }

    /** Holds exactly these offsets from now on. */
    void replaceAll(Map<MessageQueue, Long> loaded) {
        offsets.clear();
        loaded.forEach((mq, offset) -> offsets.put(mq, new AtomicLong(offset)));
    }

    void remove(MessageQueue mq) {
        offsets.remove(mq);
    }

    Set<MessageQueue> queues() {
        return Set.copyOf(offsets.keySet());
    }

    /** The offsets at this moment, in queue order. */
    Map<MessageQueue, Long> snapshot() {
        Map<MessageQueue, Long> out = new TreeMap<>();
        offsets.forEach((mq, offset) -> out.put(mq, offset.get()));
        return out;
    }
}

package dev.wharf.client.ack;

import dev.wharf.common.message.MessageQueue;
import java.util.List;

/**
 * Where a browse of a topic continues: the topic's readable queues (every broker's, in a fixed order, taken when
 * the browse started), the queue it is at and the offset there. Immutable; {@link AckConsumer#peek} returns the
 * next one.
 */
public final class PeekCursor {

    private final List<MessageQueue> queues;
    private final int index;
    private final long offset;

    PeekCursor(List<MessageQueue> queues, int index, long offset) {
        this.queues = List.copyOf(queues);
        this.index = index;
        this.offset = offset;
    }

    List<MessageQueue> queues() {
        return queues;
    }

    int index() {
        return index;
    }

    long offset() {
        return offset;
    }

    /** Whether every queue was browsed to its end. */
    public boolean isEnd() {
        return index >= queues.size();
    }

    @Override
    public String toString() {
        return isEnd() ? "PeekCursor{end}" : "PeekCursor{" + queues.get(index) + "@" + offset + "}";
    }
}

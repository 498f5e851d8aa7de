package dev.wharf.client.consumer.push;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import java.util.List;

/** Consumes the next messages of one queue, in queue order (adapts the application's orderly listener). */
@FunctionalInterface
public interface OrderlyHandler {

    /** @return the outcome; an exception counts as "suspend the queue a moment" */
    Outcome consume(List<MessageExt> msgs, MessageQueue mq);

    /**
     * @param success       whether the batch was consumed
     * @param suspendMillis on failure, how long the queue waits before the same messages are consumed again
     *                      (negative = the consumer's default)
     */
    record Outcome(boolean success, long suspendMillis) {
    }
}

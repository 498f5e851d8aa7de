package dev.wharf.client.producer;

import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageQueue;
import java.util.List;

/**
 * Chooses the queue of a message, e.g. by a business key, so that messages of one key keep their order (one
 * queue is consumed in order). A send through a selector is not retried on another queue.
 */
@FunctionalInterface
public interface MessageQueueSelector {

    /**
     * @param mqs the topic's writable queues, sorted by broker name and queue id (never empty)
     * @param arg the argument given to {@code Producer.send(msg, selector, arg)}
     */
    MessageQueue select(List<MessageQueue> mqs, Message msg, Object arg);
}

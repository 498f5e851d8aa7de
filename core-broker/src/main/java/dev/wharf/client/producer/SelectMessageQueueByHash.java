package dev.wharf.client.producer;

import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageQueue;
import java.util.List;

/**
 * Picks the queue by the hash of the argument (e.g. an order id): the same argument always lands on the same
 * queue while the topic's queues do not change. A null argument picks the first queue.
 */
public final class SelectMessageQueueByHash implements MessageQueueSelector {

    @Override
    public MessageQueue select(List<MessageQueue> mqs, Message msg, Object arg) {
        int hash = arg == null ? 0 : arg.hashCode();
        return mqs.get(Math.floorMod(hash, mqs.size()));
    }
}

package dev.wharf.client.consumer.push;

import dev.wharf.common.message.MessageQueue;
import java.util.List;

/** Decides which of a topic's queues a member owns (adapts the application's allocation strategy). */
@FunctionalInterface
public interface QueueAllocator {

    /**
     * @param mqAll  every queue of the topic, sorted
     * @param cidAll every member's client id, sorted
     */
    List<MessageQueue> allocate(String group, String currentCid, List<MessageQueue> mqAll, List<String> cidAll);
}

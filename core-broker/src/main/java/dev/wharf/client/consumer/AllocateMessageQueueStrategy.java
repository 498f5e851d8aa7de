package dev.wharf.client.consumer;

import dev.wharf.common.message.MessageQueue;
import java.util.List;

/**
 * Divides a topic's queues among a group's members. Every member runs it on the same sorted inputs, so the
 * results must be a partition: each queue to exactly one member, computed from the arguments alone.
 */
public interface AllocateMessageQueueStrategy {

    /**
     * @param mqAll  every queue of the topic, sorted
     * @param cidAll every member's client id, sorted
     * @return the queues of {@code currentCID} (empty when it is not in {@code cidAll})
     */
    List<MessageQueue> allocate(String consumerGroup, String currentCID, List<MessageQueue> mqAll, List<String> cidAll);

    String getName();
}

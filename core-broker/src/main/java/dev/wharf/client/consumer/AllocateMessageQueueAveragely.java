package dev.wharf.client.consumer;

import dev.wharf.common.message.MessageQueue;
import java.util.List;

/**
 * Gives each member a contiguous block of the sorted queues, block sizes differing by at most one (the first
 * {@code queues % members} members get one more). 8 queues over 3 members: 3, 3, 2. With more members than queues
 * the last members get none.
 */
public class AllocateMessageQueueAveragely implements AllocateMessageQueueStrategy {

    @Override
    public List<MessageQueue> allocate(String consumerGroup, String currentCID, List<MessageQueue> mqAll,
                                       List<String> cidAll) {
        if (currentCID == null || mqAll == null || cidAll == null || mqAll.isEmpty() || cidAll.isEmpty()) {
            return List.of();
        }
        int index = cidAll.indexOf(currentCID);
        if (index < 0) {
            return List.of();
        }
        int queues = mqAll.size();
        int members = cidAll.size();
        int base = queues / members;
        int extra = queues % members;
        int start = index < extra ? index * (base + 1) : extra * (base + 1) + (index - extra) * base;
        int count = index < extra ? base + 1 : base;
        return List.copyOf(mqAll.subList(start, start + count));
    }

    @Override
    public String getName() {
        return "AVG";
    }
}

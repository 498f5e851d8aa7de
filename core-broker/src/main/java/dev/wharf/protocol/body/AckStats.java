package dev.wharf.protocol.body;

import java.util.List;

/**
 * GET_ACK_STATS answer: a group's acknowledgement state per queue.
 *
 * @param queues one entry per topic and queue the group has state for, sorted by topic and queue id
 */
public record AckStats(String consumerGroup, List<QueueAckStats> queues) {

    /**
     * One queue.
     *
     * @param ackOffset    every offset below it is done (acknowledged, skipped, expired or dead-lettered)
     * @param inFlight     messages leased now
     * @param ackedAbove   done messages at or above ackOffset (kept as bits until ackOffset passes them)
     * @param backlog      messages at or above ackOffset that are not done (leased ones included)
     * @param maxOffset    the queue's end
     * @param expired      messages dropped because their JMSExpiration passed
     * @param deadLettered messages moved to the group's dead-letter queue
     * @param skipped      messages acknowledged by the broker because the subscription did not match them
     */
    public record QueueAckStats(String topic, int queueId, long ackOffset, long inFlight, long ackedAbove,
                                long backlog, long maxOffset, long expired, long deadLettered, long skipped) {
    }
}

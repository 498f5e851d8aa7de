package dev.wharf.common.message;

/**
 * One queue of a topic on one broker: the unit of ordering, of assignment to consumers and of offsets.
 */
public record MessageQueue(String topic, String brokerName, int queueId) implements Comparable<MessageQueue> {

    @Override
    public int compareTo(MessageQueue o) {
        int c = topic.compareTo(o.topic);
        if (c != 0) {
            return c;
        }
        c = brokerName.compareTo(o.brokerName);
        return c != 0 ? c : Integer.compare(queueId, o.queueId);
    }

    @Override
    public String toString() {
        return topic + "@" + brokerName + "#" + queueId;
    }
}

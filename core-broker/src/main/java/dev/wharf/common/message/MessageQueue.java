package dev.wharf.common.message;

import java.util.Objects;

/** One queue of a topic on one broker: the unit of ordering, of assignment to consumers and of offsets. */
public final class MessageQueue implements Comparable<MessageQueue> {

    private final String topic;
    private final String brokerName;
    private final int queueId;

    public MessageQueue(String topic, String brokerName, int queueId) {
        this.topic = topic;
        this.brokerName = brokerName;
        this.queueId = queueId;
    }

    public String getTopic() {
        return topic;
    }

    public String getBrokerName() {
        return brokerName;
    }

    public int getQueueId() {
        return queueId;
    }

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
    public boolean equals(Object o) {
        return o instanceof MessageQueue q && queueId == q.queueId && topic.equals(q.topic)
                && brokerName.equals(q.brokerName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, brokerName, queueId);
    }

    @Override
    public String toString() {
        return topic + "@" + brokerName + "#" + queueId;
    }
}

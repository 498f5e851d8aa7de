package dev.wharf.protocol.body;

import java.util.List;
import dev.wharf.common.message.MessageQueue;

/** Bodies of the monitoring and offset-administration answers. */
public final class Stats {

    private Stats() {
    }

    /** One queue's progress for a group: lag = brokerOffset - consumerOffset. */
    public record QueueProgress(MessageQueue mq, long brokerOffset, long consumerOffset, long lastTimestamp) {
        public long lag() {
            return Math.max(0, brokerOffset - consumerOffset);
        }
    }

    /** GET_CONSUME_STATS answer. */
    public record ConsumeStats(List<QueueProgress> offsetTable, double consumeTps) {
    }

    /** One queue's bounds (GET_TOPIC_STATS_INFO). */
    public record QueueBounds(MessageQueue mq, long minOffset, long maxOffset, long lastUpdateTimestamp) {
    }

    public record TopicStats(List<QueueBounds> offsetTable) {
    }

    public record QueueOffset(MessageQueue mq, long offset) {
    }

    /** INVOKE_BROKER_TO_RESET_OFFSET answer: the new offsets. */
    public record ResetOffsetBody(List<QueueOffset> offsetTable) {
    }
}

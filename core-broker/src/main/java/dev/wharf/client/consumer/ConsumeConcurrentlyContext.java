package dev.wharf.client.consumer;

import dev.wharf.common.message.MessageQueue;

/** Per-call settings of a concurrent listener. Not thread-safe; belongs to one call. */
public class ConsumeConcurrentlyContext {

    private final MessageQueue messageQueue;
    private int delayLevelWhenNextConsume;
    private int ackIndex = Integer.MAX_VALUE;

    public ConsumeConcurrentlyContext(MessageQueue messageQueue) {
        this.messageQueue = messageQueue;
    }

    public MessageQueue getMessageQueue() {
        return messageQueue;
    }

    /** Retry delay level: 0 (default) lets the broker choose (3 + reconsumeTimes), -1 sends to the dead-letter queue. */
    public int getDelayLevelWhenNextConsume() {
        return delayLevelWhenNextConsume;
    }

    public void setDelayLevelWhenNextConsume(int delayLevelWhenNextConsume) {
        this.delayLevelWhenNextConsume = delayLevelWhenNextConsume;
    }

    /** On success, the index of the last consumed message; later ones are retried. Default: all consumed. */
    public int getAckIndex() {
        return ackIndex;
    }

    public void setAckIndex(int ackIndex) {
        this.ackIndex = ackIndex;
    }
}

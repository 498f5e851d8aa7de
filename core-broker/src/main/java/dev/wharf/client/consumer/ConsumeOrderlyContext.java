package dev.wharf.client.consumer;

import dev.wharf.common.message.MessageQueue;

/** Per-call settings of an orderly listener. Not thread-safe; belongs to one call. */
public class ConsumeOrderlyContext {

    private final MessageQueue messageQueue;
    private long suspendCurrentQueueTimeMillis = -1;

    public ConsumeOrderlyContext(MessageQueue messageQueue) {
        this.messageQueue = messageQueue;
    }

    public MessageQueue getMessageQueue() {
        return messageQueue;
    }

    /** How long to pause the queue after SUSPEND_CURRENT_QUEUE_A_MOMENT; -1 (default) = the consumer's setting. */
    public long getSuspendCurrentQueueTimeMillis() {
        return suspendCurrentQueueTimeMillis;
    }

    public void setSuspendCurrentQueueTimeMillis(long suspendCurrentQueueTimeMillis) {
        this.suspendCurrentQueueTimeMillis = suspendCurrentQueueTimeMillis;
    }
}

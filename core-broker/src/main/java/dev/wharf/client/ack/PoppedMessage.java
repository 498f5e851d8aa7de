package dev.wharf.client.ack;

import dev.wharf.common.message.MessageExt;

/**
 * A message handed out by a pop: the stored message ({@link #getBrokerName()}, {@link #getQueueId()} and
 * {@link #getQueueOffset()} name it for acknowledgement) plus its delivery count and lease. Not thread-safe
 * (like every {@link MessageExt}).
 */
public final class PoppedMessage extends MessageExt {

    private int deliveryCount;
    private long popTime;
    private long invisibleTime;
    private boolean fromSlave;

    /** Copies a decoded message and adds what the pop said about it. */
    static PoppedMessage of(MessageExt stored, int deliveryCount, long popTime, long invisibleTime) {
        PoppedMessage m = new PoppedMessage();
        m.setTopic(stored.getTopic());
        m.setFlag(stored.getFlag());
        m.setBody(stored.getBody());
        m.setProperties(stored.getProperties());
        m.setBrokerName(stored.getBrokerName());
        m.setQueueId(stored.getQueueId());
        m.setStoreSize(stored.getStoreSize());
        m.setQueueOffset(stored.getQueueOffset());
        m.setSysFlag(stored.getSysFlag());
        m.setBornTimestamp(stored.getBornTimestamp());
        m.setBornHost(stored.getBornHost());
        m.setStoreTimestamp(stored.getStoreTimestamp());
        m.setStoreHost(stored.getStoreHost());
        m.setCommitLogOffset(stored.getCommitLogOffset());
        m.setBodyCRC(stored.getBodyCRC());
        m.setReconsumeTimes(stored.getReconsumeTimes());
        m.setPreparedTransactionOffset(stored.getPreparedTransactionOffset());
        m.deliveryCount = deliveryCount;
        m.popTime = popTime;
        m.invisibleTime = invisibleTime;
        return m;
    }

    /** How often the message was delivered, this delivery included (1 = first; JMSXDeliveryCount). */
    public int deliveryCount() {
        return deliveryCount;
    }

    /**
     * Whether it was read from a slave while its group had no master: it has no lease, its acknowledgement is kept
     * by the consumer and handed to the master when the master returns.
     */
    public boolean isFromSlave() {
        return fromSlave;
    }

    void markFromSlave() {
        fromSlave = true;
    }

    /** Whether it was delivered before (JMSRedelivered). */
    public boolean isRedelivered() {
        return deliveryCount > 1;
    }

    /** Broker time (epoch millis) the lease started. */
    public long popTime() {
        return popTime;
    }

    /** The lease in milliseconds: unacknowledged by popTime + invisibleTime (broker clock), it is redelivered. */
    public long invisibleTime() {
        return invisibleTime;
    }

    @Override
    public String toString() {
        return "PoppedMessage{broker=" + getBrokerName() + ", topic=" + getTopic() + ", queueId=" + getQueueId()
                + ", queueOffset=" + getQueueOffset() + ", deliveryCount=" + deliveryCount + ", msgId=" + getMsgId()
                + (fromSlave ? ", fromSlave" : "") + "}";
    }
}

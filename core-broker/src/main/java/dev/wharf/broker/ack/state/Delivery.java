package dev.wharf.broker.ack.state;

import dev.wharf.remoting.RemotingChannel;

/**
 * One message of a queue that was handed out at least once and is not done yet: how often its delivery
 * counted, and its lease while one runs. Lives in its queue's {@link QueueAckState}, which alone changes it;
 * read it while holding that state's lock.
 */
public final class Delivery {

    final long offset;
    /** Deliveries that count (1 after the first pop); the count a leased message was handed out with. */
    int deliveries;
    boolean leased;
    /** Epoch millis the lease ends; meaningful while leased. */
    long expiry;
    /** The connection the message was handed to; null while it is being dead-lettered. */
    RemotingChannel owner;
    /** The current delivery was declared not to count (released unseen); undone if declared again. */
    boolean uncounted;
    /** Being copied to the dead-letter queue: leased by the broker itself until that finished. */
    boolean deadLettering;
    /** Where the record is in the commit log, to copy it to the dead-letter queue. */
    long commitLogOffset = -1;
    /** Tag hash of the message, to wake only the held pops whose selector may match when it returns. */
    long tagsCode;

    Delivery(long offset) {
        this.offset = offset;
    }

    public long offset() {
        return offset;
    }

    /** Deliveries that counted so far; while leased, the count this delivery was handed out with. */
    public int deliveries() {
        return deliveries;
    }

    /** Leased to a consumer (or held by the broker while dead-lettering). */
    public boolean isLeased() {
        return leased;
    }

    /** Held by the broker while it copies the message to the dead-letter queue. */
    public boolean isDeadLettering() {
        return deadLettering;
    }

    public long commitLogOffset() {
        return commitLogOffset;
    }

    public long tagsCode() {
        return tagsCode;
    }
}

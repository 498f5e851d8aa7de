package dev.wharf.jms.engine;

import dev.wharf.client.ack.AckConsumer;
import dev.wharf.client.ack.PoppedMessage;

/**
 * A message a consumer popped and still holds (prefetched, or delivered and not yet acknowledged), with the
 * ack consumer of its group and the local time its lease ends. The lease is renewed by {@link LeaseKeeper} while
 * the message is held, so a slow listener or a CLIENT_ACKNOWLEDGE session that acknowledges late does not see
 * its messages handed to another consumer. Thread-safe: the lease end is volatile.
 */
public final class Leased {

    private final PoppedMessage message;
    private final AckConsumer group;
    private volatile long leaseEndsNanos;

    public Leased(PoppedMessage message, AckConsumer group, long leaseMillis) {
        this.message = message;
        this.group = group;
        this.leaseEndsNanos = System.nanoTime() + leaseMillis * 1_000_000L;
    }

    public PoppedMessage message() {
        return message;
    }

    /** The ack consumer of the message's group (acknowledgements and lease changes go through it). */
    public AckConsumer group() {
        return group;
    }

    long leaseEndsNanos() {
        return leaseEndsNanos;
    }

    void renewed(long leaseMillis) {
        leaseEndsNanos = System.nanoTime() + leaseMillis * 1_000_000L;
    }

    @Override
    public String toString() {
        return "Leased{" + message + "}";
    }
}

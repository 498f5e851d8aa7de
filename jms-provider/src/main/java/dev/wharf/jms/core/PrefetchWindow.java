package dev.wharf.jms.core;

/**
 * How many messages one consumer asks the broker for at a time: {@link #START} at first, doubled (up to the
 * consumer's {@code pullBatchSize}) each time the application ran out of messages while a pop was on its way and
 * that pop came back full, halved back towards the start when a pop comes back less than half full (the queue ran
 * dry). A consumer that keeps up with its queue thus holds few messages, and a queue shared by slow consumers is
 * shared evenly; a consumer that drains a backlog faster than one round trip per pop soon asks for many, so it
 * does not wait on the broker. Not thread-safe (guarded by the session's lock).
 */
final class PrefetchWindow {

    /** The window a consumer starts with (and the most it falls back to). */
    static final int START = 32;

    private final int max;
    private int size;
    private boolean starved;

    /** @param max the most messages one pop may ask for (the consumer's pullBatchSize) */
    PrefetchWindow(int max) {
        this.max = Math.max(1, max);
        this.size = Math.min(START, this.max);
    }

    int size() {
        return size;
    }

    /** The application waits with nothing buffered while a pop is on its way. */
    void starved() {
        starved = true;
    }

    /** A pop asked for {@code wanted} messages and got {@code got}. */
    void answered(int wanted, int got) {
        if (starved && got >= wanted) {
            size = Math.min(max, size * 2);
        } else if (got < wanted / 2) {
            size = Math.max(Math.min(START, max), size / 2);
        }
        starved = false;
    }
}

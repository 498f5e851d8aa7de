package dev.wharf.client.consumer.push;

import dev.wharf.common.message.MessageQueue;

/**
 * The pull loop's token for one owned queue: which offset to pull next. Exactly one exists per process queue;
 * it travels between the pull thread, the response callback and the delay scheduler, so it is touched by one
 * thread at a time.
 */
final class PullRequest {

    final MessageQueue mq;
    final ProcessQueue pq;
    private volatile long nextOffset;
    private volatile boolean failing;

    PullRequest(MessageQueue mq, ProcessQueue pq, long nextOffset) {
        this.mq = mq;
        this.pq = pq;
        this.nextOffset = nextOffset;
    }

    long nextOffset() {
        return nextOffset;
    }

    void nextOffset(long offset) {
        this.nextOffset = offset;
    }

    /** Marks a failed pull; answers whether the previous one succeeded (so only the first failure is logged). */
    boolean markFailing() {
        boolean was = failing;
        failing = true;
        return !was;
    }

    void markSucceeded() {
        failing = false;
    }

    @Override
    public String toString() {
        return "PullRequest{" + mq + ", nextOffset=" + nextOffset + "}";
    }
}

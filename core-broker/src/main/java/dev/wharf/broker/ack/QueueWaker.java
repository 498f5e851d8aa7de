package dev.wharf.broker.ack;

/**
 * Wakes pops held on a queue because a message there became available again (a lease ended) — long polling
 * only hears about new messages by itself. Must be cheap and must not block.
 */
@FunctionalInterface
public interface QueueWaker {

    /** A message with this tag hash is available again on the queue. */
    void wake(String topic, int queueId, long tagsCode);
}

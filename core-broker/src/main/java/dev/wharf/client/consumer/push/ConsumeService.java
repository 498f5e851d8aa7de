package dev.wharf.client.consumer.push;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import java.util.List;
import java.util.Set;

/** Hands pulled messages to the application's listener and advances offsets from the outcome. */
interface ConsumeService {

    void start();

    /** Stops taking work and waits up to {@code awaitMillis} for consumption in progress. */
    void shutdown(long awaitMillis);

    /**
     * Consumes messages just added to {@code pq}.
     *
     * @param dispatch {@link ProcessQueue#putMessages}'s answer (orderly: whether to start a consume request)
     */
    void submit(List<MessageExt> msgs, ProcessQueue pq, MessageQueue mq, boolean dispatch);

    /**
     * Prepares a queue this member is about to own; orderly consumption locks it on the broker first.
     *
     * @return whether the queue may be consumed now
     */
    boolean acquire(MessageQueue mq);

    /**
     * Releases a queue this member no longer owns, after committing its offset; orderly consumption waits for
     * the consume thread and unlocks it on the broker.
     *
     * @return false when it cannot be released yet (orderly consumption in progress); rebalance retries later
     */
    boolean release(MessageQueue mq, ProcessQueue pq);

    /** Releases every queue at shutdown (offsets are already committed). */
    void releaseAll(Set<MessageQueue> mqs);
}

package dev.wharf.spring.annotation;

/** Whether a listener's messages may be consumed in parallel or keep their queue order. */
public enum ConsumeMode {
    /** Messages on many threads at once; a failed message is retried later, after the ones behind it. */
    CONCURRENTLY,
    /**
     * Each queue in order, one thread per queue at a time: messages sent with the same sharding key (one queue)
     * arrive in the order sent. A failed message blocks its queue and is delivered again first.
     */
    ORDERLY
}

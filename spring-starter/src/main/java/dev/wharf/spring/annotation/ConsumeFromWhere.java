package dev.wharf.spring.annotation;

/** Where a consumer group that has no committed offset yet starts reading a queue. */
public enum ConsumeFromWhere {
    /** After the last message: only what is sent from now on (the default). */
    CONSUME_FROM_LAST_OFFSET,
    /** From the first message the broker still has. */
    CONSUME_FROM_FIRST_OFFSET,
    /** From the first message stored at or after {@link MessageListener#consumeTimestamp()}. */
    CONSUME_FROM_TIMESTAMP
}

package dev.wharf.client.consumer;

/** Outcome of a concurrent listener call. */
public enum ConsumeConcurrentlyStatus {
    /** Consumed (up to the context's ack index). */
    CONSUME_SUCCESS,
    /** Not consumed: retry later. */
    RECONSUME_LATER
}

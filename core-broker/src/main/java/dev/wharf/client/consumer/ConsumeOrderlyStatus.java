package dev.wharf.client.consumer;

/** Outcome of an orderly listener call. */
public enum ConsumeOrderlyStatus {
    /** Consumed. */
    SUCCESS,
    /** Not consumed: pause this queue and deliver the same messages again. */
    SUSPEND_CURRENT_QUEUE_A_MOMENT
}

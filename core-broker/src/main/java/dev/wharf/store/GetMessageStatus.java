package dev.wharf.store;

/** Outcome of a read from a queue. */
public enum GetMessageStatus {
    /** At least one message was found. */
    FOUND,
    /** Units were read, but the filter matched none of them (the next offset moves past them). */
    NO_MATCHED_MESSAGE,
    /** The messages were deleted from the commit log by clean-up. */
    MESSAGE_WAS_REMOVING,
    /** The queue unit at the offset could not be read (its file is gone). */
    OFFSET_FOUND_NULL,
    /** The offset is beyond the queue's end by more than one. */
    OFFSET_OVERFLOW_BADLY,
    /** The offset is exactly the queue's end: no new message yet. */
    OFFSET_OVERFLOW_ONE,
    /** The offset is below the first message still stored; start again at {@code minOffset}. */
    OFFSET_TOO_SMALL,
    /** There is no such topic/queue. */
    NO_MATCHED_LOGIC_QUEUE,
    /** The queue exists but holds no message. */
    NO_MESSAGE_IN_QUEUE
}

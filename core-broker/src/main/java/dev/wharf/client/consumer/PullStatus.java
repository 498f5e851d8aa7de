package dev.wharf.client.consumer;

/** What a pull found. */
public enum PullStatus {
    /** Messages were found (the list may be empty when the client-side tag check removed them all). */
    FOUND,
    /** No message at or after the offset yet. */
    NO_NEW_MSG,
    /** Messages were there, none matched the selector; continue from {@code nextBeginOffset}. */
    NO_MATCHED_MSG,
    /** The offset is outside the queue (too small: deleted; too big: not written); continue from nextBeginOffset. */
    OFFSET_ILLEGAL
}

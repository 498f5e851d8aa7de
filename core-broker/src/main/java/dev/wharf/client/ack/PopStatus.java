package dev.wharf.client.ack;

/** What a pop found. */
public enum PopStatus {
    /** At least one message, now leased to this consumer. */
    FOUND,
    /** Nothing available within the poll time (or at once, for a pop that may not wait). */
    NO_MESSAGE
}

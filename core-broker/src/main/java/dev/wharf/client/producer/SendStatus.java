package dev.wharf.client.producer;

/**
 * How a stored message was stored. Every status means the broker has the message; only {@link #SEND_OK} means
 * it was also flushed / replicated as the broker is configured to ensure.
 */
public enum SendStatus {
    SEND_OK,
    /** Stored, but a synchronous flush did not finish in time. */
    FLUSH_DISK_TIMEOUT,
    /** Stored, but a synchronous replication to the slave did not finish in time. */
    FLUSH_SLAVE_TIMEOUT,
    /** Stored on the master; no slave was available for synchronous replication. */
    SLAVE_NOT_AVAILABLE
}

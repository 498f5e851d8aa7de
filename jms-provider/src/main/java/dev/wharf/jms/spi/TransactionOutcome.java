package dev.wharf.jms.spi;

/** An answer to a check-back. */
public enum TransactionOutcome {
    /** Make the transaction's messages visible. */
    COMMIT,
    /** Drop the transaction's messages. */
    ROLLBACK,
    /** Not known yet: the broker asks again later (and discards the messages after its maximum of checks). */
    UNKNOWN
}

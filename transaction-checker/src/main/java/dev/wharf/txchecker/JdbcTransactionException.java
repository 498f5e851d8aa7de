package dev.wharf.txchecker;

/**
 * A unit of work of {@link JdbcTransactionTemplate} failed. Either everything was rolled back (the database work
 * and the messages), or, when {@link #isOutcomeUnknown()}, the database commit itself failed and may or may not
 * have been applied: the messages are then left to the broker's check-back, which commits them if and only if the
 * transaction-log row is in the database.
 */
public class JdbcTransactionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final boolean outcomeUnknown;

    public JdbcTransactionException(String message, Throwable cause, boolean outcomeUnknown) {
        super(message, cause);
        this.outcomeUnknown = outcomeUnknown;
    }

    /** Whether the database commit failed in a way that leaves its outcome unknown. */
    public boolean isOutcomeUnknown() {
        return outcomeUnknown;
    }
}

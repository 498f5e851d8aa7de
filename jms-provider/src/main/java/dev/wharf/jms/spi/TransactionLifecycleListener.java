package dev.wharf.jms.spi;

/**
 * Told when a transacted session starts and ends a Wharf transaction. A session starts one with the first message
 * it sends after a commit or rollback (not before: a transaction that only consumes needs none), and calls
 * {@link #transactionStarted} on its own thread before that message is stored, so the listener can record the id
 * in the same local transaction as its own work (e.g. a database row that a {@link TransactionChecker} looks up
 * later). A listener must not block for long and should not throw; a runtime exception it throws fails the send.
 */
public interface TransactionLifecycleListener {

    /** A transacted session is about to send the first message of the transaction {@code transactionId}. */
    void transactionStarted(String transactionId);

    /**
     * Like {@link #transactionStarted(String)}, with the handle that makes the transaction's messages durable before
     * the listener's own work commits (see {@link #flushesBeforeCommit()}). The session calls this one; the default
     * ignores the handle and calls {@link #transactionStarted(String)}.
     */
    default void transactionStarted(String transactionId, TransactionFlush flush) {
        transactionStarted(transactionId);
    }

    /**
     * The session ended the transaction: {@code committed} when its commit was accepted (or sent without an
     * answer: the session's decision stands), false when it was rolled back or the broker refused the commit.
     */
    default void transactionEnded(String transactionId, boolean committed) {
    }

    /**
     * Whether the transaction this session is about to start (on this thread, just before
     * {@link #transactionStarted}) may be committed by the broker's check-back without the session: the listener
     * records its id where a {@link TransactionChecker} answers commit once the caller's own work committed, which
     * happens before the session commits. Its messages must then be stored durably as each is sent. When false, the
     * session streams its messages and makes them durable at its commit, the only point that decides them. The
     * default is true: a listener that does not say is taken to record.
     */
    default boolean mayCommitByCheckBack() {
        return true;
    }

    /**
     * Whether, for the transaction this session is about to start (asked on this thread, with
     * {@link #mayCommitByCheckBack()}), the listener calls the {@link TransactionFlush} it is given before the work
     * that may have the transaction committed by check-back commits, and fails that work when the flush fails. The
     * session then streams its messages even when {@link #mayCommitByCheckBack()} is true, and the flush makes them
     * durable at once, before that commit. The default is false: messages are stored durably one by one.
     */
    default boolean flushesBeforeCommit() {
        return false;
    }
}

package dev.wharf.jms.spi;

import jakarta.jms.JMSException;

/**
 * Given to a {@link TransactionLifecycleListener} with the start of a transaction: makes the messages the session
 * sent so far in that transaction durable on the broker without committing them, so that work which may have the
 * transaction committed by check-back (a database commit of a row with its id) can commit after it safely. Call it on
 * the session's thread (the thread that sent), once the session's sending for the transaction is done.
 */
@FunctionalInterface
public interface TransactionFlush {

    /**
     * Returns once every message sent so far in the transaction is stored on the broker (under SYNC_FLUSH, forced to
     * disk). A message sent after the flush, in the same transaction, is stored the same way before its send returns.
     * Nothing to do when the transaction already committed.
     *
     * @throws jakarta.jms.TransactionRolledBackException when a message was not stored (the broker refused it, or
     *         did not answer), or the session rolled the transaction back: nothing of it will become visible, and the
     *         caller must not commit work that vouches for it
     * @throws JMSException when the session cannot flush (closed, interrupted): the caller must not commit either
     */
    void flush() throws JMSException;
}

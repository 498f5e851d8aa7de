package dev.wharf.jms.core;

import dev.wharf.client.ClientException;
import dev.wharf.client.producer.LocalTransaction;
import dev.wharf.common.message.Message;
import dev.wharf.jms.engine.BrokerLink;
import dev.wharf.jms.engine.LiveTransactions;
import dev.wharf.jms.engine.SessionQueues;
import dev.wharf.jms.error.JmsErrors;
import dev.wharf.jms.message.WireProperties;
import dev.wharf.jms.spi.TransactionCheck;
import dev.wharf.jms.spi.TransactionFlush;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import jakarta.jms.JMSException;
import jakarta.jms.TransactionRolledBackException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending half of a transacted session (Jakarta Messaging 3.1, 6.2.7): the messages it sends become half
 * messages of one Wharf transaction, invisible until {@link #commit()} makes all of them visible at once;
 * {@link #rollback()} drops them. The transaction begins with the first send after a commit or rollback (the
 * factory's {@link TransactionLifecycleListener} hears of it) and is tracked in {@link LiveTransactions}, so that
 * the broker's check-back about it is answered correctly: not decided while the session lives, rolled back once
 * the session is gone. A client that dies before commit therefore leaves nothing visible. A message with a delivery
 * delay is scheduled by the broker when the transaction commits, for its JMSDeliveryTime (send time + delay).
 *
 * <p>A listener that may have the transaction committed by check-back gets sends that each wait for the broker and
 * the disk, unless it flushes before its own commit ({@link TransactionLifecycleListener#flushesBeforeCommit()}):
 * then the sends stream as elsewhere, and the {@link TransactionFlush} it is given stores them durably in one go.
 *
 * <p>Not thread-safe: it belongs to its session (the session's send thread uses it while the session's thread
 * waits).
 */
final class SessionTransaction {

    private static final Logger LOG = LoggerFactory.getLogger(SessionTransaction.class);

    /** Waits for the session's queued asynchronous sends, so that a flush covers them. */
    interface PendingSends {
        void await() throws JMSException;
    }

    private final BrokerLink link;
    private final PendingSends pending;
    private LocalTransaction current;
    /** The current transaction was flushed: each later send of it is stored durably before it returns. */
    private boolean flushed;

    SessionTransaction(BrokerLink link, PendingSends pending) {
        this.link = link;
        this.pending = pending;
    }

    /**
     * Sends a message as a half message of the current transaction, beginning one if needed. A message with a
     * delivery delay keeps its delivery time: the broker checks it now and schedules the message when the
     * transaction commits (at once if that time has passed by then).
     */
    void send(SessionQueues queues, Message wire, String groupId, String destination) throws JMSException {
        LocalTransaction t = begin();
        wire.putProperty(WireProperties.TRANSACTION_OWNER, LiveTransactions.PROCESS);
        try {
            queues.send(link.producer(), t, wire, groupId);
        } catch (ClientException e) {
            throw JmsErrors.fromClient(e, "send to " + destination + " in transaction " + t.transactionId());
        } catch (InterruptedException e) {
            throw JmsErrors.translate("send to " + destination + " in a transaction", e);
        }
        if (flushed) {
            flush(t); // the listener's work may be committing already: this message must not lag behind
        }
    }

    private LocalTransaction begin() throws JMSException {
        if (current != null) {
            return current;
        }
        TransactionLifecycleListener listener = link.lifecycle();
        boolean durableSends = listener != null && listener.mayCommitByCheckBack() && !listener.flushesBeforeCommit();
        int window = durableSends ? 0 : link.options().getTransactionSendWindow();
        LocalTransaction t = link.producer().beginTransaction(window, link.options().getTransactionBatchBytes());
        LiveTransactions.opened(t.transactionId());
        if (listener != null) {
            try {
                listener.transactionStarted(t.transactionId(), () -> flush(t));
            } catch (RuntimeException e) {
                LiveTransactions.ended(t.transactionId(), false);
                throw JmsErrors.jms("The transaction listener refused transaction " + t.transactionId() + ": "
                        + e.getMessage(), e);
            }
        }
        current = t;
        flushed = false;
        return t;
    }

    /**
     * The {@link TransactionFlush} of transaction {@code t}: stores every message sent in it so far durably. A failure
     * rolls it back, so that the work of whoever flushes fails too.
     */
    private void flush(LocalTransaction t) throws JMSException {
        if (current != t) {
            if (LiveTransactions.state(t.transactionId(), LiveTransactions.PROCESS) == TransactionCheck.Local.COMMITTED) {
                return;
            }
            throw new TransactionRolledBackException("Transaction " + t.transactionId() + " was rolled back before"
                    + " its messages were flushed; none of them will be visible. Do not commit the work that goes"
                    + " with them; run it again.");
        }
        pending.await();
        try {
            t.flush();
            flushed = true;
        } catch (ClientException e) {
            throw failed(t, e);
        } catch (InterruptedException e) {
            throw JmsErrors.translate("flush transaction " + t.transactionId(), e);
        }
    }

    /** A flush failed: the transaction was rolled back (by the client's transaction) and ends here. */
    private TransactionRolledBackException failed(LocalTransaction t, ClientException cause) {
        current = null;
        flushed = false;
        ended(t, false);
        return JmsErrors.withCause(new TransactionRolledBackException("The messages of transaction "
                + t.transactionId() + " could not all be stored: " + cause.getMessage() + " None of them will be"
                + " visible; do not commit the work that goes with them, and send them again in a new transaction."),
                cause);
    }

    /** The id of the transaction in progress, or null before the first send. */
    String transactionId() {
        return current == null ? null : current.transactionId();
    }

    /**
     * Makes the transaction's messages visible.
     *
     * @throws TransactionRolledBackException when the broker refused the commit (it had rolled the transaction
     *                                        back, e.g. after check-backs nobody answered)
     * @throws JMSException                   when no broker answered: the commit may or may not have been applied;
     *                                        the broker settles it by check-back, which this process answers with
     *                                        commit
     */
    void commit() throws JMSException {
        LocalTransaction t = current;
        if (t == null) {
            return;
        }
        current = null;
        flushed = false;
        String id = t.transactionId();
        try {
            t.commit();
            ended(t, true);
        } catch (ClientException e) {
            if (e.isNoResponse() && t.committedAsOneBatch()) {
                ended(t, false);
                throw JmsErrors.jms("The commit of transaction " + id + " got no answer (" + e.getMessage() + ");"
                        + " its messages went as one batch, so either all of them are stored or none: look before"
                        + " sending them again.", e);
            }
            if (e.isNoResponse()) {
                ended(t, true);
                throw JmsErrors.jms("The commit of transaction " + id + " got no answer (" + e.getMessage() + ");"
                        + " the broker settles it by asking back, and this process answers commit, so the messages"
                        + " will become visible once a broker answers.", e);
            }
            ended(t, false);
            throw JmsErrors.withCause(new TransactionRolledBackException("The broker did not commit transaction "
                    + id + ", so it was rolled back: " + e.getMessage() + " Its messages are dropped; send them"
                    + " again in a new transaction."), e);
        } catch (InterruptedException e) {
            ended(t, true);
            throw JmsErrors.translate("commit transaction " + id, e);
        }
    }

    /** Drops the transaction's messages; a failure is logged (the check-back then answers rollback). */
    void rollback() {
        LocalTransaction t = current;
        if (t == null) {
            return;
        }
        current = null;
        flushed = false;
        ended(t, false);
        try {
            t.rollback();
        } catch (ClientException e) {
            LOG.warn("Could not roll back transaction {}: {}; the broker will ask back and be told to roll back",
                    t.transactionId(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void ended(LocalTransaction t, boolean committed) {
        String id = t.transactionId();
        if (t.committedAsOneBatch()) {
            LiveTransactions.forget(id); // no half message was stored: no check-back will ask about it
        } else {
            LiveTransactions.ended(id, committed);
        }
        TransactionLifecycleListener listener = link.lifecycle();
        if (listener != null) {
            try {
                listener.transactionEnded(id, committed);
            } catch (RuntimeException e) {
                LOG.warn("The transaction listener failed on the end of {}: {}", id, e.toString());
            }
        }
    }
}

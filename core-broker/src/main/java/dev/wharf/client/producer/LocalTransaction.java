package dev.wharf.client.producer;

import dev.wharf.client.ClientException;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageQueue;

/**
 * One transaction of several messages (a JMS transacted session's unit of work): every message is stored as a half
 * message under one transaction id on one broker, invisible to consumers, and one {@link #commit()} makes all of them
 * visible together (atomically: a consumer never sees part of them) or one {@link #rollback()} drops them.
 *
 * <p>The broker is the one the first message goes to; a later message whose topic has no queue on that broker is
 * refused with a {@link ClientException} (the transaction stays usable). Messages of one topic go to one queue, so
 * they are consumed in the order they were sent.
 *
 * <p>If the producer dies before ending the transaction, the broker asks a live producer of the same group
 * ({@link TransactionListener#checkLocalTransaction}) after its transaction timeout.
 *
 * <p>Not thread-safe; one per transacted session. Once ended it cannot be used again.
 */
public interface LocalTransaction {

    /** The id every message of this transaction carries. */
    String transactionId();

    /**
     * Stores {@code msg} as a half message of this transaction; consumers see it only after {@link #commit()}. The
     * result names the queue the message will be committed to; its queue offset is the half message's (the offset
     * in that queue is assigned at commit).
     */
    SendResult send(Message msg) throws ClientException, InterruptedException;

    /**
     * Like {@link #send(Message)}, into the given queue of the message's topic (a JMS session keeps its messages to
     * one destination in one queue, across its transactions, so they are consumed in the order sent). The queue
     * must be on the transaction's broker once one is chosen, and a topic keeps one queue within a transaction.
     *
     * @throws ClientException (MESSAGE_ILLEGAL) when the queue is of another topic, on another broker than the
     *                         transaction's, or another queue than this transaction's for the topic
     */
    SendResult send(Message msg, MessageQueue mq) throws ClientException, InterruptedException;

    /**
     * The queue this transaction keeps the messages of {@code topic} in, or null while it has none (no message of
     * the topic yet, or only ones the broker placed). A caller choosing queues itself must follow it.
     */
    default MessageQueue queueOf(String topic) {
        return null;
    }

    /**
     * Stores every message sent so far in this transaction on the broker, under SYNC_FLUSH forced to disk, and
     * returns once the broker answered for all of them; the transaction stays open. After it returned, a commit the
     * broker completes on its own (by check-back) finds every message sent before it. Call it before anything
     * outside the producer may decide the transaction, e.g. before the database commit of a transaction whose id is
     * recorded in that database. A transaction whose sends each wait for the broker has nothing to do here; a
     * streamed one waits for its outstanding answers and sends its held-back message forced.
     *
     * @throws ClientException (TRANSACTION_FAILED) when a message was not stored or no answer came: the transaction
     *                         was rolled back (a rollback the broker did not hear of is settled by check-back) and
     *                         cannot be used again
     */
    void flush() throws ClientException, InterruptedException;

    /**
     * Makes every message sent in this transaction visible, all at once. Synchronous; retried while the broker
     * does not answer or is busy, within the producer's end-transaction timeout.
     *
     * @throws ClientException when the broker refuses (e.g. the transaction was discarded after too many
     *                         check-backs) or never answered; in the latter case the outcome is settled by check-back
     */
    void commit() throws ClientException, InterruptedException;

    /**
     * Whether the commit was (being) made as one batch of messages held on the client: then no half message exists,
     * and a commit that got no answer is stored all or not at all, never settled by check-back.
     */
    default boolean committedAsOneBatch() {
        return false;
    }

    /** Drops every message sent in this transaction. Synchronous and retried like {@link #commit()}. */
    void rollback() throws ClientException, InterruptedException;
}

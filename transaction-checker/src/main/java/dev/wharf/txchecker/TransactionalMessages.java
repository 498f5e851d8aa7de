package dev.wharf.txchecker;

import dev.wharf.client.ClientException;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.message.Message;

/**
 * The messages of one {@link JdbcTransactionTemplate} unit of work. Each is stored by the broker as a half message,
 * invisible to consumers until the database transaction has committed. Not thread-safe: use it on the thread that
 * runs the work.
 */
public interface TransactionalMessages {

    /**
     * Sends a message as part of the unit of work. The first send begins the Wharf transaction and records its id in
     * the transaction log on the work's connection.
     *
     * @throws ClientException when the broker refused or did not store the message; let it propagate to roll back
     */
    SendResult send(Message message) throws ClientException, InterruptedException;

    /** The Wharf transaction id, or null when nothing was sent yet. */
    String transactionId();
}

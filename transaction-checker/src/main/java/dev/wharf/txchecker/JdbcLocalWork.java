package dev.wharf.txchecker;

import java.sql.Connection;

/**
 * The local (database) transaction of a single transactional message, passed as the {@code arg} of
 * {@code TransactionProducer.sendMessageInTransaction(msg, arg)} to a producer whose listener is a
 * {@link JdbcTransactionListener}. It runs after the broker stored the half message; the listener commits it
 * together with the transaction-log row.
 */
@FunctionalInterface
public interface JdbcLocalWork {

    /** Runs the database statements. Do not commit, roll back or close the connection. Throw to roll back. */
    void run(Connection connection) throws Exception;
}

package dev.wharf.txchecker;

import java.sql.Connection;

/**
 * A unit of work of {@link JdbcTransactionTemplate}: database statements on {@code connection} and messages sent
 * through {@code messages}, all of which commit together or not at all.
 *
 * @param <T> what the work returns
 */
@FunctionalInterface
public interface JdbcWork<T> {

    /**
     * Runs the work. Do not commit, roll back or close the connection: the template does. Throw to roll back both
     * the database work and the messages.
     */
    T run(Connection connection, TransactionalMessages messages) throws Exception;
}

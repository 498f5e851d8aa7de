package dev.wharf.txchecker;

import dev.wharf.client.ClientException;
import dev.wharf.client.producer.LocalTransaction;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.common.message.Message;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs database work and message sends as one unit, with plain JDBC and the low-level client (no Spring):
 *
 * <pre>
 * JdbcTransactionLog log = new JdbcTransactionLog(dataSource);
 * log.createSchemaIfAbsent();
 * TransactionProducer producer = new TransactionProducer("orders-producer", clientConfig);
 * producer.setTransactionListener(new JdbcTransactionListener(log, Duration.ofSeconds(60)));
 * producer.start();
 * JdbcTransactionTemplate tx = new JdbcTransactionTemplate(producer, log);
 * long id = tx.execute((connection, messages) -&gt; {
 *     long orderId = insertOrder(connection, order);
 *     messages.send(new Message("orders", json(orderId)));
 *     return orderId;
 * });
 * </pre>
 *
 * <p>How it holds together: the work runs on one connection with auto-commit off. The first send begins a Wharf
 * transaction and writes its id to the transaction log on that connection; messages are stored as half messages,
 * invisible to consumers. Then the database commits, and only after that the Wharf transaction is committed. If the
 * work throws, both are rolled back. If the process dies between the database commit and the message commit, the
 * broker asks a live producer of the group, whose {@link JdbcTransactionListener} finds the log row and answers
 * COMMIT; a transaction whose row never committed is rolled back once it is older than the listener's
 * {@code rollbackAfter}.
 *
 * <p>Thread-safe: each call borrows its own connection.
 */
public final class JdbcTransactionTemplate {

    private static final Logger log = LoggerFactory.getLogger(JdbcTransactionTemplate.class);

    private final TransactionProducer producer;
    private final JdbcTransactionLog transactionLog;

    /**
     * @param producer       a started producer whose listener answers check-backs from {@code transactionLog}
     *                       (a {@link JdbcTransactionListener})
     * @param transactionLog the log in the database the work writes to; its DataSource gives the connections
     */
    public JdbcTransactionTemplate(TransactionProducer producer, JdbcTransactionLog transactionLog) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.transactionLog = Objects.requireNonNull(transactionLog, "transactionLog");
    }

    /**
     * Runs {@code work} in one database transaction with the messages it sends.
     *
     * @return what the work returned
     * @throws JdbcTransactionException when the work, a send or the database failed (the cause says which);
     *                                  runtime exceptions of the work propagate unchanged after the rollback
     */
    public <T> T execute(JdbcWork<T> work) {
        Objects.requireNonNull(work, "work");
        Connection connection;
        try {
            connection = transactionLog.dataSource().getConnection();
        } catch (SQLException e) {
            throw new JdbcTransactionException("Cannot get a database connection: " + e.getMessage()
                    + "; nothing was sent.", e, false);
        }
        try {
            return execute(connection, work);
        } finally {
            JdbcConnections.close(connection);
        }
    }

    private <T> T execute(Connection connection, JdbcWork<T> work) {
        boolean autoCommit;
        try {
            autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            throw new JdbcTransactionException("Cannot start a database transaction: " + e.getMessage()
                    + "; nothing was sent.", e, false);
        }
        Messages messages = new Messages(connection);
        try {
            T result;
            try {
                result = work.run(connection, messages);
            } catch (Exception | Error e) {
                JdbcConnections.rollback(connection);
                messages.rollback();
                if (e instanceof RuntimeException r) {
                    throw r;
                }
                if (e instanceof Error err) {
                    throw err;
                }
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new JdbcTransactionException("The unit of work failed and was rolled back with its messages: "
                        + e.getMessage(), e, false);
            }
            try {
                connection.commit();
            } catch (SQLException e) {
                // the commit may have been applied: only the log row can tell, so the check-back decides
                throw new JdbcTransactionException("The database commit failed (" + e.getMessage() + "); it may or"
                        + " may not have been applied. The messages of transaction " + messages.transactionId()
                        + " are settled by the broker's check-back from the transaction log.", e, true);
            }
            messages.commit();
            return result;
        } finally {
            JdbcConnections.restoreAutoCommit(connection, autoCommit);
        }
    }

    /** The messages of one unit of work: begins the Wharf transaction and writes the log row on the first send. */
    private final class Messages implements TransactionalMessages {

        private final Connection connection;
        private LocalTransaction transaction;

        Messages(Connection connection) {
            this.connection = connection;
        }

        @Override
        public SendResult send(Message message) throws ClientException, InterruptedException {
            if (transaction == null) {
                LocalTransaction t = producer.beginTransaction();
                transactionLog.record(connection, t.transactionId(), producer.getProducerGroup());
                transaction = t;
            }
            return transaction.send(message);
        }

        @Override
        public String transactionId() {
            return transaction == null ? null : transaction.transactionId();
        }

        void commit() {
            if (transaction == null) {
                return;
            }
            try {
                transaction.commit();
            } catch (ClientException e) {
                log.warn("The database committed but the broker did not confirm the commit of transaction {}: {};"
                        + " the check-back finds the log row and commits the messages", transaction.transactionId(),
                        e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                log.warn("Interrupted while committing transaction {}; the check-back commits its messages",
                        transaction.transactionId());
            }
        }

        void rollback() {
            if (transaction == null) {
                return;
            }
            try {
                transaction.rollback();
            } catch (ClientException e) {
                log.warn("Could not roll back transaction {}: {}; the check-back finds no log row and rolls it back",
                        transaction.transactionId(), e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

package dev.wharf.txchecker;

import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.client.producer.TransactionListener;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction listener of a {@code TransactionProducer} whose local transactions live in a JDBC database:
 * <ul>
 *   <li>check-backs are answered from the transaction log with {@link JdbcTransactionChecker} (row → COMMIT; no row
 *       and older than {@code rollbackAfter} → ROLLBACK; else UNKNOWN), whichever process started the transaction;</li>
 *   <li>{@code sendMessageInTransaction(msg, arg)} with a {@link JdbcLocalWork} as {@code arg} runs that work and the
 *       log row in one database transaction and reports its outcome.</li>
 * </ul>
 * Multi-message transactions are run by {@link JdbcTransactionTemplate}, which needs this listener (or one answering
 * check-backs the same way) on its producer. Thread-safe.
 */
public final class JdbcTransactionListener implements TransactionListener {

    private static final Logger log = LoggerFactory.getLogger(JdbcTransactionListener.class);

    private final JdbcTransactionLog transactionLog;
    private final JdbcTransactionChecker checker;

    /** @param rollbackAfter longer than the longest database transaction that sends messages (e.g. 60 s) */
    public JdbcTransactionListener(JdbcTransactionLog transactionLog, Duration rollbackAfter) {
        this(transactionLog, new JdbcTransactionChecker(transactionLog, rollbackAfter));
    }

    public JdbcTransactionListener(JdbcTransactionLog transactionLog, JdbcTransactionChecker checker) {
        this.transactionLog = Objects.requireNonNull(transactionLog, "transactionLog");
        this.checker = Objects.requireNonNull(checker, "checker");
    }

    /**
     * Runs the {@link JdbcLocalWork} given as {@code arg} and the log row in one database transaction: COMMIT when the
     * database committed, ROLLBACK when the work failed, UNKNOWN when the commit failed in a way that leaves its
     * outcome open (the check-back then reads the log).
     */
    @Override
    public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
        if (!(arg instanceof JdbcLocalWork work)) {
            log.error("Transaction {}: the argument of sendMessageInTransaction is {}, not a JdbcLocalWork; rolling the"
                    + " message back. Pass the database work as a JdbcLocalWork.", msg.getTransactionId(),
                    arg == null ? "null" : arg.getClass().getName());
            return LocalTransactionState.ROLLBACK_MESSAGE;
        }
        String group = msg.getProperty(MessageProperties.PRODUCER_GROUP);
        try (Connection connection = transactionLog.dataSource().getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                return runAndCommit(connection, work, msg.getTransactionId(), group);
            } finally {
                JdbcConnections.restoreAutoCommit(connection, autoCommit);
            }
        } catch (SQLException e) {
            log.warn("Transaction {}: no database connection ({}); rolling the message back", msg.getTransactionId(),
                    e.getMessage());
            return LocalTransactionState.ROLLBACK_MESSAGE;
        }
    }

    private LocalTransactionState runAndCommit(Connection connection, JdbcLocalWork work, String transactionId,
                                               String group) {
        try {
            transactionLog.record(connection, transactionId, group == null ? "" : group);
            work.run(connection);
        } catch (Exception e) {
            JdbcConnections.rollback(connection);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            log.info("Transaction {}: the local work failed and was rolled back with its message: {}", transactionId,
                    e.toString());
            return LocalTransactionState.ROLLBACK_MESSAGE;
        }
        try {
            connection.commit();
            return LocalTransactionState.COMMIT_MESSAGE;
        } catch (SQLException e) {
            log.warn("Transaction {}: the database commit failed ({}); the check-back decides from the log",
                    transactionId, e.getMessage());
            return LocalTransactionState.UNKNOW;
        }
    }

    @Override
    public LocalTransactionState checkLocalTransaction(MessageExt msg) {
        return checker.check(msg);
    }

    public JdbcTransactionChecker checker() {
        return checker;
    }
}

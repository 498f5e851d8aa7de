package dev.wharf.spring.boot.transaction;

import dev.wharf.jms.spi.TransactionFlush;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import dev.wharf.txchecker.JdbcTransactionLog;
import java.sql.Connection;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Writes the id of every Wharf transaction a transacted session starts inside a Spring-managed database transaction
 * to the transaction log, on that transaction's own connection: the row commits or rolls back with the
 * application's data, and a check-back finds it exactly when the data committed.
 *
 * <p>It is called on the sending thread, before the first message of the transaction is stored, so
 * {@link TransactionSynchronizationManager} shows the caller's transaction. A transaction started outside a
 * database transaction of this DataSource (a transacted JmsTemplate used without {@code @Transactional}, a listener
 * replying from its session) writes nothing: its session commits it at once, and a check-back about it is answered
 * from what the process knows. A failed insert fails the send, so the caller's transaction rolls back.
 *
 * <p>With {@code flushBeforeCommit} (the default) a recorded transaction's messages are streamed, and a
 * {@link FlushBeforeCommit} synchronization stores them durably just before the database commits: the row, which lets
 * a check-back commit them, never commits before they are stored, and a flush that fails rolls the database
 * transaction back. Without it (or without transaction synchronization) every send waits for the broker and the disk.
 */
public final class DataSourceTransactionRecorder implements TransactionLifecycleListener {

    private static final Logger log = LoggerFactory.getLogger(DataSourceTransactionRecorder.class);

    private final DataSource dataSource;
    private final JdbcTransactionLog transactionLog;
    private final String producerGroup;
    private final TransactionStats stats;
    private final AtomicBoolean warnedOtherTransaction = new AtomicBoolean();
    private final boolean flushBeforeCommit;

    /** A recorder whose transactions are flushed before the database commits. */
    public DataSourceTransactionRecorder(DataSource dataSource, JdbcTransactionLog transactionLog,
                                         String producerGroup, TransactionStats stats) {
        this(dataSource, transactionLog, producerGroup, stats, true);
    }

    /**
     * @param flushBeforeCommit stream a recorded transaction's messages and flush them before the database commits
     *                          (true), or store each durably as it is sent (false)
     */
    public DataSourceTransactionRecorder(DataSource dataSource, JdbcTransactionLog transactionLog,
                                         String producerGroup, TransactionStats stats, boolean flushBeforeCommit) {
        this.flushBeforeCommit = flushBeforeCommit;
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.transactionLog = Objects.requireNonNull(transactionLog, "transactionLog");
        this.producerGroup = Objects.requireNonNull(producerGroup, "producerGroup");
        this.stats = Objects.requireNonNull(stats, "stats");
    }

    @Override
    public void transactionStarted(String transactionId) {
        record(transactionId);
    }

    /**
     * Records the id as {@link #transactionStarted(String)} does and, when it was recorded and the session streams
     * ({@link #flushesBeforeCommit()}), registers the flush to run before the database commits.
     */
    @Override
    public void transactionStarted(String transactionId, TransactionFlush flush) {
        boolean streamed = flushesBeforeCommit();
        if (record(transactionId) && streamed) {
            TransactionSynchronizationManager.registerSynchronization(new FlushBeforeCommit(transactionId, flush));
        }
    }

    /** Writes the log row when a database transaction of the DataSource runs; whether it did. */
    private boolean record(String transactionId) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            stats.started(false);
            return false;
        }
        if (!TransactionSynchronizationManager.hasResource(dataSource)) {
            // another resource's transaction (a second DataSource, JMS, JTA): this database cannot vouch for it
            if (warnedOtherTransaction.compareAndSet(false, true)) {
                log.warn("Wharf transaction {} started in a Spring transaction that does not use the DataSource of"
                        + " the transaction log; its messages are committed after that transaction, but a crash in"
                        + " between rolls them back. Use the transaction manager of this DataSource to send.",
                        transactionId);
            }
            stats.started(false);
            return false;
        }
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            transactionLog.record(connection, transactionId, producerGroup);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
        stats.started(true);
        return true;
    }

    /**
     * True exactly when {@link #transactionStarted} will record the id: then the database commit, which comes
     * before the session's, may decide the messages by check-back, so they must be durable as they are sent.
     */
    @Override
    public boolean mayCommitByCheckBack() {
        return TransactionSynchronizationManager.isActualTransactionActive()
                && TransactionSynchronizationManager.hasResource(dataSource);
    }

    /**
     * True when the id will be recorded, flushing is on and the database transaction has synchronization, so the
     * flush can be registered to run before its commit; the session then streams its messages.
     */
    @Override
    public boolean flushesBeforeCommit() {
        return flushBeforeCommit && mayCommitByCheckBack() && TransactionSynchronizationManager.isSynchronizationActive();
    }

    @Override
    public void transactionEnded(String transactionId, boolean committed) {
        stats.ended(committed);
    }
}

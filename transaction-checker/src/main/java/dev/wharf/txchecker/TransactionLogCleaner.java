package dev.wharf.txchecker;

import dev.wharf.common.util.NamedThreadFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes transaction-log rows older than a retention on a schedule. Rows are only needed while the broker may
 * still check the transaction (by default for about 15 minutes after the send), so a retention of days is ample.
 */
public final class TransactionLogCleaner implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TransactionLogCleaner.class);

    private final JdbcTransactionLog transactionLog;
    private final Duration retention;
    private final int batchSize;
    private final ScheduledExecutorService scheduler;

    public TransactionLogCleaner(JdbcTransactionLog transactionLog, Duration retention, Duration interval, int batchSize) {
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("The transaction log retention must be positive (e.g. 7d)");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("The transaction log clean-up interval must be positive (e.g. 1h)");
        }
        this.transactionLog = transactionLog;
        this.retention = retention;
        this.batchSize = batchSize;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("wharf-txlog-cleaner"));
        scheduler.scheduleWithFixedDelay(this::cleanSafely, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs one clean-up now. */
    public int cleanNow() {
        Instant cutoff = Instant.ofEpochMilli(transactionLog.clock().millis()).minus(retention);
        int deleted = transactionLog.purgeOlderThan(cutoff, batchSize);
        if (deleted > 0) {
            log.info("Deleted {} transaction log rows older than {}", deleted, retention);
        }
        return deleted;
    }

    private void cleanSafely() {
        try {
            cleanNow();
        } catch (RuntimeException e) {
            log.warn("Transaction log clean-up failed (will retry): {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}

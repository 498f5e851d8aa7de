package dev.wharf.txchecker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.wharf.client.producer.LocalTransactionState;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JdbcTransactionLogTest {

    private HikariDataSource dataSource;
    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(now.get());
        }
    };
    private JdbcTransactionLog txLog;

    @BeforeEach
    void setUp() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:h2:mem:txlog-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        config.setMaximumPoolSize(4);
        dataSource = new HikariDataSource(config);
        txLog = new JdbcTransactionLog(dataSource, "wharf_tx_log", clock);
        txLog.createSchemaIfAbsent();
        txLog.createSchemaIfAbsent(); // idempotent
    }

    @AfterEach
    void tearDown() {
        dataSource.close();
    }

    @Test
    void aRowBecomesVisibleOnlyWhenTheCallersTransactionCommits() throws Exception {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            txLog.record(c, "tx-1", "orders");
            assertThat(txLog.contains("tx-1")).as("uncommitted row invisible to check-backs").isFalse();
            c.commit();
        }
        assertThat(txLog.findCreatedAt("tx-1")).hasValue(now.get());

        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            txLog.record(c, "tx-2", "orders");
            c.rollback();
        }
        assertThat(txLog.contains("tx-2")).isFalse();
    }

    @Test
    void checkerAnswersCommitRollbackOrUnknown() throws Exception {
        JdbcTransactionChecker checker = new JdbcTransactionChecker(txLog, Duration.ofSeconds(60));
        try (Connection c = dataSource.getConnection()) {
            txLog.record(c, "committed", "orders");
        }
        long started = now.get();
        assertThat(checker.check("committed", started)).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
        assertThat(checker.check("pending", started)).isEqualTo(LocalTransactionState.UNKNOW);
        now.addAndGet(Duration.ofSeconds(61).toMillis());
        assertThat(checker.check("pending", started)).isEqualTo(LocalTransactionState.ROLLBACK_MESSAGE);
        assertThat(checker.check("committed", started)).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
        assertThat(checker.check(null, started)).isEqualTo(LocalTransactionState.ROLLBACK_MESSAGE);
    }

    @Test
    void purgeDeletesOnlyOldRowsInBatches() throws Exception {
        try (Connection c = dataSource.getConnection()) {
            for (int i = 0; i < 25; i++) {
                txLog.record(c, "old-" + i, "g");
            }
        }
        now.addAndGet(Duration.ofDays(8).toMillis());
        try (Connection c = dataSource.getConnection()) {
            txLog.record(c, "new", "g");
        }
        try (TransactionLogCleaner cleaner = new TransactionLogCleaner(txLog, Duration.ofDays(7), Duration.ofHours(1), 10)) {
            assertThat(cleaner.cleanNow()).isEqualTo(25);
        }
        assertThat(txLog.contains("old-3")).isFalse();
        assertThat(txLog.contains("new")).isTrue();
    }

    @Test
    void badSettingsAndFailuresSayWhatToDo() throws Exception {
        assertThatThrownBy(() -> new JdbcTransactionLog(dataSource, "drop table x;", clock))
                .hasMessageContaining("not a plain SQL identifier");
        assertThatThrownBy(() -> new JdbcTransactionChecker(txLog, Duration.ZERO))
                .hasMessageContaining("longer than your longest database transaction");
        try (Connection c = dataSource.getConnection()) {
            txLog.record(c, "dup", "g");
            assertThatThrownBy(() -> txLog.record(c, "dup", "g"))
                    .isInstanceOf(TransactionLogException.class).hasMessageContaining("dup");
        }
        JdbcTransactionLog missingTable = new JdbcTransactionLog(dataSource, "no_such_table", clock);
        assertThatThrownBy(() -> missingTable.contains("x")).isInstanceOf(TransactionLogException.class)
                .hasMessageContaining("no_such_table");
    }
}

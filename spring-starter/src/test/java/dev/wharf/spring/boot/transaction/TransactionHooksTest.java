package dev.wharf.spring.boot.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.wharf.jms.spi.TransactionCheck;
import dev.wharf.jms.spi.TransactionCheck.Local;
import dev.wharf.jms.spi.TransactionOutcome;
import dev.wharf.txchecker.JdbcTransactionChecker;
import dev.wharf.txchecker.JdbcTransactionLog;
import dev.wharf.txchecker.TransactionLogException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The recorder writes the transaction id in the caller's database transaction and only there; the checker answers
 * from the database first and from what the process knows after. H2 through HikariCP, Spring's own transaction
 * manager, no broker.
 */
class TransactionHooksTest {

    private HikariDataSource dataSource;
    private HikariDataSource otherDataSource;
    private JdbcTransactionLog log;
    private final TransactionStats stats = new TransactionStats();
    private DataSourceTransactionRecorder recorder;
    private DatabaseTransactionChecker checker;

    private static HikariDataSource h2(String name) {
        HikariDataSource ds = new HikariDataSource();
        ds.setJdbcUrl("jdbc:h2:mem:" + name + "-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        ds.setMaximumPoolSize(3);
        return ds;
    }

    @BeforeEach
    void setUp() {
        dataSource = h2("hooks");
        otherDataSource = h2("other");
        log = new JdbcTransactionLog(dataSource);
        log.createSchemaIfAbsent();
        recorder = new DataSourceTransactionRecorder(dataSource, log, "shop-producer", stats);
        checker = new DatabaseTransactionChecker(log, new JdbcTransactionChecker(log, Duration.ofSeconds(60)), stats);
    }

    @AfterEach
    void tearDown() {
        dataSource.close();
        otherDataSource.close();
    }

    private TransactionTemplate tx(javax.sql.DataSource ds) {
        return new TransactionTemplate(new DataSourceTransactionManager(ds));
    }

    @Test
    void theRowCommitsAndRollsBackWithTheCallersTransaction() {
        tx(dataSource).executeWithoutResult(s -> recorder.transactionStarted("kept"));
        tx(dataSource).executeWithoutResult(s -> {
            recorder.transactionStarted("dropped");
            s.setRollbackOnly();
        });
        assertThat(log.contains("kept")).isTrue();
        assertThat(log.contains("dropped")).isFalse();
        assertThat(stats.started()).isEqualTo(2);
        assertThat(stats.recorded()).isEqualTo(2);
    }

    @Test
    void sendsMustBeDurableOneByOneExactlyWhenTheIdIsRecorded() {
        // recorded: the database commits first and a check-back may then commit the messages without the session
        Boolean recorded = tx(dataSource).execute(s -> recorder.mayCommitByCheckBack());
        assertThat(recorded).isTrue();
        // not recorded: only the session's commit decides, so its sends may be streamed
        assertThat(recorder.mayCommitByCheckBack()).isFalse();
        Boolean otherDatabase = tx(otherDataSource).execute(s -> recorder.mayCommitByCheckBack());
        assertThat(otherDatabase).isFalse();
    }

    @Test
    void nothingIsWrittenOutsideATransactionOfThisDataSource() {
        recorder.transactionStarted("no-transaction");
        tx(otherDataSource).executeWithoutResult(s -> recorder.transactionStarted("other-database"));
        assertThat(log.contains("no-transaction")).isFalse();
        assertThat(log.contains("other-database")).isFalse();
        assertThat(stats.started()).isEqualTo(2);
        assertThat(stats.recorded()).isZero();
    }

    @Test
    void aFailedInsertFailsTheSend() {
        tx(dataSource).executeWithoutResult(s -> recorder.transactionStarted("twice"));
        assertThatThrownBy(() -> tx(dataSource).executeWithoutResult(s -> recorder.transactionStarted("twice")))
                .isInstanceOf(TransactionLogException.class).hasMessageContaining("twice");
    }

    @Test
    void theFlushRunsJustBeforeTheDatabaseCommitsAndSeesTheRowNotYetCommitted() {
        java.util.List<Boolean> rowVisibleAtFlush = new java.util.ArrayList<>();
        tx(dataSource).executeWithoutResult(s -> {
            assertThat(recorder.flushesBeforeCommit()).isTrue();
            recorder.transactionStarted("flushed", () -> rowVisibleAtFlush.add(log.contains("flushed")));
            assertThat(rowVisibleAtFlush).as("not before the commit").isEmpty();
        });
        assertThat(rowVisibleAtFlush).as("flushed once, before the row committed").containsExactly(false);
        assertThat(log.contains("flushed")).isTrue();
    }

    @Test
    void aFailedFlushRollsTheDatabaseTransactionBack() {
        assertThatThrownBy(() -> tx(dataSource).executeWithoutResult(s -> recorder.transactionStarted("refused",
                () -> {
                    throw new jakarta.jms.TransactionRolledBackException("the broker refused a message");
                })))
                .isInstanceOf(org.springframework.jms.TransactionRolledBackException.class)
                .hasMessageContaining("the broker refused a message");
        assertThat(log.contains("refused")).as("the row rolled back with the database transaction").isFalse();
    }

    @Test
    void nothingIsFlushedWhereNothingIsRecordedOrFlushingIsOff() {
        java.util.concurrent.atomic.AtomicInteger flushes = new java.util.concurrent.atomic.AtomicInteger();
        assertThat(recorder.flushesBeforeCommit()).as("no transaction").isFalse();
        recorder.transactionStarted("no-transaction", flushes::incrementAndGet);
        tx(otherDataSource).executeWithoutResult(s -> {
            assertThat(recorder.flushesBeforeCommit()).as("another database").isFalse();
            recorder.transactionStarted("other-database", flushes::incrementAndGet);
        });
        DataSourceTransactionRecorder durable = new DataSourceTransactionRecorder(dataSource, log, "shop-producer",
                stats, false);
        tx(dataSource).executeWithoutResult(s -> {
            assertThat(durable.flushesBeforeCommit()).as("flushing off: durable sends").isFalse();
            assertThat(durable.mayCommitByCheckBack()).isTrue();
            durable.transactionStarted("durable", flushes::incrementAndGet);
        });
        assertThat(flushes).hasValue(0);
        assertThat(log.contains("durable")).isTrue();
    }

    private TransactionOutcome check(String id, long age, Local local) {
        return checker.check(new TransactionCheck(id, "shop-producer", "orders", System.currentTimeMillis() - age,
                local));
    }

    @Test
    void theDatabaseAnswersFirst() {
        tx(dataSource).executeWithoutResult(s -> recorder.transactionStarted("committed-in-db"));
        for (Local local : Local.values()) {
            assertThat(check("committed-in-db", 0, local)).as(local.name()).isEqualTo(TransactionOutcome.COMMIT);
        }
    }

    @Test
    void withoutARowWhatTheProcessKnowsDecides() {
        assertThat(check("plain", 0, Local.COMMITTED)).isEqualTo(TransactionOutcome.COMMIT);
        assertThat(check("plain", 0, Local.ROLLED_BACK)).isEqualTo(TransactionOutcome.ROLLBACK);
        assertThat(check("plain", 120_000, Local.OPEN)).isEqualTo(TransactionOutcome.UNKNOWN);
        assertThat(check("plain", 1_000, Local.FOREIGN)).as("its database transaction may still commit")
                .isEqualTo(TransactionOutcome.UNKNOWN);
        assertThat(check("plain", 120_000, Local.FOREIGN)).isEqualTo(TransactionOutcome.ROLLBACK);
        assertThat(check("plain", 120_000, Local.ABANDONED)).isEqualTo(TransactionOutcome.ROLLBACK);
        assertThat(stats.checks(TransactionOutcome.UNKNOWN)).isEqualTo(2);
        assertThat(stats.checks(TransactionOutcome.ROLLBACK)).isEqualTo(3);
    }
}

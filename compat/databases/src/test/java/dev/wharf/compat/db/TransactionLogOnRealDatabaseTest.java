package dev.wharf.compat.db;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.txchecker.JdbcTransactionChecker;
import dev.wharf.txchecker.JdbcTransactionLog;
import dev.wharf.txchecker.TransactionLogCleaner;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The transaction log and its check-back rule on a real database (one server per test class): the DDL, a row that
 * only a committed transaction makes visible, the check-back answers, the purge, and several application instances
 * (each its own pool and log) writing concurrently and answering for each other.
 */
abstract class TransactionLogOnRealDatabaseTest {

    private static final ConcurrentHashMap<Class<?>, RealDatabase> SERVERS = new ConcurrentHashMap<>();

    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(now.get());
        }
    };
    private final List<HikariDataSource> pools = new ArrayList<>();
    private String table;

    abstract RealDatabase.Kind kind();

    private RealDatabase database() {
        return SERVERS.computeIfAbsent(getClass(), c -> {
            try {
                return RealDatabase.start(kind());
            } catch (Exception e) {
                throw new IllegalStateException("could not start " + kind(), e);
            }
        });
    }

    @AfterAll
    static void stopServers() throws Exception {
        for (RealDatabase db : SERVERS.values()) {
            db.close();
        }
        SERVERS.clear();
    }

    @BeforeEach
    void freshTable() {
        table = "wharf_tx_log_" + Long.toHexString(System.nanoTime());
    }

    @AfterEach
    void closePools() {
        pools.forEach(HikariDataSource::close);
        pools.clear();
    }

    /** One application instance's pool. */
    private HikariDataSource pool(int size) {
        RealDatabase db = database();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.jdbcUrl());
        config.setUsername(db.user());
        config.setMaximumPoolSize(size);
        HikariDataSource ds = new HikariDataSource(config);
        pools.add(ds);
        return ds;
    }

    @Test
    void theSchemaIsCreatedOnceAndARowIsVisibleOnlyWhenItsTransactionCommits() throws Exception {
        HikariDataSource ds = pool(4);
        JdbcTransactionLog log = new JdbcTransactionLog(ds, table, clock);
        log.createSchemaIfAbsent();
        log.createSchemaIfAbsent();
        new JdbcTransactionLog(ds, table, clock).createSchemaIfAbsent();

        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            log.record(c, "tx-1", "orders");
            assertThat(log.contains("tx-1")).as("another connection does not see an uncommitted row").isFalse();
            c.commit();
        }
        assertThat(log.findCreatedAt("tx-1")).hasValue(now.get());
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            log.record(c, "tx-2", "orders");
            c.rollback();
        }
        assertThat(log.contains("tx-2")).isFalse();
    }

    @Test
    void checkBacksAnswerCommitUnknownAndRollback() throws Exception {
        HikariDataSource ds = pool(2);
        JdbcTransactionLog log = new JdbcTransactionLog(ds, table, clock);
        log.createSchemaIfAbsent();
        JdbcTransactionChecker checker = new JdbcTransactionChecker(log, Duration.ofSeconds(60));
        try (Connection c = ds.getConnection()) {
            log.record(c, "committed", "orders");
        }
        long started = now.get();
        assertThat(checker.check("committed", started)).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
        assertThat(checker.check("pending", started)).isEqualTo(LocalTransactionState.UNKNOW);
        now.addAndGet(Duration.ofSeconds(61).toMillis());
        assertThat(checker.check("pending", started)).isEqualTo(LocalTransactionState.ROLLBACK_MESSAGE);
        assertThat(checker.check("committed", started)).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
    }

    @Test
    void thePurgeDeletesOnlyOldRowsInBatches() throws Exception {
        HikariDataSource ds = pool(2);
        JdbcTransactionLog log = new JdbcTransactionLog(ds, table, clock);
        log.createSchemaIfAbsent();
        try (Connection c = ds.getConnection()) {
            for (int i = 0; i < 25; i++) {
                log.record(c, "old-" + i, "g");
            }
        }
        now.addAndGet(Duration.ofDays(8).toMillis());
        try (Connection c = ds.getConnection()) {
            log.record(c, "new", "g");
        }
        try (TransactionLogCleaner cleaner = new TransactionLogCleaner(log, Duration.ofDays(7), Duration.ofHours(1),
                10)) {
            assertThat(cleaner.cleanNow()).isEqualTo(25);
        }
        assertThat(log.contains("old-3")).isFalse();
        assertThat(log.contains("new")).isTrue();
    }

    /**
     * Three application instances (each its own pool and transaction log) write orders with their log rows from
     * four threads each, every third transaction rolled back; then every instance answers the check-back of every
     * transaction the same way, from the database alone.
     */
    @Test
    void severalInstancesWriteConcurrentlyAndAnswerForEachOther() throws Exception {
        int instances = 3;
        int threads = 4;
        int perThread = 30;
        String orders = "orders_" + table;
        List<JdbcTransactionLog> logs = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            JdbcTransactionLog log = new JdbcTransactionLog(pool(threads), table, clock);
            log.createSchemaIfAbsent(); // every instance creates the schema at start-up, as the starter does
            logs.add(log);
        }
        try (Connection c = logs.get(0).dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + orders + " (id VARCHAR(64) PRIMARY KEY, item VARCHAR(40))");
        }
        Set<String> committed = ConcurrentHashMap.newKeySet();
        Set<String> rolledBack = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(instances * threads);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                JdbcTransactionLog log = logs.get(i);
                for (int t = 0; t < threads; t++) {
                    String prefix = "i" + i + "-t" + t + "-";
                    work.add(pool.submit(() -> {
                        for (int n = 0; n < perThread; n++) {
                            String tx = prefix + n;
                            try (Connection c = log.dataSource().getConnection()) {
                                c.setAutoCommit(false);
                                try (PreparedStatement ps = c.prepareStatement(
                                        "INSERT INTO " + orders + " (id, item) VALUES (?, ?)")) {
                                    ps.setString(1, tx);
                                    ps.setString(2, "item");
                                    ps.executeUpdate();
                                }
                                log.record(c, tx, "orders");
                                if (n % 3 == 2) {
                                    c.rollback();
                                    rolledBack.add(tx);
                                } else {
                                    c.commit();
                                    committed.add(tx);
                                }
                            }
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(committed).hasSize(instances * threads * perThread * 2 / 3);
        assertThat(rolledBack).hasSize(instances * threads * perThread / 3);

        long started = now.get();
        now.addAndGet(Duration.ofSeconds(61).toMillis());
        for (JdbcTransactionLog log : logs) {
            JdbcTransactionChecker checker = new JdbcTransactionChecker(log, Duration.ofSeconds(60));
            for (String tx : committed) {
                assertThat(checker.check(tx, started)).as(tx).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
            }
            for (String tx : rolledBack) {
                assertThat(checker.check(tx, started)).as(tx).isEqualTo(LocalTransactionState.ROLLBACK_MESSAGE);
            }
        }
    }
}

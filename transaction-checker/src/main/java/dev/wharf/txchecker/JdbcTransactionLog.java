package dev.wharf.txchecker;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table of committed message transactions in the application's own database. The application inserts the
 * transaction id in the same database transaction as its business rows; if the process dies after the database
 * commits but before the broker hears COMMIT, the broker's check-back finds the row and the messages are delivered.
 * If the database transaction rolled back, the row is absent and the messages are dropped.
 *
 * <p>Thread-safe; every method borrows a connection from the DataSource except {@link #record(Connection, String,
 * String)}, which uses the caller's (transactional) connection and never commits it.
 */
public final class JdbcTransactionLog {

    private static final Logger log = LoggerFactory.getLogger(JdbcTransactionLog.class);
    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    /** The default table name. */
    public static final String DEFAULT_TABLE = "wharf_tx_log";

    private final DataSource dataSource;
    private final String table;
    private final Clock clock;
    private volatile SqlDialect dialect;

    public JdbcTransactionLog(DataSource dataSource) {
        this(dataSource, DEFAULT_TABLE, Clock.systemUTC());
    }

    /**
     * @param table a plain SQL identifier (letters, digits, underscore; up to 63 characters)
     */
    public JdbcTransactionLog(DataSource dataSource, String table, Clock clock) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        if (table == null || !TABLE_NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("The transaction log table name \"" + table + "\" is not a plain SQL "
                    + "identifier; use letters, digits and underscores (at most 63 characters), e.g. wharf_tx_log.");
        }
        this.table = table;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Creates the table and its index when they are absent (safe to call on every start). */
    public void createSchemaIfAbsent() {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            SqlDialect d = dialect(c);
            for (String ddl : d.createSchema(table)) {
                s.execute(ddl);
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
            log.info("Transaction log table {} ready ({})", table, d);
        } catch (SQLException e) {
            throw new TransactionLogException("Cannot create the transaction log table " + table
                    + ": " + e.getMessage() + ". Check that the database user may create tables, or create it "
                    + "yourself with the DDL in the README.", e);
        }
    }

    /**
     * Records a transaction id on the caller's connection, inside the caller's database transaction. The row
     * becomes visible to check-backs only when that transaction commits.
     */
    public void record(Connection transactional, String transactionId, String producerGroup) {
        try (PreparedStatement ps = transactional.prepareStatement(dialect(transactional).insert(table))) {
            ps.setString(1, transactionId);
            ps.setString(2, producerGroup);
            ps.setLong(3, clock.millis());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new TransactionLogException("Cannot record message transaction " + transactionId + " in table "
                    + table + ": " + e.getMessage(), e);
        }
    }

    /** When the transaction was recorded, or empty when it never committed (or was purged). */
    public OptionalLong findCreatedAt(String transactionId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(dialect(c).findCreatedAt(table))) {
            ps.setString(1, transactionId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        } catch (SQLException e) {
            throw new TransactionLogException("Cannot look up message transaction " + transactionId + " in table "
                    + table + ": " + e.getMessage(), e);
        }
    }

    public boolean contains(String transactionId) {
        return findCreatedAt(transactionId).isPresent();
    }

    /**
     * Deletes rows recorded before {@code cutoff} in batches of {@code batchSize}, each batch in its own short
     * transaction, so the purge never holds many row locks at once.
     *
     * @return the number of rows deleted
     */
    public int purgeOlderThan(Instant cutoff, int batchSize) {
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batchSize must be positive");
        }
        int total = 0;
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(dialect(c).deleteBatch(table))) {
                int deleted;
                do {
                    ps.setLong(1, cutoff.toEpochMilli());
                    ps.setInt(2, batchSize);
                    deleted = ps.executeUpdate();
                    c.commit();
                    total += deleted;
                } while (deleted >= batchSize);
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new TransactionLogException("Cannot purge old rows of table " + table + ": " + e.getMessage(), e);
        }
        return total;
    }

    public String table() {
        return table;
    }

    /** The database the log lives in (the application's own). */
    public DataSource dataSource() {
        return dataSource;
    }

    Clock clock() {
        return clock;
    }

    private SqlDialect dialect(Connection c) throws SQLException {
        SqlDialect d = dialect;
        if (d == null) {
            d = SqlDialect.of(c);
            dialect = d;
        }
        return d;
    }
}

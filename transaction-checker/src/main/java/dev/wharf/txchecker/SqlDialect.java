package dev.wharf.txchecker;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * The SQL that differs between the databases the transaction log supports. Times are stored as epoch milliseconds
 * (BIGINT) so that no database's time-zone handling can move a row across the check-back timeout.
 */
enum SqlDialect {

    H2 {
        @Override
        String deleteBatch(String table) {
            return "DELETE FROM " + table + " WHERE tx_id IN (SELECT tx_id FROM " + table
                    + " WHERE created_at < ? LIMIT ?)";
        }
    },

    POSTGRESQL {
        @Override
        String deleteBatch(String table) {
            // ctid addresses the rows found by the LIMITed scan; the delete touches only those rows
            return "DELETE FROM " + table + " WHERE ctid IN (SELECT ctid FROM " + table
                    + " WHERE created_at < ? LIMIT ?)";
        }
    },

    /** MySQL and MariaDB (InnoDB). */
    MYSQL {
        @Override
        List<String> createSchema(String table) {
            // MySQL has no CREATE INDEX IF NOT EXISTS, so the index is declared with the table
            return List.of("CREATE TABLE IF NOT EXISTS " + table + " (" + COLUMNS + ", "
                    + "INDEX " + table + "_created (created_at)) ENGINE=InnoDB");
        }

        @Override
        String deleteBatch(String table) {
            return "DELETE FROM " + table + " WHERE created_at < ? LIMIT ?";
        }
    };

    /** The table's columns, the same in every database. */
    private static final String COLUMNS = "tx_id VARCHAR(64) NOT NULL PRIMARY KEY, "
            + "producer_group VARCHAR(255) NOT NULL, "
            + "created_at BIGINT NOT NULL";

    /** The table and its index on the creation time, created when missing. */
    List<String> createSchema(String table) {
        return List.of("CREATE TABLE IF NOT EXISTS " + table + " (" + COLUMNS + ")",
                "CREATE INDEX IF NOT EXISTS " + table + "_created ON " + table + " (created_at)");
    }

    /** Deletes at most {@code ?2} rows created before {@code ?1}. */
    abstract String deleteBatch(String table);

    String insert(String table) {
        return "INSERT INTO " + table + " (tx_id, producer_group, created_at) VALUES (?, ?, ?)";
    }

    String findCreatedAt(String table) {
        return "SELECT created_at FROM " + table + " WHERE tx_id = ?";
    }

    static SqlDialect of(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        String product = meta.getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (product.contains("h2")) {
            return H2;
        }
        if (product.contains("postgres")) {
            return POSTGRESQL;
        }
        if (product.contains("mysql") || product.contains("mariadb")) {
            return MYSQL;
        }
        throw new IllegalStateException("The transaction log supports H2, PostgreSQL, MySQL and MariaDB; this "
                + "DataSource is " + meta.getDatabaseProductName() + ". Create the table yourself (see the README) "
                + "and report the database so it can be supported.");
    }
}

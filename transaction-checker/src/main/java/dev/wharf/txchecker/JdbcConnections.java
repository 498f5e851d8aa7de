package dev.wharf.txchecker;

import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The quiet ends of a connection's life: a failure here must not hide the failure that led to it. */
final class JdbcConnections {

    private static final Logger log = LoggerFactory.getLogger(JdbcConnections.class);

    private JdbcConnections() {
    }

    static void rollback(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            log.warn("Database rollback failed: {}", e.getMessage());
        }
    }

    static void restoreAutoCommit(Connection connection, boolean autoCommit) {
        try {
            connection.setAutoCommit(autoCommit);
        } catch (SQLException e) {
            log.debug("Could not restore auto-commit: {}", e.getMessage());
        }
    }

    static void close(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("Could not close a connection: {}", e.getMessage());
        }
    }
}

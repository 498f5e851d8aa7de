/**
 * Answers the broker's transaction check-backs from the application's database: a transaction-id table written in
 * the application's own database transaction ({@link dev.wharf.txchecker.JdbcTransactionLog}), the check-back rule
 * ({@link dev.wharf.txchecker.JdbcTransactionChecker}) and its periodic clean-up. Works on any JDBC DataSource;
 * DDL for H2, PostgreSQL and MySQL/MariaDB.
 */
package dev.wharf.txchecker;

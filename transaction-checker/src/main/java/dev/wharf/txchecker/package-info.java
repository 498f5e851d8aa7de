/**
 * Answers the broker's transaction check-backs from the application's database: a transaction-id table written in
 * the application's own database transaction ({@link dev.wharf.txchecker.JdbcTransactionLog}), the check-back rule
 * ({@link dev.wharf.txchecker.JdbcTransactionChecker}) and its periodic clean-up. Works on any JDBC DataSource;
 * DDL for H2, PostgreSQL and MySQL/MariaDB. Without Spring, {@link dev.wharf.txchecker.JdbcTransactionTemplate} runs
 * JDBC work and message sends as one unit and {@link dev.wharf.txchecker.JdbcTransactionListener} answers a
 * {@code TransactionProducer}'s check-backs; the Spring starter uses the log and the rule directly.
 */
package dev.wharf.txchecker;

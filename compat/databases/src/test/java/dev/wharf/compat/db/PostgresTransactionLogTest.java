package dev.wharf.compat.db;

/** {@link TransactionLogOnRealDatabaseTest} on PostgreSQL 14. */
class PostgresTransactionLogTest extends TransactionLogOnRealDatabaseTest {

    @Override
    RealDatabase.Kind kind() {
        return RealDatabase.Kind.POSTGRESQL;
    }
}

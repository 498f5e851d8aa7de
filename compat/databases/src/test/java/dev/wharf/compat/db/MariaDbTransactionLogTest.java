package dev.wharf.compat.db;

/** {@link TransactionLogOnRealDatabaseTest} on MariaDB 10.11. */
class MariaDbTransactionLogTest extends TransactionLogOnRealDatabaseTest {

    @Override
    RealDatabase.Kind kind() {
        return RealDatabase.Kind.MARIADB;
    }
}

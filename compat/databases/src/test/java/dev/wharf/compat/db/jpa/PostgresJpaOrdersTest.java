package dev.wharf.compat.db.jpa;

import dev.wharf.compat.db.RealDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link JpaTransactionalOrdersTest} on PostgreSQL 14. */
class PostgresJpaOrdersTest extends JpaTransactionalOrdersTest {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry registry) throws Exception {
        startAll(RealDatabase.Kind.POSTGRESQL, registry);
    }
}

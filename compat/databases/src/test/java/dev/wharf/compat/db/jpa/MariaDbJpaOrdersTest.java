package dev.wharf.compat.db.jpa;

import dev.wharf.compat.db.RealDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link JpaTransactionalOrdersTest} on MariaDB 10.11. */
class MariaDbJpaOrdersTest extends JpaTransactionalOrdersTest {

    @DynamicPropertySource
    static void mariaDb(DynamicPropertyRegistry registry) throws Exception {
        startAll(RealDatabase.Kind.MARIADB, registry);
    }
}

package dev.wharf.compat.db.jpa;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A shop on Spring Data JPA (Hibernate, {@code JpaTransactionManager}): an order entity saved and an "order N"
 * message sent in one {@code @Transactional} method ({@link JpaOrderService}).
 */
@SpringBootApplication
public class JpaShopApplication {
}

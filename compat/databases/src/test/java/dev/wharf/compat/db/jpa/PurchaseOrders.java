package dev.wharf.compat.db.jpa;

import org.springframework.data.jpa.repository.JpaRepository;

/** The orders, through Spring Data JPA. */
public interface PurchaseOrders extends JpaRepository<PurchaseOrder, Long> {
}

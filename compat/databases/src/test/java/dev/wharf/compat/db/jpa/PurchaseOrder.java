package dev.wharf.compat.db.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order row, written through JPA. */
@Entity
@Table(name = "purchase_orders")
public class PurchaseOrder {

    @Id
    private Long id;
    private String item;

    protected PurchaseOrder() {
    }

    public PurchaseOrder(long id, String item) {
        this.id = id;
        this.item = item;
    }

    public Long getId() {
        return id;
    }

    public String getItem() {
        return item;
    }
}

package dev.wharf.compat.db.jpa;

import org.springframework.jms.core.JmsTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Places an order: an entity and an "order N" message on {@code jpa-orders}, committed together. */
@Service
public class JpaOrderService {

    public static final String QUEUE = "jpa-orders";

    private final PurchaseOrders orders;
    private final JmsTemplate jms;
    private final JpaHaltSwitch halt;

    public JpaOrderService(PurchaseOrders orders, JmsTemplate jms, JpaHaltSwitch halt) {
        this.orders = orders;
        this.jms = jms;
        this.halt = halt;
    }

    /** @param fail whether the method fails after saving and sending (so the transaction rolls back) */
    @Transactional
    public void placeOrder(long id, String item, boolean fail) {
        // flushed at once: the insert and the transaction-log row go through the one JDBC connection of the
        // JPA transaction
        orders.saveAndFlush(new PurchaseOrder(id, item));
        jms.convertAndSend(QUEUE, "order " + id);
        halt.arm(id);
        if (fail) {
            throw new IllegalStateException("payment declined for order " + id);
        }
    }

    public boolean exists(long id) {
        return orders.existsById(id);
    }
}

package dev.wharf.samples.order;

import java.util.EnumSet;
import java.util.Set;

/** Where an order is. PLACED and RESERVED are open; the others are final. */
public enum OrderStatus {
    /** The row is written and its OrderCreated message sent. */
    PLACED,
    /** The inventory reserved the stock and asked for payment. */
    RESERVED,
    PAID,
    /** Not paid within the payment window; the stock is released. */
    CANCELLED,
    /** The payment failed on every delivery and went to the dead-letter queue; the stock is released. */
    PAYMENT_FAILED,
    /** Not enough stock. */
    REJECTED;

    static final Set<OrderStatus> OPEN = EnumSet.of(PLACED, RESERVED);
}

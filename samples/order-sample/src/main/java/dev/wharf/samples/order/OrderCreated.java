package dev.wharf.samples.order;

/** An order was placed (sent in the transaction that writes its row). */
public record OrderCreated(long orderId, String item, int quantity, long amountCents) {
}

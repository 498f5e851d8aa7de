package dev.wharf.samples.order;

/** The stock of an order is reserved: charge the customer. */
public record PaymentRequested(long orderId, int seq, long amountCents) {
}

package dev.wharf.samples.order;

/** The payment window of an order has closed: cancel it unless it is paid (delivered with a delay). */
public record OrderTimeout(long orderId) {
}

package dev.wharf.samples.order;

/** The queues of the sample. */
final class Queues {

    /** {@link OrderCreated}: sent with the order row, read by the inventory. */
    static final String ORDERS = "orders";
    /** {@link PaymentRequested}: sent by the inventory once the stock is reserved, read by the payment service. */
    static final String PAYMENTS = "payments";
    /** Payment requests whose listener failed on every delivery (the queue's consumer group is "payments"). */
    static final String PAYMENTS_DEAD_LETTERS = "%DLQ%payments";
    /** {@link OrderTimeout}: sent with a delivery delay of the payment window, cancels the order if still unpaid. */
    static final String ORDER_TIMEOUTS = "order-timeouts";

    private Queues() {
    }
}

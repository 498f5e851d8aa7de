/**
 * The order sample: orders placed in {@code @Transactional} methods (an order row and an {@code OrderCreated}
 * message, committed together), an inventory consumer that reserves stock and asks for payment, a payment consumer
 * that fails for some orders (retries, then the dead-letter queue), a delayed payment-due message that cancels
 * unpaid orders, and a switch that kills the JVM right after a database commit so that the next run shows the
 * broker's check-back delivering that order's message. {@link dev.wharf.samples.order.OrderSampleApplication} runs
 * it and prints a summary.
 */
package dev.wharf.samples.order;

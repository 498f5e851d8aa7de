/**
 * The push consumer's engine: rebalance (which queues this member owns), one process queue per owned queue,
 * the pull loop with long polling and flow control, and the concurrent and orderly consume services. It knows
 * the application's listeners only through the small handler interfaces here, so that the public types of
 * {@code dev.wharf.client.consumer} sit on top of it without a package cycle.
 */
package dev.wharf.client.consumer.push;

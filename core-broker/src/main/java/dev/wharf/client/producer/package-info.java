/**
 * The producer: sync (with retries on another broker), async (bounded in-flight), one-way, to a chosen queue
 * (selector or explicit), and batch sends. Every message gets a client unique id before its first attempt, so
 * a retried message that was in fact stored twice can be recognised by consumers.
 *
 * <p>Transactions: {@link dev.wharf.client.producer.TransactionProducer} sends half messages, runs the local
 * transaction through the {@link dev.wharf.client.producer.TransactionListener} SPI and reports the outcome; a
 * {@link dev.wharf.client.producer.LocalTransaction} commits or rolls back several messages at once. The listener
 * also answers the broker's check-backs about transactions whose outcome never arrived.
 */
package dev.wharf.client.producer;

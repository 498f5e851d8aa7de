/**
 * Acknowledgement-based consumption: {@link dev.wharf.client.ack.AckConsumer} leases messages from the brokers
 * serving a topic ("pop"), acknowledges them one by one in any order, gives them back for redelivery, and browses
 * what is left — the broker tracks every message, so per-consumer selectors and out-of-order acknowledgement need
 * no client-side offsets. This is the consumption the JMS provider builds every destination on; the class
 * documentation of {@code AckConsumer} states the guarantees (leases, delivery counts, ordering, restarts). A group
 * whose master is down is read from its slave without leases ({@code SlaveReads}), its acknowledgements handed to
 * the master when it returns.
 */
package dev.wharf.client.ack;

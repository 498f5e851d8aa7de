/**
 * The acknowledgement state itself: per (group, topic, queue) a {@link dev.wharf.broker.ack.state.QueueAckState}
 * holding the done marks ({@link dev.wharf.broker.ack.state.OffsetBitSet}), the deliveries and leases, and the
 * selectors' scan positions; grouped per (group, topic) and kept in a table. Plain data structures guarded by each
 * queue's lock; {@code dev.wharf.broker.ack} drives them.
 */
package dev.wharf.broker.ack.state;

/**
 * Acknowledgement-based consumption ("pop"): the broker hands messages out with a lease and tracks the
 * acknowledgement of every message, so JMS queue semantics hold — each message to one consumer, selectors
 * per consumer, acknowledgement in any order.
 *
 * <h2>Why not the group offset</h2>
 * A consumer group's offset says "everything below is done". With per-consumer selectors a message that no
 * current selector matches must stay on the queue for a later consumer or a browser, and with CLIENT_ACK or a
 * rolled-back message the acknowledgements arrive out of order; a single contiguous offset would either skip
 * such messages or hold every later acknowledgement back. So the broker keeps, per (group, topic, queue), a
 * {@link dev.wharf.broker.ack.state.QueueAckState}:
 * <ul>
 * <li><b>ackOffset</b>: every offset below it is done (acknowledged, skipped, expired or dead-lettered);</li>
 * <li><b>done marks</b> above it, one bit per offset ({@link dev.wharf.broker.ack.state.OffsetBitSet}); marking the
 * ackOffset done moves it up over every consecutive done offset;</li>
 * <li><b>deliveries</b>: for each message handed out and not done, how often its delivery counted and its lease
 * (expiry, owning connection) while one runs;</li>
 * <li><b>scan positions</b>, one per selector ({@link dev.wharf.broker.ack.state.ScanPositions}): between the ackOffset
 * and the position, every message that is neither done nor leased is known not to match that selector.</li>
 * </ul>
 *
 * <h2>Pop</h2>
 * A pop locks one queue state at a time and reads the consume queue from its selector's scan position through
 * the store's filtered read, with a filter ({@link dev.wharf.broker.ack.PopScan}) that passes over done and
 * leased units before their record is read, compares the tag hash, then evaluates an SQL92 selector on the
 * record's properties (the broker's {@code RecordPropertySource}, JMSXDeliveryCount being the broker's count).
 * It looks at no more than {@code popScanUnitsPerQueue} units per queue and request and leaves the position where
 * it stopped, so a large unmatched backlog is walked once per selector, in steps, not on every pop. Matching
 * messages are leased (delivery count + 1) and sent as the stored bytes. On the way the scan finishes what it
 * meets: unmatched messages when the pop skips them (topic subscriptions), messages whose {@code JMSExpiration}
 * passed, and messages delivered more than maxReconsumeTimes + 1 times (copied to {@code %DLQ%{group}}, then
 * done). A pop for "any queue" walks the topic's queues from a rotating start, so any number of consumers share
 * any number of queues. A pop that finds nothing is held by the broker's long polling on every queue it looked
 * at and woken by a new message or by a lease that ended there.
 *
 * <h2>Ordering and delivery counts</h2>
 * Within one queue a pop returns the available matching messages in queue order; a message whose lease ended
 * lowers every scan position to it, so redeliveries come before newer messages of that queue. Across queues, and
 * across consumers popping concurrently, there is no order. The delivery count is 1 on the first delivery and goes
 * up with each pop of the message; a lease that expires, whose connection closes, or that is given back with
 * "count" (rollback, recover, listener failure) keeps its count, so the next delivery carries one more; a lease
 * given back "uncounted" (prefetched, never shown to the application) does not. A message is delivered at most
 * maxReconsumeTimes + 1 times (the request's value, else the group's retryMaxTimes); once its counted deliveries
 * exceed maxReconsumeTimes it goes to the dead-letter queue instead of becoming available again.
 *
 * <h2>Persistence</h2>
 * Every change that matters — lease taken (so after a crash the message counts as delivered), ack, a delivery
 * declared uncounted, skip, expiry, dead-lettering, creation and deletion of a group's state — is appended as
 * one compact binary record per request and queue ({@link dev.wharf.broker.ack.persist.AckLogRecord}) to the
 * internal one-queue topic {@code WHARF_SYS_ACK_LOG} through the normal put, so it is flushed per flushDiskType
 * and recovered with the commit log. Changes are applied in memory and appended while the queue's lock is held,
 * so one queue's records are in the log in the order of its changes; acks are answered once their record is
 * stored (with SYNC_FLUSH: on disk). Every few seconds when something changed, and at shutdown, all states are
 * written to {@code config/ackState.json} (atomic file replacement) with the ack-log offset read just before:
 * every record below it is reflected in the snapshot. At start the snapshot is loaded and the log replayed from
 * that offset; records carry absolute values (a done mark, a delivery count), so replaying one the snapshot
 * already holds changes nothing. Leases are not restored: a message leased before a restart is available after
 * it, its delivery count one higher. Ack-log files are deleted with the commit log's (fileReservedTime); the
 * snapshot makes older records unnecessary.
 *
 * <h2>Memory</h2>
 * Per queue state: one bit per offset between ackOffset and the highest done offset (a message no selector
 * matches keeps ackOffset where it is: ten million acknowledged messages behind it cost 1.25 MB), about 100
 * bytes per message handed out and not done (in flight, or redelivered and waiting), and at most 32 scan
 * positions. A huge unmatched backlog costs no memory beyond those bits, but time: each new selector walks it
 * once from ackOffset, {@code popScanUnitsPerQueue} units per request (pops keep scanning within their poll time,
 * or a few rounds for pops that may not wait). Snapshots write the bits and deliveries of every state.
 *
 * <h2>Threads</h2>
 * Pops and peeks run on the broker's pop executor, acks and lease changes on its ack executor; a queue state's
 * lock serialises them per queue. One thread of {@link dev.wharf.broker.ack.AckService} ends expired leases
 * (every {@code popLeaseScanInterval}), leases of closed connections, moves dead letters and writes snapshots.
 */
package dev.wharf.broker.ack;

/**
 * What makes a slave (brokerId above 0) able to serve reads now and take over later: it copies its master's
 * metadata over ordinary admin requests ({@link dev.wharf.broker.slave.SlaveSynchronizer}), keeps the offsets
 * consumers commit to it while the master is away and hands them back when the master returns
 * ({@link dev.wharf.broker.slave.SlaveCommittedOffsets}); and, on every broker, serves those admin requests to its
 * slaves ({@link dev.wharf.broker.slave.MetadataExportProcessor}).
 *
 * <h2>The offset rule</h2>
 * <ul>
 * <li>A slave never stores an offset carried by a pull (as in RocketMQ): pulls are often served by a slave
 * while the master is up and lagging reads are steered there, and a pull's commit would race the master's.</li>
 * <li>An explicit commit (UPDATE_CONSUMER_OFFSET) to a slave is stored there and remembered as slave-committed:
 * a client commits to a slave only when the route has no master for the group.</li>
 * <li>Every sync round the slave takes the master's offsets, except where a slave-committed offset is above
 * the master's: there it keeps its own and hands it back to the master with UPDATE_CONSUMER_OFFSET. Once the
 * master's offset is at or above it, the slave forgets that it committed it. So an offset only moves back when
 * an administrator resets it on the master, and a consumer that read from the slave never re-reads from the
 * master's older offset after the master returns (it may re-read what it read between its last commit and the
 * switch: duplicates, never a gap).</li>
 * <li>A reset on the master within one sync round of the master's return, of a queue that was committed on the
 * slave meanwhile, can be undone by the hand-back; reset again after the round.</li>
 * </ul>
 *
 * <p>Depends on the managers it copies into; nothing in the broker depends on it but the wiring.
 */
package dev.wharf.broker.slave;

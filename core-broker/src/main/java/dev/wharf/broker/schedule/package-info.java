/**
 * Scheduled delivery. A message that asks for a delay is stored under {@code SCHEDULE_TOPIC_XXXX} by
 * {@link dev.wharf.broker.schedule.DelayedMessageHook} and stored again under its real topic by
 * {@link dev.wharf.broker.schedule.ScheduleService} once due (a new record; unique id, keys, tags and other
 * properties kept). The due time sits in the consume queue's tag slot, so waiting costs no commit-log reads.
 *
 * <h2>Two mechanisms</h2>
 * <ul>
 * <li><b>Delay levels</b> (messageDelayLevel, queue {@code level - 1}): every message of a level waits equally
 *     long, so a queue's due times grow with its offsets and a level is an offset that follows its queue,
 *     delivering while the head is due. Nothing is held in memory.</li>
 * <li><b>Arbitrary delivery times</b> (DELIVER_TIME_MS / DELAY_MS, queue {@code levelCount}): JMS delivery delay
 *     must mean what it says, so one more queue takes any delay up to {@code timerMaxDelaySec}. Its due times are
 *     in no order, so the {@link dev.wharf.broker.schedule.TimerDeliverer} reads the queue's units as they arrive
 *     into an in-memory index, the {@link dev.wharf.broker.schedule.TimerWheel}: one-second slots for the next
 *     hour (O(1) insert, a slot sorted only when it becomes due) and a binary heap beyond. Both are primitive
 *     {@code long} arrays with no object per message: 8 bytes per entry in the wheel, 16 in the heap, plus up
 *     to half again for array growth; 10 million pending messages take roughly 80 to 240 MB of heap (measured: 1 million
 *     pending a day ahead, 16.4 MB). The index is rebuilt at start by reading the queue's 20-byte units
 *     sequentially from the low-water mark (measured: a broker with 1 million pending starts in 0.26 s).</li>
 * </ul>
 *
 * <p>Why not the alternatives: more levels only approximate a delay; a sorted on-disk structure (a time-wheel
 * file or a log per time bucket, as some brokers use) survives huge backlogs without memory but costs a second
 * write per message and far more code; a {@code DelayQueue} of objects costs ~100 bytes per message and GC
 * work. The in-memory index bounds pending messages by heap, which is the weakness to watch at tens of
 * millions of pending messages.
 *
 * <p>Delivery is no earlier than the due time: the thread sleeps until the earliest known due time (at most
 * 100 ms) and the dispatcher wakes it when a message due sooner arrives. A due time at most 50 ms ahead is
 * delivered at once by the hook, without the round trip.
 *
 * <h2>Long waits and commit-log clean-up</h2>
 * A timer message that would wait longer than {@code timerRollIntervalSec} (default: half of fileReservedTime)
 * is copied to the end of the timer queue when that time has passed ("rolled"), so clean-up never deletes a
 * message that still waits.
 *
 * <h2>Exactly once across restarts</h2>
 * Every copy the scheduler writes (delivered or rolled) carries SCHEDULE_SOURCE = {@code queueId:queueOffset}
 * of the entry it settles. {@code config/delayOffset.json} holds the level offsets, the timer's low-water mark
 * and the commit log's end when it was written (every {@code flushDelayOffsetInterval} ms when something
 * changed, and at shutdown, on the schedule thread between rounds, so it never counts a put that is not in
 * the log below that end). The timer delivers out of queue order, so what it settled above its low-water mark
 * is kept as one bit per offset ({@link dev.wharf.broker.schedule.SettledBitmap}, files under
 * {@code schedule/timer-settled/}). At start the commit log is scanned from the recorded end (typically the
 * last second of writes) and every SCHEDULE_SOURCE found advances its level or sets its bit: a message the
 * scheduler stored before a crash is never stored again, and one it had not stored is stored right after start.
 */
package dev.wharf.broker.schedule;

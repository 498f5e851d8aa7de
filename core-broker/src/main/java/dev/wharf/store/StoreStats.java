package dev.wharf.store;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Cheap counters of the store since it started: puts, bytes, failures, disk forces and dispatch lag.
 * Thread-safe (LongAdders, read with a sum).
 */
public final class StoreStats {

    private final LongAdder putMessages = new LongAdder();
    private final LongAdder putBytes = new LongAdder();
    private final LongAdder putFailures = new LongAdder();
    private final LongAdder flushTimeouts = new LongAdder();
    private final LongAdder getMessages = new LongAdder();
    private final LongAdder forces;
    private final LongSupplier dispatchBehindBytes;
    private final LongSupplier dispatchedMessages;
    private volatile LongSupplier quarantinedRanges = () -> 0;
    private volatile LongSupplier quarantinedSinceStart = () -> 0;
    private volatile LongSupplier damagedReadsSkipped = () -> 0;
    private volatile StoreObserver observer = StoreObserver.NONE;

    StoreStats(LongAdder forces, LongSupplier dispatchBehindBytes, LongSupplier dispatchedMessages) {
        this.forces = forces;
        this.dispatchBehindBytes = dispatchBehindBytes;
        this.dispatchedMessages = dispatchedMessages;
    }

    void bindQuarantine(LongSupplier ranges, LongSupplier sinceStart, LongSupplier readsSkipped) {
        this.quarantinedRanges = ranges;
        this.quarantinedSinceStart = sinceStart;
        this.damagedReadsSkipped = readsSkipped;
    }

    void recordPut(int messages, int bytes) {
        putMessages.add(messages);
        putBytes.add(bytes);
    }

    void recordPutFailure() {
        putFailures.increment();
    }

    void recordFlushTimeout() {
        flushTimeouts.increment();
    }

    void recordGet(String topic, int messages, long bytes) {
        getMessages.add(messages);
        if (messages > 0) {
            observer.read(topic, messages, bytes);
        }
    }

    void recordStored(String topic, int bytes) {
        observer.stored(topic, bytes);
    }

    void recordAppendNanos(long nanos) {
        observer.appended(nanos);
    }

    void recordFlushNanos(long nanos) {
        observer.flushed(nanos);
    }

    /**
     * Tells {@code observer} of the traffic from now on (metrics); null observes nothing. Records already stored
     * when it is set (the replay of a start) are not reported.
     */
    public void setObserver(StoreObserver observer) {
        this.observer = observer == null ? StoreObserver.NONE : observer;
    }

    /** Messages stored. */
    public long putMessageCount() {
        return putMessages.sum();
    }

    /** Bytes stored (whole records). */
    public long putBytes() {
        return putBytes.sum();
    }

    /** Puts refused (bad input, disk, shutdown). */
    public long putFailureCount() {
        return putFailures.sum();
    }

    /** Sync-flush puts that got FLUSH_DISK_TIMEOUT. */
    public long flushTimeoutCount() {
        return flushTimeouts.sum();
    }

    /** Messages handed out by reads. */
    public long getMessageCount() {
        return getMessages.sum();
    }

    /** Commit-log forces to disk (one per group in SYNC_FLUSH). */
    public long flushCount() {
        return forces.sum();
    }

    /** Commit-log bytes not yet dispatched to consume queues and index. */
    public long dispatchBehindBytes() {
        return dispatchBehindBytes.getAsLong();
    }

    /** Records dispatched since start. */
    public long dispatchedMessageCount() {
        return dispatchedMessages.getAsLong();
    }

    /** Damaged commit-log ranges known (from the quarantine report, recovery and reads): never served. */
    public long quarantinedRangeCount() {
        return quarantinedRanges.getAsLong();
    }

    /** Damaged ranges found since start (by recovery or by reads). */
    public long quarantinedSinceStartCount() {
        return quarantinedSinceStart.getAsLong();
    }

    /** Reads that skipped a record because it was damaged or quarantined. */
    public long damagedReadSkipCount() {
        return damagedReadsSkipped.getAsLong();
    }

    @Override
    public String toString() {
        return "StoreStats{puts=" + putMessageCount() + ", bytes=" + putBytes() + ", putFailures=" + putFailureCount()
                + ", flushes=" + flushCount() + ", flushTimeouts=" + flushTimeoutCount() + ", gets=" + getMessageCount()
                + ", dispatchBehindBytes=" + dispatchBehindBytes() + ", quarantinedRanges=" + quarantinedRangeCount() + "}";
    }
}

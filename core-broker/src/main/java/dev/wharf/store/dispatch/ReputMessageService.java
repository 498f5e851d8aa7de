package dev.wharf.store.dispatch;

import dev.wharf.common.message.MessageRecord;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.common.util.ServiceThread;
import dev.wharf.store.commitlog.CommitLog;
import dev.wharf.store.commitlog.QuarantinedRanges;
import dev.wharf.store.commitlog.RecordValidator;
import dev.wharf.store.file.SelectMappedBufferResult;
import dev.wharf.store.health.StoreHealth;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the commit log from the reput offset and hands every committed record to the dispatchers in order
 * (consume queue, index, ...). The put path wakes it after each append; it also polls every {@code pollMillis}
 * as a fallback.
 *
 * <p>Atomic batches: the <em>confirmed offset</em> is the reput offset, except that it does not move into a
 * batch (records with {@code INNER_BATCH_CONTINUES}) until the record closing the batch has been dispatched;
 * then it jumps past the whole batch. Readers treat consume-queue units at or above it as not there yet, so
 * every unit of a batch, in every queue, becomes readable at the same instant. The confirmed dispatchers
 * (arrival notifications for long polling) receive a batch's requests only then.
 *
 * <p>Faults: a dispatcher that throws (a consume queue without room on a full disk, an I/O fault of a mapped
 * file, any {@link Throwable}) leaves the record undispatched: the reput offset stays on it and the service tries
 * it again, waiting {@value #FIRST_RETRY_MILLIS} ms, then twice as long each time up to
 * {@value #MAX_RETRY_MILLIS} ms. Meanwhile {@link StoreHealth} marks dispatch stuck, so the store refuses new
 * puts with the reason instead of accepting messages nobody could read; the first success clears it. Dispatchers
 * see a retried record again and skip what they already hold (see {@link CommitLogDispatcher}).
 *
 * <p>Threading: {@link #doReput()} runs on this service's thread (or, before the service starts, on the
 * start-up thread to catch up after recovery). Dispatchers run on that thread. {@link #getReputFromOffset()}
 * may be read from any thread.
 */
public final class ReputMessageService extends ServiceThread {

    private static final Logger log = LoggerFactory.getLogger(ReputMessageService.class);
    static final long FIRST_RETRY_MILLIS = 10;
    static final long MAX_RETRY_MILLIS = 1000;

    private final CommitLog commitLog;
    private final List<CommitLogDispatcher> dispatchers = new CopyOnWriteArrayList<>();
    private final List<CommitLogDispatcher> confirmedDispatchers = new CopyOnWriteArrayList<>();
    /** Requests of the batch being dispatched, held back from the confirmed dispatchers; dispatch thread only. */
    private final List<DispatchRequest> openBatch = new ArrayList<>();
    private final long pollMillis;
    private final LongAdder dispatched = new LongAdder();
    private volatile long reputFromOffset;
    private volatile long confirmedOffset;
    /** Whether the dispatch position is inside a batch; dispatch thread only. */
    private boolean insideBatch;
    private long lastReportedInvalid = -1;
    private final StoreHealth health;
    /** Failed attempts in a row; dispatch thread only. */
    private volatile int failures;
    /** When the next attempt after a failure is due ({@link System#nanoTime()}); dispatch thread only. */
    private long retryAtNanos;
    /** The highest commit-log offset that may be dispatched (replication's confirm offset); null = no limit. */
    private volatile LongSupplier dispatchLimit;
    /** Damaged ranges recovery or readers found: never dispatched, jumped over. */
    private volatile QuarantinedRanges quarantined = new QuarantinedRanges();
    /** Threads waiting for the confirmed offset to reach a point; released as dispatch moves it. */
    private final DispatchWaiters waiters = new DispatchWaiters();

    public ReputMessageService(CommitLog commitLog, long pollMillis) {
        this(commitLog, pollMillis, new StoreHealth());
    }

    /** @param health told when dispatch gets stuck and when it resumes */
    public ReputMessageService(CommitLog commitLog, long pollMillis, StoreHealth health) {
        this.commitLog = commitLog;
        this.pollMillis = pollMillis;
        this.health = health;
    }

    @Override
    public String getServiceName() {
        return "wharf-reput";
    }

    /** Adds a dispatcher at the end of the list (before the service starts). */
    public void addDispatcher(CommitLogDispatcher dispatcher) {
        dispatchers.add(dispatcher);
    }

    /**
     * Adds a dispatcher that sees a record only once it is confirmed (its batch is complete), at the end of
     * the list (before the service starts).
     */
    public void addConfirmedDispatcher(CommitLogDispatcher dispatcher) {
        confirmedDispatchers.add(dispatcher);
    }

    /** The damaged commit-log ranges to jump over (set before the first dispatch). */
    public void setQuarantinedRanges(QuarantinedRanges ranges) {
        this.quarantined = ranges;
    }

    public List<CommitLogDispatcher> dispatchers() {
        return List.copyOf(dispatchers);
    }

    /**
     * Everything below this offset has been dispatched and belongs to complete batches: derived data pointing
     * below it may be served. Never inside a batch.
     */
    public long getConfirmedOffset() {
        return confirmedOffset;
    }

    /**
     * Waits until the confirmed offset reaches {@code offset}, released by the dispatch thread when it gets there
     * (no polling).
     *
     * @return false when that took longer than {@code timeoutMillis} (or the thread was interrupted, whose flag
     *         is kept)
     */
    public boolean awaitConfirmed(long offset, long timeoutMillis) {
        CompletableFuture<Void> reached = waiters.whenReached(offset, this::getConfirmedOffset);
        if (reached.isDone()) {
            return true;
        }
        wakeup();
        try {
            reached.get(timeoutMillis, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            waiters.cancel(reached);
            return false;
        } catch (InterruptedException e) {
            waiters.cancel(reached);
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException("a dispatch waiter is never completed exceptionally", e);
        }
    }

    /** Threads waiting in {@link #awaitConfirmed} now (tests, diagnostics). */
    public int waitingForDispatch() {
        return waiters.size();
    }

    /** Everything below this offset has been dispatched. */
    public long getReputFromOffset() {
        return reputFromOffset;
    }

    /** Where dispatching starts (a record boundary outside any batch: a file start or the clean end). */
    public void setReputFromOffset(long offset) {
        this.confirmedOffset = offset;
        this.reputFromOffset = offset;
        this.insideBatch = false;
        this.openBatch.clear();
        waiters.release(offset);
    }

    /**
     * Dispatches only records that end at or below {@code limit}'s value (a replicated master's confirm
     * offset: readers must not see what a failover could lose); null dispatches everything written. The limit
     * must only grow and must fall on record boundaries; call {@link #wakeup()} when it moves.
     */
    public void setDispatchLimit(LongSupplier limit) {
        this.dispatchLimit = limit;
    }

    /** The end of what may be dispatched now: the commit log's end, or the dispatch limit when lower. */
    public long dispatchEnd() {
        long max = commitLog.getMaxOffset();
        LongSupplier limit = dispatchLimit;
        return limit == null ? max : Math.min(max, limit.getAsLong());
    }

    /** Commit-log bytes not dispatched yet. */
    public long behindBytes() {
        return Math.max(0, commitLog.getMaxOffset() - reputFromOffset);
    }

    /** Records dispatched since start. */
    public long dispatchedCount() {
        return dispatched.sum();
    }

    @Override
    public void run() {
        while (!isStopped()) {
            if (failures == 0) {
                waitForRunning(pollMillis);
            } else {
                long wait = TimeUnit.NANOSECONDS.toMillis(retryAtNanos - System.nanoTime());
                if (wait > 0) {
                    // wakeups from readers waiting for dispatch must not turn the back-off into a busy loop
                    waitForRunning(wait);
                    continue;
                }
            }
            dispatchOnce();
        }
        // dispatch what the last puts wrote before the store flushes and writes its checkpoint
        dispatchOnce();
    }

    /**
     * {@link #doReput()}, turning any failure into a stuck state with a retry time instead of an exception.
     *
     * @return true when everything written was dispatched
     */
    public boolean dispatchOnce() {
        try {
            doReput();
            if (failures > 0) {
                log.info("Dispatch got past commit-log offset {} after {} failed attempt(s)", reputFromOffset,
                        failures);
                failures = 0;
                health.dispatchResumed();
            }
            return true;
        } catch (Throwable t) {
            failures++;
            long delay = Math.min(MAX_RETRY_MILLIS, FIRST_RETRY_MILLIS << Math.min(failures - 1, 20));
            retryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
            health.dispatchStuck("dispatch is stuck at commit-log offset " + reputFromOffset + " on "
                    + StoreHealth.describe(t) + "; the broker refuses new messages until it gets past (retrying"
                    + " every " + MAX_RETRY_MILLIS + " ms at most)", t);
            log.debug("Dispatch attempt {} failed at commit-log offset {}", failures, reputFromOffset, t);
            return false;
        }
    }

    /** Whether the last attempt failed (the dispatcher is waiting to retry a record). */
    public boolean isStuck() {
        return failures > 0;
    }

    /** Dispatches everything written so far, releasing the threads waiting for what it dispatched. */
    public void doReput() {
        try {
            reputAll();
        } finally {
            waiters.release(confirmedOffset);
        }
    }

    private void reputAll() {
        long minOffset = commitLog.getMinOffset();
        if (reputFromOffset < minOffset) {
            log.warn("Dispatch offset {} is below the first commit-log offset {}; skipping to it", reputFromOffset,
                    minOffset);
            setReputFromOffset(minOffset);
        }
        long end;
        while (reputFromOffset < (end = dispatchEnd())) {
            long offset = reputFromOffset;
            SelectMappedBufferResult data = commitLog.getData(offset);
            if (data == null) {
                if (offset % commitLog.fileSize() == 0 || offset >= commitLog.getMaxOffset()) {
                    return;
                }
                // a full file's last bytes: continue in the next file
                rollTo(commitLog.rollNextFile(offset));
                continue;
            }
            try {
                if (end - offset < data.size()) {
                    data.shrinkTo((int) (end - offset));
                }
                if (!dispatchSlice(data, offset)) {
                    return;
                }
            } finally {
                data.release();
            }
            waiters.release(confirmedOffset); // a long catch-up releases its waiters slice by slice
        }
    }

    /**
     * Moves the confirmed offset after a dispatched record: at once for a record outside a batch, at the closing
     * record for a batch, then hands the held-back requests to the confirmed dispatchers.
     */
    private void confirm(DispatchRequest request, boolean continues, long end) {
        if (continues) {
            insideBatch = true;
            if (request != null && !confirmedDispatchers.isEmpty()) {
                openBatch.add(request);
            }
            return;
        }
        insideBatch = false;
        confirmedOffset = end;
        if (confirmedDispatchers.isEmpty()) {
            return;
        }
        if (!openBatch.isEmpty()) {
            for (DispatchRequest held : openBatch) {
                notifyConfirmed(held);
            }
            openBatch.clear();
        }
        if (request != null) {
            notifyConfirmed(request);
        }
    }

    private void notifyConfirmed(DispatchRequest request) {
        for (CommitLogDispatcher dispatcher : confirmedDispatchers) {
            try {
                dispatcher.dispatch(request);
            } catch (RuntimeException e) {
                // a notification (long polling) is not data: the record is in place, readers find it by polling
                log.warn("A confirmed dispatcher failed at commit-log offset {}: {}", request.commitLogOffset(),
                        e.toString());
            }
        }
    }

    /** Continues in the next file; a batch never spans files, so one still open here can never close. */
    private void rollTo(long nextFileStart) {
        if (insideBatch) {
            log.error("An atomic batch is not closed at the end of its commit-log file (before offset {}); making"
                    + " it visible as it is", nextFileStart);
            confirm(null, false, nextFileStart);
        }
        confirmedOffset = nextFileStart;
        reputFromOffset = nextFileStart;
    }

    /** Skips a quarantined range; a batch it cuts short is made visible with the records it has left. */
    private void jumpOver(long from, long to) {
        log.warn("Commit-log range [{}, {}) is quarantined as damaged; not dispatched", from, to);
        if (insideBatch) {
            confirm(null, false, to);
        }
        confirmedOffset = to;
        reputFromOffset = to;
    }

    /** Dispatches the records of one slice; false when it must stop (invalid record). */
    private boolean dispatchSlice(SelectMappedBufferResult data, long offset) {
        ByteBuffer buffer = data.byteBuffer();
        int limit = data.size();
        int pos = 0;
        QuarantinedRanges skip = quarantined;
        while (pos < limit) {
            long recordOffset = offset + pos;
            if (!skip.isEmpty()) {
                long skipTo = skip.endOfRangeAt(recordOffset);
                if (skipTo > recordOffset) {
                    jumpOver(recordOffset, skipTo);
                    return true;
                }
            }
            int size = RecordValidator.check(buffer, pos, limit, recordOffset, false);
            if (size > 0) {
                DispatchRequest request = DispatchRequestDecoder.decode(buffer, pos, recordOffset);
                if (request != null) {
                    for (CommitLogDispatcher dispatcher : dispatchers) {
                        dispatcher.dispatch(request);
                    }
                }
                pos += size;
                dispatched.increment();
                boolean continues = MessageSysFlag.batchContinues(
                        buffer.getInt(pos - size + MessageRecord.SYS_FLAG_OFFSET));
                // confirmed first: whoever sees the reput offset at the end also sees everything readable
                confirm(request, continues, recordOffset + size);
                reputFromOffset = recordOffset + size;
            } else if (size == RecordValidator.BLANK) {
                rollTo(commitLog.rollNextFile(recordOffset));
                return true;
            } else {
                if (lastReportedInvalid != recordOffset) {
                    lastReportedInvalid = recordOffset;
                    log.error("Commit-log record at offset {} is not intact; dispatch stops there", recordOffset);
                }
                return false;
            }
        }
        return true;
    }
}

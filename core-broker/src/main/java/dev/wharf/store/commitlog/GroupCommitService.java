package dev.wharf.store.commitlog;

import dev.wharf.common.util.ReadBatch;
import dev.wharf.common.util.ServiceThread;
import dev.wharf.store.file.MappedFileQueue;
import dev.wharf.store.health.StoreHealth;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SYNC_FLUSH with group commit: a put waits until its bytes are forced, and one force covers every put
 * appended before it started.
 *
 * <p>Blocking puts ({@link #waitForFlush(long)}) use a leader/follower scheme: the first waiter finding no
 * force in progress becomes the leader and forces everything appended so far on its own thread; puts that
 * arrive meanwhile wait, and when the force ends one of them leads the next force for all of them. No thread
 * hand-off happens on the way to the disk, and the force rate is bounded by the disk, not by the number of
 * writers. Asynchronous puts ({@link #submit(long)}) are queued to this service's thread, which takes part in
 * the same scheme and completes their futures.
 *
 * <p>Timeouts: a blocking wait times out on the waiting thread; an asynchronous one is completed with false
 * by this thread once its deadline has passed (neither needs a timer task per put).
 *
 * <p>Thread-safe. Forces are serialized: at most one thread forces the commit log at a time.
 */
public final class GroupCommitService extends ServiceThread {

    private static final Logger log = LoggerFactory.getLogger(GroupCommitService.class);
    /** Most yields a leader makes while appends keep landing before it forces. */
    private static final int MAX_GATHER_YIELDS = 8;

    private final MappedFileQueue commitLog;
    private final long timeoutNanos;
    private final LongAdder forces;
    /** Told how long each force took (metrics). */
    private volatile LongConsumer forceNanos = nanos -> { };
    private final BooleanSupplier forceOnce;
    private final ReentrantLock forceLock = new ReentrantLock();
    private final Condition forceDone = forceLock.newCondition();
    /** Whether a thread is forcing right now; guarded by {@link #forceLock}. */
    private boolean forcing;

    // Gathering (see gatherWriters): how long a leader may wait for the writers the last force released.
    private volatile long gatherNanos;
    /** Signalled by a put that asks for a force while a leader gathers. */
    private final Condition arrivals = forceLock.newCondition();
    private volatile boolean gathering;
    /** Puts that asked to be forced, ever (blocking and asynchronous). */
    private final AtomicLong asked = new AtomicLong();
    // Written by the leader only (one at a time, handed over under forceLock); volatile because an I/O thread
    // reads them to decide whether it may force inline (see gatherPending), once per read, not per put.
    /** {@link #asked} when the last force started: later asks are not known to be covered by it. */
    private volatile long askedAtLastForce;
    /** Puts from the start of the force before the last to the end of the last: the writers in flight. */
    private volatile long writersInFlight;
    private volatile long lastForceEnd;
    /** How long the last force that moved the flush point took. */
    private volatile long lastForceNanos;
    private volatile long inlineForceLimitNanos;

    /** The end of the records to be forced soon, not waited for (see {@link #forceSoon}); grows only. */
    private final AtomicLong forceSoonTarget = new AtomicLong();
    private final Object queueLock = new Object();
    private List<Request> writeRequests = new ArrayList<>();
    private List<Request> readRequests = new ArrayList<>();

    private static final class Request {
        final long nextOffset;
        final long deadline;
        final CompletableFuture<Boolean> future = new CompletableFuture<>();

        Request(long nextOffset, long deadline) {
            this.nextOffset = nextOffset;
            this.deadline = deadline;
        }
    }

    /**
     * @param timeoutMillis how long a put waits for its force before it reports a timeout
     * @param forces        incremented once per force that moved the flush point
     */
    public GroupCommitService(MappedFileQueue commitLog, long timeoutMillis, LongAdder forces) {
        this(commitLog, timeoutMillis, forces, () -> commitLog.flush(0));
    }

    /**
     * @param forceOnce forces the next dirty file and says whether the flush point moved (the disk edge;
     *                  tests stand in a slow disk here)
     */
    GroupCommitService(MappedFileQueue commitLog, long timeoutMillis, LongAdder forces, BooleanSupplier forceOnce) {
        this.commitLog = commitLog;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        this.forces = forces;
        this.forceOnce = forceOnce;
    }

    private volatile StoreHealth health;

    @Override
    public String getServiceName() {
        return "wharf-group-commit";
    }

    /** Where a fault this thread cannot survive (an {@link Error}) is reported: the store then refuses writes. */
    public void setHealth(StoreHealth health) {
        this.health = health;
    }

    /**
     * Blocks until everything below {@code nextOffset} is on disk or the timeout passes, forcing on this
     * thread when no other thread is forcing.
     *
     * @return true when forced in time
     */
    public boolean waitForFlush(long nextOffset) {
        if (commitLog.getFlushedWhere() < nextOffset) {
            arrived();
        }
        return awaitFlushed(nextOffset, System.nanoTime() + timeoutNanos, true);
    }

    /**
     * How long a leader may wait, counted from the end of the last force, for the writers that force released
     * to come back with their next puts before it forces again (0: never wait). See {@link #gatherWriters()}.
     */
    public void setGatherMicros(long micros) {
        this.gatherNanos = TimeUnit.MICROSECONDS.toNanos(Math.max(0, micros));
    }

    /** Counts a put that waits for a force, and wakes a gathering leader to count it. */
    private void arrived() {
        asked.incrementAndGet();
        wakeGatherer();
    }

    private void wakeGatherer() {
        if (gathering) {
            forceLock.lock();
            try {
                arrivals.signal();
            } finally {
                forceLock.unlock();
            }
        }
    }

    private boolean awaitFlushed(long nextOffset, long deadline, boolean forPuts) {
        while (commitLog.getFlushedWhere() < nextOffset) {
            forceLock.lock();
            try {
                while (forcing && commitLog.getFlushedWhere() < nextOffset) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    forceDone.awaitNanos(left);
                }
                if (commitLog.getFlushedWhere() >= nextOffset) {
                    return true;
                }
                forcing = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                forceLock.unlock();
            }
            boolean moved = lead(forPuts);
            if (!moved && commitLog.getFlushedWhere() < nextOffset) {
                return false; // the force failed (logged): do not spin on a broken disk
            }
        }
        return true;
    }

    /**
     * Forces as the leader (the caller has set {@link #forcing}) and hands the lead back.
     *
     * @param gather whether to wait for the writers the last force released (see {@link #gatherWriters()})
     * @return whether the flush point moved
     */
    private boolean lead(boolean gather) {
        boolean moved = false;
        try {
            letAppendsLand();
            if (gather) {
                gatherWriters();
            }
            long startAsked = asked.get();
            moved = forceEverythingWritten();
            writersInFlight = asked.get() - askedAtLastForce;
            askedAtLastForce = startAsked;
            lastForceEnd = System.nanoTime();
        } finally {
            forceLock.lock();
            try {
                forcing = false;
                forceDone.signalAll();
            } finally {
                forceLock.unlock();
            }
        }
        return moved;
    }

    /**
     * Forces on the caller's thread if no other thread is forcing and the disk's last force was quick, and never
     * waits for another force: for a caller that must not block for long (a connection's I/O thread).
     *
     * @return true when everything below {@code nextOffset} is on disk on return; false when another thread is
     *         forcing, the disk has been slow, or the force failed (the caller then asks the service)
     */
    boolean forceIfFree(long nextOffset) {
        if (commitLog.getFlushedWhere() >= nextOffset) {
            return true;
        }
        if (!inlineForceAllowed() || gatherPending(0)) {
            return false;
        }
        forceLock.lock();
        try {
            if (forcing) {
                return false;
            }
            forcing = true;
        } finally {
            forceLock.unlock();
        }
        lead(false);
        return commitLog.getFlushedWhere() >= nextOffset;
    }

    private boolean inlineForceAllowed() {
        long limit = inlineForceLimitNanos;
        return limit > 0 && lastForceNanos <= limit;
    }

    /**
     * Whether a leader would now wait for more writers (see {@link #gatherWriters()}). An I/O thread cannot wait for
     * them, since it is the thread that reads their puts: forcing inline then would carry only the puts of its own
     * turn and leave the rest to the next force, so it leaves this force to a leader that gathers. Four blocking
     * producers under SYNC_FLUSH went from 1.7 to 3.4 puts per force that way; a lone writer still forces inline.
     *
     * @param uncounted puts of the caller not yet counted in {@link #asked}
     */
    private boolean gatherPending(int uncounted) {
        long wanted = writersInFlight;
        return gatherNanos > 0 && wanted > 1 && asked.get() + uncounted - askedAtLastForce < wanted
                && System.nanoTime() - (lastForceEnd + gatherNanos) < 0;
    }

    /**
     * The longest the last force may have taken for the puts an I/O thread read together to be forced on that
     * thread at the end of the read (0: never; the group-commit thread forces them).
     */
    public void setInlineForceLimitMicros(long micros) {
        this.inlineForceLimitNanos = TimeUnit.MICROSECONDS.toNanos(Math.max(0, micros));
    }

    /** An {@link Error} fails the store (it refuses writes from then on); anything else is logged. */
    void failed(Throwable t, String what) {
        StoreHealth h = health;
        if (t instanceof Error && h != null) {
            h.fail(getServiceName(), t);
        } else {
            log.error(what, t);
        }
    }

    private final ThreadLocal<TurnForce> turnForces = ThreadLocal.withInitial(() -> new TurnForce(this));

    /**
     * The writers the last force released are usually microseconds away from their next append. Yield while
     * appends keep arriving (a few times at most) so they join this force instead of waiting for the next
     * one; a lone writer yields once, which costs about a microsecond.
     */
    private void letAppendsLand() {
        long seen = commitLog.getMaxWrotePosition();
        for (int i = 0; i < MAX_GATHER_YIELDS; i++) {
            Thread.yield();
            long now = commitLog.getMaxWrotePosition();
            if (now == seen) {
                return;
            }
            seen = now;
        }
    }

    /**
     * Blocking writers (a JMS producer waits for each send's answer) come back from a force in cohorts: those the
     * force released are a network round trip away from their next put, while the ones that arrived during the
     * force are already waiting, and forcing for them at once leaves the others to the force after. With several
     * writers in flight (counted over the last force: the puts it carried and the puts that arrived while it ran),
     * the leader waits until as many have asked again, at most {@link #setGatherMicros gather} after the last
     * force ended, so one force carries them all. A single writer, or a leader coming after a pause, never waits.
     * What this costs is latency (at most the gather time per force), never a guarantee: no put is answered before
     * its force.
     */
    private void gatherWriters() {
        long window = gatherNanos;
        long wanted = writersInFlight;
        if (window <= 0 || wanted <= 1) {
            return;
        }
        long until = lastForceEnd + window;
        if (System.nanoTime() - until >= 0 || asked.get() - askedAtLastForce >= wanted) {
            return;
        }
        forceLock.lock();
        try {
            gathering = true;
            while (asked.get() - askedAtLastForce < wanted) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                arrivals.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            gathering = false;
            forceLock.unlock();
        }
    }

    /** Tells {@code listener} how long each force that moved the flush point took, in nanoseconds. */
    public void setForceListener(LongConsumer listener) {
        this.forceNanos = listener == null ? nanos -> { } : listener;
    }

    /** Forces every file up to what is written now; true when the flush point moved. */
    private boolean forceEverythingWritten() {
        boolean moved = false;
        try {
            long started = System.nanoTime();
            while (forceOnce.getAsBoolean()) {
                long now = System.nanoTime();
                lastForceNanos = now - started;
                forceNanos.accept(now - started);
                started = now;
                forces.increment();
                moved = true;
            }
        } catch (RuntimeException e) {
            log.error("Group commit force failed", e);
        }
        return moved;
    }

    /**
     * Waits (asynchronously) until everything below {@code nextOffset} is on disk. Asked on an I/O thread during a
     * {@link ReadBatch}, the force is left to the end of the thread's turn (see {@link TurnForce}); otherwise this
     * service's thread forces.
     *
     * @return completes with true when forced, false when the timeout passed first
     */
    public CompletableFuture<Boolean> submit(long nextOffset) {
        if (commitLog.getFlushedWhere() >= nextOffset) {
            return CompletableFuture.completedFuture(Boolean.TRUE);
        }
        ReadBatch read = ReadBatch.current();
        if (read != null && inlineForceAllowed() && !gatherPending(1)) {
            // a put read by an I/O thread: one force at the end of the read, on that thread, for all it read
            arrived(); // a leader gathering for the service may be waiting for this very put
            return turnForces.get().add(nextOffset, read);
        }
        return submitToService(nextOffset);
    }

    /** {@link #submit(long)} for this service's thread to force, whatever thread asks. */
    private CompletableFuture<Boolean> submitToService(long nextOffset) {
        return queue(nextOffset, true);
    }

    /**
     * Like {@link #submitToService} for puts a {@link TurnForce} already counted when they asked, so that the
     * gathering leader does not wait for writers that are not there.
     */
    CompletableFuture<Boolean> handOverToService(long nextOffset) {
        return queue(nextOffset, false);
    }

    private CompletableFuture<Boolean> queue(long nextOffset, boolean count) {
        if (commitLog.getFlushedWhere() >= nextOffset) {
            return CompletableFuture.completedFuture(Boolean.TRUE);
        }
        Request request = new Request(nextOffset, System.nanoTime() + timeoutNanos);
        synchronized (queueLock) {
            writeRequests.add(request);
        }
        if (count) {
            arrived();
        } else {
            wakeGatherer();
        }
        wakeup();
        return request.future;
    }

    /**
     * Asks for everything below {@code nextOffset} to be forced within one round of this service (at most its
     * 10 ms wait), without waking it and without anyone waiting: the records ride on the next force any put asks
     * for, or on one force for all of them at the end of the round. For records whose loss in a power failure
     * costs a redelivery, never a message (acknowledgements).
     */
    public void forceSoon(long nextOffset) {
        if (forceSoonTarget.get() < nextOffset) {
            forceSoonTarget.accumulateAndGet(nextOffset, Math::max);
        }
    }

    private void forceAskedSoonSafely() {
        try {
            forceAskedSoon();
        } catch (RuntimeException e) {
            log.error("Forcing records asked to be forced soon failed; will retry next round", e);
        }
    }

    /** Forces what {@link #forceSoon} asked for when no put's force covered it this round. */
    private void forceAskedSoon() {
        long target = forceSoonTarget.get();
        if (commitLog.getFlushedWhere() < target) {
            awaitFlushed(target, System.nanoTime() + timeoutNanos, false);
        }
    }

    @Override
    protected void onWaitEnd() {
        synchronized (queueLock) {
            List<Request> swap = writeRequests;
            writeRequests = readRequests;
            readRequests = swap;
        }
    }

    @Override
    public void run() {
        while (!isStopped()) {
            waitForRunning(10);
            commitQueuedSafely();
            forceAskedSoonSafely();
        }
        forceAskedSoonSafely();
        // complete whatever arrived during the last round
        for (int i = 0; i < 2; i++) {
            onWaitEnd();
            commitQueuedSafely();
        }
    }

    /**
     * {@link #commitQueued()} that survives anything: waiters of a round that failed are answered "not confirmed"
     * (their messages are stored, the disk did not say so) rather than left to time out, and an {@link Error}
     * fails the store.
     */
    private void commitQueuedSafely() {
        try {
            commitQueued();
        } catch (Throwable t) {
            for (Request request : readRequests) {
                request.future.complete(Boolean.FALSE);
            }
            readRequests.clear();
            failed(t, "Group commit round failed; will retry");
        }
    }

    private void commitQueued() {
        if (readRequests.isEmpty()) {
            return;
        }
        long target = 0;
        long deadline = Long.MAX_VALUE;
        for (Request request : readRequests) {
            target = Math.max(target, request.nextOffset);
            deadline = Math.min(deadline, request.deadline);
        }
        awaitFlushed(target, deadline, true);
        long flushed = commitLog.getFlushedWhere();
        long now = System.nanoTime();
        List<Request> retry = null;
        for (Request request : readRequests) {
            if (request.nextOffset <= flushed) {
                request.future.complete(Boolean.TRUE);
            } else if (now - request.deadline >= 0) {
                request.future.complete(Boolean.FALSE);
            } else {
                // not on disk yet (a force failed): try again next round until the deadline
                if (retry == null) {
                    retry = new ArrayList<>();
                }
                retry.add(request);
            }
        }
        readRequests.clear();
        if (retry != null) {
            synchronized (queueLock) {
                writeRequests.addAll(retry);
            }
        }
    }
}

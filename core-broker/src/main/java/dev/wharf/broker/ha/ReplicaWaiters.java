package dev.wharf.broker.ha;

import dev.wharf.common.util.ServiceThread;
import dev.wharf.store.PutMessageResult;
import dev.wharf.store.PutMessageStatus;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * SYNC_MASTER's waiting room, grouped like group commit: every put that waits for its slaves leaves a request
 * (its end offset and deadline) here, and each ack that moves the replicated offset completes, on the acking
 * thread, every request at or below it: one ack answers all the puts it covers, with no thread hand-off. No
 * thread per put and no polling: this service's own thread only sleeps until the earliest deadline and answers
 * the requests whose deadline passed with {@link PutMessageStatus#FLUSH_SLAVE_TIMEOUT}, never success. Puts do
 * not wake it: every put waits the same timeout, so a sleep begun before a put came never outlasts its deadline.
 *
 * <p>Thread-safe: {@link #await} from putting threads, {@link #advanced()} from ack threads; the request list is
 * guarded by one short lock and futures are completed outside it.
 */
final class ReplicaWaiters extends ServiceThread {

    private static final PutMessageResult REPLICATED = PutMessageResult.failure(PutMessageStatus.PUT_OK, null);
    private static final CompletableFuture<PutMessageResult> DONE = CompletableFuture.completedFuture(REPLICATED);

    private final LongSupplier replicatedOffset;
    private final long timeoutNanos;
    private final long timeoutMillis;
    private final Object lock = new Object();
    /** Waiting requests in arrival order, which is deadline order; guarded by {@link #lock}. */
    private final List<Request> pending = new ArrayList<>();
    /** Why waiting stopped (set once by {@link #close}), or null while open. */
    private volatile String closedReason;

    private static final class Request {
        final long nextOffset;
        final long deadline;
        final CompletableFuture<PutMessageResult> future = new CompletableFuture<>();

        Request(long nextOffset, long deadline) {
            this.nextOffset = nextOffset;
            this.deadline = deadline;
        }
    }

    /** @param replicatedOffset the offset enough slaves hold every byte below (only grows) */
    ReplicaWaiters(LongSupplier replicatedOffset, long timeoutMillis) {
        this.replicatedOffset = replicatedOffset;
        this.timeoutMillis = timeoutMillis;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    @Override
    public String getServiceName() {
        return "wharf-ha-waiters";
    }

    /**
     * Completes once enough slaves hold every byte below {@code nextOffset}, or with a timeout; at once with
     * {@link PutMessageStatus#FLUSH_SLAVE_TIMEOUT} after {@link #close}.
     */
    CompletableFuture<PutMessageResult> await(long nextOffset) {
        if (replicatedOffset.getAsLong() >= nextOffset) {
            if (AckPathTiming.ENABLED) {
                AckPathTiming.time(AckPathTiming.Stage.REPLICATION_WAIT, 0);
            }
            return DONE;
        }
        String closed = closedReason;
        if (closed != null) {
            return CompletableFuture.completedFuture(PutMessageResult.failure(PutMessageStatus.FLUSH_SLAVE_TIMEOUT,
                    closed));
        }
        Request request = new Request(nextOffset, System.nanoTime() + timeoutNanos);
        synchronized (lock) {
            pending.add(request);
        }
        if (closedReason != null) {
            expire(true); // closed while this put was being added: its thread may be gone already
        } else if (replicatedOffset.getAsLong() >= nextOffset) {
            advanced(); // an ack landed between the check and the add
        }
        // the timeout thread is not woken: each of its sleeps lasts at most the slave timeout and began before
        // this request came (give or take the instant between computing and starting it), so it wakes by this
        // deadline anyway; a wake-up whenever a put found the room empty cost a thread switch per send
        return request.future;
    }

    /** Completes every request the replicated offset now covers; called by the thread whose ack moved it. */
    void advanced() {
        long replicated = replicatedOffset.getAsLong();
        long began = AckPathTiming.ENABLED ? System.nanoTime() : 0;
        List<Request> done = null;
        synchronized (lock) {
            Iterator<Request> it = pending.iterator();
            while (it.hasNext()) {
                Request request = it.next();
                if (request.nextOffset <= replicated) {
                    if (done == null) {
                        done = new ArrayList<>();
                    }
                    done.add(request);
                    it.remove();
                }
            }
        }
        if (done != null) {
            for (Request request : done) {
                if (AckPathTiming.ENABLED) {
                    AckPathTiming.time(AckPathTiming.Stage.REPLICATION_WAIT, began - (request.deadline - timeoutNanos));
                }
                request.future.complete(REPLICATED);
            }
            if (AckPathTiming.ENABLED) {
                AckPathTiming.time(AckPathTiming.Stage.COMPLETE_WAITERS, System.nanoTime() - began);
            }
        }
    }

    /**
     * Stops waiting: every request the replicated offset does not cover yet completes now with
     * {@link PutMessageStatus#FLUSH_SLAVE_TIMEOUT} and {@code reason} (the message is stored on this broker only),
     * and so does every later {@link #await}. A master demoted or shut down must not leave its senders waiting for
     * slaves that no longer follow it.
     */
    void close(String reason) {
        closedReason = reason;
        shutdown();
        expire(true); // also when the thread never ran, or a put slipped in after it ended
    }

    /** Requests waiting now (tests, diagnostics). */
    int waiting() {
        synchronized (lock) {
            return pending.size();
        }
    }

    @Override
    public void run() {
        while (!isStopped()) {
            waitForRunning(sleepMillis());
            expire(false);
        }
        expire(true);
    }

    private long sleepMillis() {
        synchronized (lock) {
            if (pending.isEmpty()) {
                return timeoutMillis;
            }
            long left = pending.get(0).deadline - System.nanoTime();
            return Math.max(1, TimeUnit.NANOSECONDS.toMillis(left) + 1);
        }
    }

    private void expire(boolean stopping) {
        advanced();
        long now = System.nanoTime();
        List<Request> expired = new ArrayList<>();
        synchronized (lock) {
            Iterator<Request> it = pending.iterator();
            while (it.hasNext()) {
                Request request = it.next();
                if (!stopping && now - request.deadline < 0) {
                    break; // arrival order is deadline order: the rest are younger
                }
                expired.add(request);
                it.remove();
            }
        }
        for (Request request : expired) {
            request.future.complete(PutMessageResult.failure(PutMessageStatus.FLUSH_SLAVE_TIMEOUT,
                    stopping ? closedReasonOrDefault()
                            : "The message is stored on the master but the slaves did not confirm it within"
                            + " slaveTimeout (" + timeoutMillis + " ms); check the slaves' connections and lag."));
        }
    }

    private String closedReasonOrDefault() {
        String reason = closedReason;
        return reason != null ? reason : "The broker is shutting down before the slaves confirmed the message; it is"
                + " stored on the master only.";
    }
}

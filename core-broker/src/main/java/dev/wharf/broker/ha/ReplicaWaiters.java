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
 * (its end offset and deadline) here, and one thread completes every request at or below the replicated
 * offset whenever an ack moves it, so one ack answers all the puts it covers. No thread per put and no
 * polling: the thread sleeps until an ack, a new request or the earliest deadline. A request whose deadline
 * passes is answered {@link PutMessageStatus#FLUSH_SLAVE_TIMEOUT}, never success.
 *
 * <p>Thread-safe: {@link #await} from any thread; requests are handed over through a swapped list.
 */
final class ReplicaWaiters extends ServiceThread {

    private static final CompletableFuture<PutMessageResult> DONE =
            CompletableFuture.completedFuture(PutMessageResult.failure(PutMessageStatus.PUT_OK, null));

    private final LongSupplier replicatedOffset;
    private final long timeoutNanos;
    private final long timeoutMillis;
    private final Object lock = new Object();
    private List<Request> incoming = new ArrayList<>();
    private List<Request> spare = new ArrayList<>();
    /** Waiting requests in arrival order (= deadline order); this service's thread only. */
    private final List<Request> pending = new ArrayList<>();

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

    /** Completes once enough slaves hold every byte below {@code nextOffset}, or with a timeout. */
    CompletableFuture<PutMessageResult> await(long nextOffset) {
        if (replicatedOffset.getAsLong() >= nextOffset) {
            return DONE;
        }
        Request request = new Request(nextOffset, System.nanoTime() + timeoutNanos);
        synchronized (lock) {
            incoming.add(request);
        }
        wakeup();
        return request.future;
    }

    /** Requests waiting now (tests, diagnostics). */
    int waiting() {
        synchronized (lock) {
            return incoming.size() + pending.size();
        }
    }

    @Override
    public void run() {
        while (!isStopped()) {
            waitForRunning(sleepMillis());
            round(false);
        }
        round(true);
    }

    private long sleepMillis() {
        if (pending.isEmpty()) {
            return timeoutMillis;
        }
        long left = pending.get(0).deadline - System.nanoTime();
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(left) + 1);
    }

    private void round(boolean stopping) {
        List<Request> arrived;
        synchronized (lock) {
            arrived = incoming;
            incoming = spare;
            spare = arrived;
        }
        pending.addAll(arrived);
        arrived.clear();
        if (pending.isEmpty()) {
            return;
        }
        long replicated = replicatedOffset.getAsLong();
        long now = System.nanoTime();
        Iterator<Request> it = pending.iterator();
        while (it.hasNext()) {
            Request request = it.next();
            if (request.nextOffset <= replicated) {
                request.future.complete(DONE.join());
                it.remove();
            } else if (stopping || now - request.deadline >= 0) {
                request.future.complete(PutMessageResult.failure(PutMessageStatus.FLUSH_SLAVE_TIMEOUT,
                        stopping ? "The broker is shutting down before the slaves confirmed the message; it is"
                                + " stored on the master only."
                                : "The message is stored on the master but the slaves did not confirm it within"
                                + " slaveTimeout (" + timeoutMillis + " ms); check the slaves' connections and lag."));
                it.remove();
            }
        }
    }
}

package dev.wharf.store.dispatch;

import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;

/**
 * Threads waiting for the confirmed dispatch offset to reach a commit-log offset (END_TRANSACTION, ack-log replay,
 * a subscription anchored at "now"), released by the dispatch thread as it moves the offset: a completion signal
 * instead of polling. Waiters are rare, so the dispatch thread pays one volatile read per round when there are
 * none; the lock is taken only while someone waits.
 *
 * <p>A waiter registers and then reads the offset again, and the dispatch thread writes the offset and then reads
 * the waiter count (both volatile): whichever comes second sees the other, so no waiter is missed. Thread-safe.
 */
public final class DispatchWaiters {

    private static final CompletableFuture<Void> REACHED = CompletableFuture.completedFuture(null);

    private record Waiter(long offset, CompletableFuture<Void> done) {
    }

    private final PriorityQueue<Waiter> waiting = new PriorityQueue<>((a, b) -> Long.compare(a.offset, b.offset));
    private volatile int count;

    /**
     * Completes when {@code confirmed} reaches {@code offset}.
     *
     * @param confirmed the confirmed offset as the dispatch thread publishes it (a volatile read)
     */
    CompletableFuture<Void> whenReached(long offset, java.util.function.LongSupplier confirmed) {
        if (confirmed.getAsLong() >= offset) {
            return REACHED;
        }
        Waiter waiter = new Waiter(offset, new CompletableFuture<>());
        synchronized (waiting) {
            waiting.add(waiter);
            count = waiting.size();
        }
        release(confirmed.getAsLong()); // the dispatch thread may have moved past before it saw this waiter
        return waiter.done;
    }

    /** Releases every waiter at or below {@code confirmed}; the dispatch thread calls it as the offset moves. */
    void release(long confirmed) {
        if (count == 0) {
            return;
        }
        synchronized (waiting) {
            Waiter head;
            while ((head = waiting.peek()) != null && head.offset <= confirmed) {
                waiting.poll();
                head.done.complete(null);
            }
            count = waiting.size();
        }
    }

    /** Forgets a waiter that gave up (timed out), so it does not stay queued until dispatch reaches it. */
    void cancel(CompletableFuture<Void> done) {
        if (done == REACHED) {
            return;
        }
        synchronized (waiting) {
            waiting.removeIf(w -> w.done == done);
            count = waiting.size();
        }
    }

    /** Waiters registered now (tests, diagnostics). */
    int size() {
        return count;
    }
}

package dev.wharf.remoting;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a synchronous caller waits for its answer. A parked caller is woken by the I/O thread that reads the answer,
 * and on a loopback or LAN round trip of a few hundred microseconds that wake-up is a large share of the call; a
 * caller that spins sees the answer the moment it is read. Spinning takes a core, so it is rationed:
 * <ul>
 *   <li>only one waiting caller spins ({@link #JVM} counts every synchronous caller of the JVM); a second waiter
 *       stops it, because then the cores have work and the spinner would take CPU from the I/O threads that answer
 *       both;</li>
 *   <li>only on machines with more than one core (on one core the spinner holds up the thread it waits for);</li>
 *   <li>only on connections whose previous answer came within the budget, so a slow peer costs no CPU.</li>
 * </ul>
 */
final class SyncWait {

    /** The synchronous callers of this JVM. */
    static final SyncWait JVM = new SyncWait(Runtime.getRuntime().availableProcessors() > 1);

    private final AtomicInteger waiting = new AtomicInteger();
    private final boolean severalCores;

    SyncWait(boolean severalCores) {
        this.severalCores = severalCores;
    }

    /** Counts a caller in; every call must be matched by one {@link #leave()}. */
    void enter() {
        waiting.incrementAndGet();
    }

    void leave() {
        waiting.decrementAndGet();
    }

    /**
     * Spins until {@code answer} is done, at most {@code budgetNanos}, while the caller is the only one waiting.
     *
     * @param previousNanos how long the connection's previous answer took; no spin if over the budget
     */
    void spin(CompletableFuture<?> answer, long budgetNanos, long previousNanos) {
        if (budgetNanos <= 0 || previousNanos > budgetNanos || !severalCores) {
            return;
        }
        long deadline = System.nanoTime() + budgetNanos;
        while (!answer.isDone() && waiting.get() == 1 && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
    }
}

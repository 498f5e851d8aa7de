package dev.wharf.jms.core;

import dev.wharf.jms.engine.Leased;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a session's background acknowledgements with at most one request in flight: an acknowledgement made while
 * the previous request is on its way waits and goes with the others that came meanwhile in the next request. With
 * a slow flow every message is acknowledged at once, alone; with a fast one the requests (each a record in the
 * broker's acknowledgement log) carry many messages, so acknowledging does not halve the broker's throughput.
 * Nothing is delayed on purpose. Thread-safe.
 */
final class AckPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(AckPipeline.class);

    private final Function<List<Leased>, CompletableFuture<Void>> sender;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private List<Leased> waiting = new ArrayList<>();
    private boolean sending;

    /** @param sender sends one request for the messages and completes when the broker answered */
    AckPipeline(Function<List<Leased>, CompletableFuture<Void>> sender) {
        this.sender = sender;
    }

    /** Acknowledges messages in the background. */
    void add(List<Leased> messages) {
        List<Leased> batch = null;
        lock.lock();
        try {
            waiting.addAll(messages);
            if (!sending) {
                sending = true;
                batch = waiting;
                waiting = new ArrayList<>();
            }
        } finally {
            lock.unlock();
        }
        if (batch != null) {
            send(batch);
        }
    }

    private void send(List<Leased> batch) {
        CompletableFuture<Void> f;
        try {
            f = sender.apply(batch);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        f.whenComplete((v, e) -> {
            if (e != null) {
                LOG.warn("Could not acknowledge {} message(s): {}; they will be delivered again", batch.size(),
                        e.getMessage());
            }
            List<Leased> next = null;
            lock.lock();
            try {
                if (waiting.isEmpty()) {
                    sending = false;
                    idle.signalAll();
                } else {
                    next = waiting;
                    waiting = new ArrayList<>();
                }
            } finally {
                lock.unlock();
            }
            if (next != null) {
                send(next);
            }
        });
    }

    /** Waits up to {@code millis} until every acknowledgement was answered. */
    void awaitIdle(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        lock.lock();
        try {
            while (sending) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !idle.await(left, TimeUnit.NANOSECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }
}

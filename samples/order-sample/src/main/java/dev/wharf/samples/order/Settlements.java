package dev.wharf.samples.order;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Wakes the run when an order may have settled, so that it checks the database then instead of polling it. The
 * listeners call {@link #changedAfterCommit()} inside the transaction that settles an order; the waiter is woken
 * once that transaction has committed. Thread-safe.
 */
@Component
public class Settlements {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long version;

    /** Signals a change once the current transaction commits (at once when there is none). */
    void changedAfterCommit() {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            signal();
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                signal();
            }
        });
    }

    private void signal() {
        lock.lock();
        try {
            version++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The number of changes so far; pass it to {@link #awaitChangeAfter}. */
    long version() {
        lock.lock();
        try {
            return version;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until a change after {@code seen} was signalled, or at most {@code maxMillis}. */
    void awaitChangeAfter(long seen, long maxMillis) throws InterruptedException {
        long remaining = TimeUnit.MILLISECONDS.toNanos(maxMillis);
        lock.lock();
        try {
            while (version == seen && remaining > 0) {
                remaining = changed.awaitNanos(remaining);
            }
        } finally {
            lock.unlock();
        }
    }
}

package dev.wharf.store.file;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A resource that may be released only when nobody uses it any more. The owner holds one reference from
 * creation; every reader takes one with {@link #hold()} and gives it back with {@link #release()}.
 * {@link #shutdown(long)} gives the owner's reference back and refuses new holders; the resource is cleaned
 * up when the count reaches zero, or forcibly once the grace period has passed (a holder that keeps a
 * reference that long has leaked it).
 *
 * <p>Thread-safe.
 */
abstract class ReferenceResource {

    private final AtomicLong refCount = new AtomicLong(1);
    private final AtomicBoolean cleanedUp = new AtomicBoolean(false);
    private volatile boolean available = true;
    private volatile long firstShutdownTimestamp;

    /** Takes a reference; false once the resource is shutting down. */
    public final boolean hold() {
        for (;;) {
            long count = refCount.get();
            if (count <= 0 || !available) {
                return false;
            }
            if (refCount.compareAndSet(count, count + 1)) {
                return true;
            }
        }
    }

    /** Gives a reference back; the last one cleans up. */
    public final void release() {
        if (refCount.decrementAndGet() <= 0 && !available) {
            doCleanup();
        }
    }

    public final boolean isAvailable() {
        return available;
    }

    /** Whether the underlying resource has been cleaned up (unmapped, closed). */
    public final boolean isCleanupOver() {
        return cleanedUp.get();
    }

    public final long referenceCount() {
        return refCount.get();
    }

    /**
     * Stops handing out references and drops the owner's one. Called again after {@code intervalForcibly}
     * millis while references remain, it cleans up regardless of them.
     */
    public final void shutdown(long intervalForcibly) {
        if (available) {
            available = false;
            firstShutdownTimestamp = System.currentTimeMillis();
            release();
        } else if (!cleanedUp.get()
                && System.currentTimeMillis() - firstShutdownTimestamp >= intervalForcibly) {
            refCount.set(Long.MIN_VALUE / 2);
            doCleanup();
        }
    }

    private void doCleanup() {
        if (cleanedUp.compareAndSet(false, true)) {
            cleanup();
        }
    }

    /** Frees the resource; called exactly once. */
    protected abstract void cleanup();
}

package dev.wharf.store.health;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Why the store refuses writes, if it does. Three conditions, each with a sentence saying what is wrong and what
 * to do: the disk is full (clears by itself when space returns), dispatch is stuck (clears when the dispatcher gets
 * past the record it could not dispatch), and failed (a service thread met a fault it cannot survive; stays until
 * a restart). Each change is logged once, so a condition that lasts writes one line, not one per refused put.
 *
 * <p>Thread-safety: every method may be called from any thread; {@link #writeRefusal()} is three volatile reads
 * and is meant for the put path.
 */
public final class StoreHealth {

    private static final Logger log = LoggerFactory.getLogger(StoreHealth.class);

    /** What keeps the store from taking writes. */
    public enum Condition {
        /** The store's file system is too full; clears when space returns. */
        DISK_FULL,
        /** The dispatcher cannot get past a record; clears when it can. */
        DISPATCH_STUCK,
        /** A service thread failed with a fault it cannot survive; stays until the store is restarted. */
        FAILED
    }

    private volatile String diskFull;
    private volatile String dispatchStuck;
    private volatile String failed;

    /** The sentence a refused put carries, or null while the store takes writes. */
    public String writeRefusal() {
        String reason = failed;
        if (reason != null) {
            return reason;
        }
        reason = dispatchStuck;
        return reason != null ? reason : diskFull;
    }

    /** The condition behind {@link #writeRefusal()}, or null while the store takes writes. */
    public Condition condition() {
        if (failed != null) {
            return Condition.FAILED;
        }
        if (dispatchStuck != null) {
            return Condition.DISPATCH_STUCK;
        }
        return diskFull != null ? Condition.DISK_FULL : null;
    }

    /** Whether the store takes writes. */
    public boolean isUp() {
        return writeRefusal() == null;
    }

    public boolean isDiskFull() {
        return diskFull != null;
    }

    /** Marks the disk full with the sentence puts are refused with; logs when the state (not the figure) changes. */
    public void diskFull(String reason) {
        String before = diskFull;
        diskFull = reason;
        if (before == null) {
            log.error("Refusing new messages: {}", reason);
        }
    }

    /** The disk has room again. */
    public void diskSpaceOk() {
        if (diskFull != null) {
            diskFull = null;
            log.info("The store's disk has room again; accepting new messages");
        }
    }

    /**
     * The dispatcher could not dispatch a record and will retry; new puts are refused meanwhile, since a message
     * accepted now could not be read until dispatch moves on. Logs the first report of an episode with its cause.
     */
    public void dispatchStuck(String reason, Throwable cause) {
        String before = dispatchStuck;
        dispatchStuck = reason;
        if (before == null) {
            if (cause != null) {
                log.error("Refusing new messages: {}", reason, cause);
            } else {
                log.error("Refusing new messages: {}", reason);
            }
        }
    }

    /** The dispatcher got past the record it was stuck on. */
    public void dispatchResumed() {
        if (dispatchStuck != null) {
            dispatchStuck = null;
            log.info("Dispatch resumed; accepting new messages");
        }
    }

    public boolean isDispatchStuck() {
        return dispatchStuck != null;
    }

    /**
     * A service thread met a fault it cannot survive: the store refuses writes until it is restarted. The first
     * failure is logged as one ERROR line with its cause; later ones only at debug level.
     *
     * @param service the thread or part that failed, for the message
     */
    public void fail(String service, Throwable cause) {
        String reason = "the store failed: " + service + " met " + describe(cause)
                + "; the broker refuses new messages until it is restarted (see the log for the cause; if the disk"
                + " is full, free space first)";
        synchronized (this) {
            if (failed != null) {
                log.debug("Further fault in {} after the store failed", service, cause);
                return;
            }
            failed = reason;
        }
        log.error("Refusing new messages: {}", reason, cause);
    }

    public boolean isFailed() {
        return failed != null;
    }

    /** A one-line summary: UP, or the condition and its sentence. */
    public String summary() {
        Condition c = condition();
        return c == null ? "UP" : c + ": " + writeRefusal();
    }

    /**
     * Whether {@code t} is an I/O fault: an {@link InternalError} raised by an access to a memory-mapped file (the
     * JVM's form of SIGBUS, e.g. writing a page the full disk cannot hold) or an I/O exception anywhere in the
     * chain of causes.
     */
    public static boolean isIoFault(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof InternalError || c instanceof java.io.IOException
                    || c instanceof java.io.UncheckedIOException) {
                return true;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return false;
    }

    /** The throwable as "I/O fault (InternalError: message)" or "Type: message". */
    public static String describe(Throwable t) {
        String text = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        return isIoFault(t) ? "an I/O fault (" + text + ")" : text;
    }

    @Override
    public String toString() {
        return "StoreHealth{" + summary() + "}";
    }
}

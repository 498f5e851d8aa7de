package dev.wharf.store.queue;

/**
 * Outcome of {@link ConsumeQueue#putUnit(long, long, int, long)}: the dispatch hot path gets a code, not an
 * exception.
 */
public enum PutUnitStatus {

    /** The unit was written at its position. */
    APPENDED,
    /** The unit number was ahead of the queue's end; blank units filled the gap, then the unit was written. */
    GAP_FILLED,
    /** A unit with that number is already in the queue (re-dispatch after recovery); nothing was written. */
    DUPLICATE,
    /** No file could be created or mapped (disk full, permissions; already logged); nothing was written. */
    FAILED;

    /** Whether the unit is in the queue after the call. */
    public boolean isStored() {
        return this != FAILED;
    }
}

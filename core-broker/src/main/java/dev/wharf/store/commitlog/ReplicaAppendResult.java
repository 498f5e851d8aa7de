package dev.wharf.store.commitlog;

/**
 * Outcome of appending replicated bytes: on success the log's new end, otherwise a sentence naming what was
 * wrong (nothing was written then). Immutable.
 */
public record ReplicaAppendResult(boolean ok, long nextOffset, String error) {

    public static ReplicaAppendResult appended(long nextOffset) {
        return new ReplicaAppendResult(true, nextOffset, null);
    }

    public static ReplicaAppendResult refused(long nextOffset, String error) {
        return new ReplicaAppendResult(false, nextOffset, error);
    }
}

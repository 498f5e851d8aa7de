package dev.wharf.store.dispatch;

/**
 * Receives every committed message in commit-log order, on the dispatch thread. Implementations build derived
 * data (consume-queue units, index entries, ...) and must be quick.
 *
 * <p>After an unclean stop the dispatcher replays from the last checkpointed point, so a dispatcher sees
 * again requests it may already have applied: it must skip what it already holds (a consume queue ignores a
 * unit below its current end; the index ignores offsets below its last indexed offset).
 */
@FunctionalInterface
public interface CommitLogDispatcher {

    void dispatch(DispatchRequest request);
}

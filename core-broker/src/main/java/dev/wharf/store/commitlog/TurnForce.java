package dev.wharf.store.commitlog;

import dev.wharf.common.util.ReadBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The SYNC_FLUSH puts one I/O thread read in a turn of its event loop, waiting for one force when the turn's reads
 * are done ({@link ReadBatch}): on that thread when nobody else is forcing and the disk has been quick, else by the
 * group-commit thread. One per thread and {@link GroupCommitService}; confined to its thread.
 */
final class TurnForce implements Runnable {

    private final GroupCommitService service;
    private final List<CompletableFuture<Boolean>> waiting = new ArrayList<>(4);
    private long target;

    TurnForce(GroupCommitService service) {
        this.service = service;
    }

    /** A put ending at {@code nextOffset} waits for the force at the end of {@code read}. */
    CompletableFuture<Boolean> add(long nextOffset, ReadBatch read) {
        if (waiting.isEmpty()) {
            read.defer(this);
        }
        target = Math.max(target, nextOffset);
        CompletableFuture<Boolean> future = new CompletableFuture<>();
        waiting.add(future);
        return future;
    }

    @Override
    public void run() {
        long end = target;
        boolean forced;
        try {
            forced = service.forceIfFree(end);
        } catch (Throwable t) {
            // as in the service's own rounds: "not confirmed" rather than a timeout, and an Error fails the store
            answer(Boolean.FALSE);
            service.failed(t, "Forcing the puts of a read failed");
            return;
        }
        if (forced) {
            answer(Boolean.TRUE);
            return;
        }
        // another thread is forcing, the disk has been slow, or more writers are due: the group-commit thread
        // takes them all (they were counted when they asked)
        List<CompletableFuture<Boolean>> handedOver = new ArrayList<>(waiting);
        waiting.clear();
        service.handOverToService(end).whenComplete((onDisk, failure) -> {
            Boolean result = failure == null ? onDisk : Boolean.FALSE;
            for (CompletableFuture<Boolean> future : handedOver) {
                future.complete(result);
            }
        });
    }

    private void answer(Boolean onDisk) {
        for (int i = 0; i < waiting.size(); i++) {
            waiting.get(i).complete(onDisk);
        }
        waiting.clear();
    }
}

package dev.wharf.store.commitlog;

import dev.wharf.common.util.ServiceThread;
import dev.wharf.store.file.MappedFileQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SYNC_FLUSH with group commit: puts register the offset they need on disk and wait; this thread collects
 * every waiting request, forces the commit log once for the whole group and completes them all. While one
 * force runs, new requests pile up and share the next one, so the force rate stays bounded by the disk
 * rather than by the number of writers.
 *
 * <p>Thread-safe: {@link #submit(long)} from any thread; the group is processed on this service's thread.
 */
public final class GroupCommitService extends ServiceThread {

    private static final Logger log = LoggerFactory.getLogger(GroupCommitService.class);

    private final MappedFileQueue commitLog;
    private final long timeoutMillis;
    private final LongAdder forces;
    private final Object lock = new Object();
    private List<CompletableFuture<Boolean>> writeFutures = new ArrayList<>();
    private List<Long> writeOffsets = new ArrayList<>();
    private List<CompletableFuture<Boolean>> readFutures = new ArrayList<>();
    private List<Long> readOffsets = new ArrayList<>();

    /**
     * @param timeoutMillis how long a put waits for its force before it reports a timeout
     * @param forces        incremented once per force that moved the flush point
     */
    public GroupCommitService(MappedFileQueue commitLog, long timeoutMillis, LongAdder forces) {
        this.commitLog = commitLog;
        this.timeoutMillis = timeoutMillis;
        this.forces = forces;
    }

    @Override
    public String getServiceName() {
        return "wharf-group-commit";
    }

    /**
     * Waits (asynchronously) until everything below {@code nextOffset} is on disk.
     *
     * @return completes with true when forced, false when the timeout passed first
     */
    public CompletableFuture<Boolean> submit(long nextOffset) {
        CompletableFuture<Boolean> future = new CompletableFuture<>();
        if (commitLog.getFlushedWhere() >= nextOffset) {
            future.complete(Boolean.TRUE);
            return future;
        }
        synchronized (lock) {
            writeFutures.add(future);
            writeOffsets.add(nextOffset);
        }
        wakeup();
        return future.completeOnTimeout(Boolean.FALSE, timeoutMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    protected void onWaitEnd() {
        synchronized (lock) {
            List<CompletableFuture<Boolean>> futures = writeFutures;
            writeFutures = readFutures;
            readFutures = futures;
            List<Long> offsets = writeOffsets;
            writeOffsets = readOffsets;
            readOffsets = offsets;
        }
    }

    @Override
    public void run() {
        while (!isStopped()) {
            waitForRunning(10);
            doCommit();
        }
        // complete whatever arrived during the last round
        onWaitEnd();
        doCommit();
        onWaitEnd();
        doCommit();
    }

    private void doCommit() {
        if (readFutures.isEmpty()) {
            return;
        }
        long target = 0;
        for (Long offset : readOffsets) {
            target = Math.max(target, offset);
        }
        try {
            // a group may span several (small) files: one force per file, until the target is reached
            while (commitLog.getFlushedWhere() < target && commitLog.flush(0)) {
                forces.increment();
            }
        } catch (RuntimeException e) {
            log.error("Group commit force failed", e);
        }
        long flushed = commitLog.getFlushedWhere();
        List<CompletableFuture<Boolean>> retry = null;
        List<Long> retryOffsets = null;
        for (int i = 0; i < readFutures.size(); i++) {
            CompletableFuture<Boolean> future = readFutures.get(i);
            if (readOffsets.get(i) <= flushed) {
                future.complete(Boolean.TRUE);
            } else if (!future.isDone()) {
                // not on disk yet (the force failed): try again next round until the put's timeout
                if (retry == null) {
                    retry = new ArrayList<>();
                    retryOffsets = new ArrayList<>();
                }
                retry.add(future);
                retryOffsets.add(readOffsets.get(i));
            }
        }
        if (retry != null) {
            synchronized (lock) {
                writeFutures.addAll(retry);
                writeOffsets.addAll(retryOffsets);
            }
        }
        readFutures.clear();
        readOffsets.clear();
    }
}

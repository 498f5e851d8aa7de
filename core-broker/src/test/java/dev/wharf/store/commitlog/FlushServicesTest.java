package dev.wharf.store.commitlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageExt;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlushServicesTest {

    @TempDir
    Path dir;

    private CommitLog commitLog;

    @AfterEach
    void tearDown() {
        if (commitLog != null) {
            commitLog.shutdown();
        }
    }

    @Test
    void groupCommitSharesForcesAmongConcurrentWriters() throws Exception {
        commitLog = new CommitLog(dir.resolve("commitlog"), 64 * 1024, 4096);
        LongAdder forces = new LongAdder();
        GroupCommitService groupCommit = new GroupCommitService(commitLog.mappedFileQueue(), 5000, forces);
        groupCommit.start();
        int writers = 8;
        int perWriter = 150;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                results.add(pool.submit(() -> {
                    int onDisk = 0;
                    for (int i = 0; i < perWriter; i++) {
                        MessageExt msg = CommitLogTest.message("Sync", 0, "x".repeat(200));
                        AppendResult r = commitLog.putMessage(msg, "");
                        if (groupCommit.submit(r.nextOffset()).get(10, TimeUnit.SECONDS)) {
                            onDisk++;
                        }
                        assertThat(commitLog.getFlushedWhere()).isGreaterThanOrEqualTo(r.nextOffset());
                    }
                    return onDisk;
                }));
            }
            int confirmed = 0;
            for (Future<Integer> f : results) {
                confirmed += f.get();
            }
            int puts = writers * perWriter;
            assertThat(confirmed).isEqualTo(puts);
            assertThat(forces.sum()).as("forces for %d puts", puts).isPositive().isLessThanOrEqualTo(puts / 2);
        } finally {
            pool.shutdownNow();
            groupCommit.shutdown();
        }
    }

    @Test
    void aPutWaitingTooLongTimesOut() throws Exception {
        commitLog = new CommitLog(dir.resolve("commitlog"), 64 * 1024, 4096);
        // the service is not running, so nobody forces: the wait must end by timeout, not hang
        GroupCommitService stalled = new GroupCommitService(commitLog.mappedFileQueue(), 100, new LongAdder());
        AppendResult r = commitLog.putMessage(CommitLogTest.message("Sync", 0, "x"), "");
        CompletableFuture<Boolean> wait = stalled.submit(r.nextOffset());
        assertThat(wait.get(5, TimeUnit.SECONDS)).isFalse();
        assertThat(commitLog.getFlushedWhere()).isZero();
    }

    @Test
    void alreadyFlushedOffsetsCompleteAtOnce() throws Exception {
        commitLog = new CommitLog(dir.resolve("commitlog"), 64 * 1024, 4096);
        GroupCommitService groupCommit = new GroupCommitService(commitLog.mappedFileQueue(), 100, new LongAdder());
        AppendResult r = commitLog.putMessage(CommitLogTest.message("Sync", 0, "x"), "");
        commitLog.mappedFileQueue().flushAll();
        assertThat(groupCommit.submit(r.nextOffset()).getNow(false)).isTrue();
    }

    @Test
    void asyncFlushForcesInTheBackgroundAndOnShutdown() {
        commitLog = new CommitLog(dir.resolve("commitlog"), 64 * 1024, 4096);
        LongAdder forces = new LongAdder();
        FlushCommitLogService flush = new FlushCommitLogService(commitLog.mappedFileQueue(), 20, 0, 10_000, forces);
        flush.start();
        try {
            AppendResult r = commitLog.putMessage(CommitLogTest.message("Async", 0, "y"), "");
            await().atMost(Duration.ofSeconds(10)).until(() -> commitLog.getFlushedWhere() >= r.nextOffset());
            assertThat(forces.sum()).isPositive();
        } finally {
            flush.shutdown();
        }
        // least pages = 4 would keep a small tail dirty; shutdown still forces it
        LongAdder lazyForces = new LongAdder();
        FlushCommitLogService lazy = new FlushCommitLogService(commitLog.mappedFileQueue(), 10_000, 4, 60_000, lazyForces);
        lazy.start();
        AppendResult tail = commitLog.putMessage(CommitLogTest.message("Async", 0, "z"), "");
        lazy.shutdown();
        assertThat(commitLog.getFlushedWhere()).isEqualTo(tail.nextOffset());
        assertThat(lazyForces.sum()).isEqualTo(1);
    }
}

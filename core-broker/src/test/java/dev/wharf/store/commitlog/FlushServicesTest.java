package dev.wharf.store.commitlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageExt;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
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
                        if (groupCommit.waitForFlush(r.nextOffset())) {
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
    void putsBehindAHungForceTimeOut() throws Exception {
        commitLog = new CommitLog(dir.resolve("commitlog"), 64 * 1024, 4096);
        CountDownLatch diskHangs = new CountDownLatch(1);
        CountDownLatch forceStarted = new CountDownLatch(1);
        // the disk edge: forces hang until released, as a stalled device would
        GroupCommitService groupCommit = new GroupCommitService(commitLog.mappedFileQueue(), 100, new LongAdder(), () -> {
            forceStarted.countDown();
            try {
                diskHangs.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return commitLog.mappedFileQueue().flush(0);
        });
        groupCommit.start();
        try {
            AppendResult first = commitLog.putMessage(CommitLogTest.message("Sync", 0, "first"), "");
            CompletableFuture<Boolean> leader = CompletableFuture.supplyAsync(() -> groupCommit.waitForFlush(first.nextOffset()));
            assertThat(forceStarted.await(10, TimeUnit.SECONDS)).as("the first waiter leads the force").isTrue();
            AppendResult second = commitLog.putMessage(CommitLogTest.message("Sync", 0, "second"), "");
            CompletableFuture<Boolean> async = groupCommit.submit(second.nextOffset());

            long start = System.nanoTime();
            assertThat(groupCommit.waitForFlush(second.nextOffset())).as("blocking wait behind the hung force").isFalse();
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
            assertThat(async.get(10, TimeUnit.SECONDS)).as("asynchronous wait expires too").isFalse();

            diskHangs.countDown();
            assertThat(leader.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(groupCommit.waitForFlush(second.nextOffset())).isTrue();
            assertThat(commitLog.getFlushedWhere()).isEqualTo(second.nextOffset());
        } finally {
            diskHangs.countDown();
            groupCommit.shutdown();
        }
    }

    @Test
    void asyncWaitsAreCompletedByTheServiceThread() throws Exception {
        commitLog = new CommitLog(dir.resolve("commitlog"), 64 * 1024, 4096);
        LongAdder forces = new LongAdder();
        GroupCommitService groupCommit = new GroupCommitService(commitLog.mappedFileQueue(), 5000, forces);
        groupCommit.start();
        try {
            List<CompletableFuture<Boolean>> waits = new ArrayList<>();
            long last = 0;
            for (int i = 0; i < 50; i++) {
                AppendResult r = commitLog.putMessage(CommitLogTest.message("Async", 0, "m" + i), "");
                waits.add(groupCommit.submit(r.nextOffset()));
                last = r.nextOffset();
            }
            for (CompletableFuture<Boolean> wait : waits) {
                assertThat(wait.get(10, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(commitLog.getFlushedWhere()).isGreaterThanOrEqualTo(last);
            assertThat(forces.sum()).isBetween(1L, 50L);
        } finally {
            groupCommit.shutdown();
        }
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

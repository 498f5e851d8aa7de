package dev.wharf.store.commitlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GroupCommitService#forceIfFree}: a put's thread forces itself only when nobody else is forcing, the disk
 * has been quick and no other writers are in flight; otherwise it is told at once and the service's thread does
 * the force. Either way nothing is reported on disk before it is.
 */
class GroupCommitInlineForceTest {

    @TempDir
    Path dir;

    private CommitLog commitLog;
    private GroupCommitService groupCommit;
    /** Thread of the last force that moved the flush point. */
    private final AtomicReference<Thread> forcedBy = new AtomicReference<>();
    /** How long the stand-in disk takes per force. */
    private final AtomicLong forceNanos = new AtomicLong();
    /** When set, the stand-in disk holds a force until it is counted down. */
    private volatile CountDownLatch holdDisk;
    private final CountDownLatch diskHeld = new CountDownLatch(1);

    @AfterEach
    void tearDown() {
        CountDownLatch hold = holdDisk;
        if (hold != null) {
            hold.countDown();
        }
        if (groupCommit != null) {
            groupCommit.shutdown();
        }
        if (commitLog != null) {
            commitLog.shutdown();
        }
    }

    private void start(long inlineLimitMicros) {
        commitLog = new CommitLog(dir.resolve("commitlog"), 1024 * 1024, 4096);
        groupCommit = new GroupCommitService(commitLog.mappedFileQueue(), 30_000, new LongAdder(), () -> {
            CountDownLatch hold = holdDisk;
            if (hold != null) {
                diskHeld.countDown();
                try {
                    hold.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            boolean moved = commitLog.mappedFileQueue().flush(0);
            if (moved) {
                forcedBy.set(Thread.currentThread());
                long nanos = forceNanos.get();
                if (nanos > 0) {
                    LockSupport.parkNanos(nanos); // the stand-in for a slow disk, not a wait for a condition
                }
            }
            return moved;
        });
        groupCommit.setInlineForceLimitMicros(inlineLimitMicros);
        groupCommit.start();
    }

    private long put() {
        return commitLog.putMessage(CommitLogTest.message("Inline", 0, "x".repeat(200)), "").nextOffset();
    }

    @Test
    @Timeout(30)
    void aLoneWriterOnAQuickDiskForcesOnItsOwnThread() {
        // a limit of a second: any force of the test's disk counts as quick (a file's first force can take ms)
        start(1_000_000);
        for (int i = 0; i < 5; i++) {
            long next = put();
            assertThat(groupCommit.forceIfFree(next)).isTrue();
            assertThat(commitLog.getFlushedWhere()).isGreaterThanOrEqualTo(next);
            assertThat(forcedBy.get()).isSameAs(Thread.currentThread());
        }
    }

    @Test
    @Timeout(30)
    void offByDefaultTheServiceForces() throws Exception {
        start(0);
        long next = put();
        assertThat(groupCommit.forceIfFree(next)).isFalse();
        assertThat(commitLog.getFlushedWhere()).isLessThan(next);
        assertThat(groupCommit.submit(next).get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(forcedBy.get()).isNotSameAs(Thread.currentThread());
    }

    @Test
    @Timeout(30)
    void aSlowDiskSendsTheNextForceToTheService() throws Exception {
        start(1_000);
        forceNanos.set(TimeUnit.MILLISECONDS.toNanos(5));
        long first = put();
        // nothing is known of the disk yet: the first force is tried inline, and it takes 5 ms
        assertThat(groupCommit.forceIfFree(first)).isTrue();
        long second = put();
        assertThat(groupCommit.forceIfFree(second)).as("after a 5 ms force, over the 1 ms limit").isFalse();
        assertThat(commitLog.getFlushedWhere()).isLessThan(second);
        assertThat(groupCommit.submit(second).get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(forcedBy.get()).isNotSameAs(Thread.currentThread());
    }

    @Test
    @Timeout(30)
    void whileAnotherThreadForcesTheCallerIsToldAtOnceAndSeveralWritersKeepTheForcesOnTheService() throws Exception {
        start(1_000);
        holdDisk = new CountDownLatch(1);
        CompletableFuture<Boolean> held = groupCommit.submit(put());
        assertThat(diskHeld.await(20, TimeUnit.SECONDS)).isTrue();

        long mine = put();
        assertThat(groupCommit.forceIfFree(mine)).as("a force is running").isFalse();
        List<CompletableFuture<Boolean>> waiting = new ArrayList<>();
        waiting.add(groupCommit.submit(mine));
        waiting.add(groupCommit.submit(put()));
        holdDisk.countDown();
        assertThat(held.get(20, TimeUnit.SECONDS)).isTrue();
        for (CompletableFuture<Boolean> f : waiting) {
            assertThat(f.get(20, TimeUnit.SECONDS)).isTrue();
        }

        // the last forces carried several writers: the next put leaves its force to the service's gathering
        long next = put();
        assertThat(groupCommit.forceIfFree(next)).isFalse();
        assertThat(groupCommit.submit(next).get(20, TimeUnit.SECONDS)).isTrue();
    }
}

package dev.wharf.store.commitlog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.util.ReadBatch;
import dev.wharf.store.health.StoreHealth;
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
 * Puts an I/O thread read together ({@link ReadBatch}) are forced once, on that thread, at the end of the read, when
 * nobody else is forcing and the disk has been quick; otherwise the group-commit thread forces them. Either way
 * nothing is confirmed before it is on disk.
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
    private final LongAdder forces = new LongAdder();
    /** When set, the stand-in disk holds a force until it is counted down. */
    private volatile CountDownLatch holdDisk;
    /** When set, the stand-in disk fails as an mmap fault does: with an Error. */
    private volatile boolean diskFaults;
    private final CountDownLatch diskHeld = new CountDownLatch(1);

    @AfterEach
    void tearDown() {
        ReadBatch.end(); // a failed test may leave the read open
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
        groupCommit = new GroupCommitService(commitLog.mappedFileQueue(), 30_000, forces, () -> {
            if (diskFaults) {
                throw new InternalError("a fault occurred in an unsafe memory access operation (stand-in)");
            }
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
    void putsReadTogetherShareOneForceOnTheReadingThreadAtTheEndOfTheRead() throws Exception {
        // a limit of a second: any force of the test's disk counts as quick (a file's first force can take ms)
        start(1_000_000);
        for (int read = 0; read < 3; read++) {
            long forcesBefore = forces.sum();
            ReadBatch.begin();
            List<CompletableFuture<Boolean>> answers = new ArrayList<>();
            long last = 0;
            for (int i = 0; i < 3; i++) {
                last = put();
                answers.add(groupCommit.submit(last));
            }
            assertThat(answers).as("nothing is confirmed before the read ends").noneMatch(CompletableFuture::isDone);
            assertThat(commitLog.getFlushedWhere()).isLessThan(last);
            ReadBatch.end();
            for (CompletableFuture<Boolean> answer : answers) {
                assertThat(answer.getNow(null)).isTrue();
            }
            assertThat(commitLog.getFlushedWhere()).isGreaterThanOrEqualTo(last);
            assertThat(forces.sum() - forcesBefore).as("forces for the three puts of one read").isEqualTo(1);
            assertThat(forcedBy.get()).isSameAs(Thread.currentThread());
        }
    }

    /**
     * An I/O thread cannot wait for writers whose puts it reads itself: while the writers of the last force are
     * not all back, a read's puts go to the service, whose leader gathers them all into one force; a read with
     * nobody else in flight still forces on its own thread.
     */
    @Test
    @Timeout(30)
    void whileWritersAreDueAReadLeavesTheForceToAGatheringLeader() throws Exception {
        start(1_000_000);
        groupCommit.setGatherMicros(TimeUnit.MINUTES.toMicros(1)); // the leader waits for the writers, not a clock
        ReadBatch.begin();
        List<CompletableFuture<Boolean>> first = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            first.add(groupCommit.submit(put()));
        }
        ReadBatch.end();
        assertThat(first).allMatch(f -> Boolean.TRUE.equals(f.getNow(null)));
        assertThat(forcedBy.get()).as("nobody was in flight: forced on the reading thread")
                .isSameAs(Thread.currentThread());

        long forcesBefore = forces.sum();
        ReadBatch.begin();
        List<CompletableFuture<Boolean>> second = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            second.add(groupCommit.submit(put()));
        }
        ReadBatch.end();
        assertThat(second).as("two of the three writers are back: the leader waits for the third")
                .noneMatch(CompletableFuture::isDone);
        long last = put();
        second.add(groupCommit.submit(last)); // the third writer, from another connection
        for (CompletableFuture<Boolean> answer : second) {
            assertThat(answer.get(20, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(commitLog.getFlushedWhere()).isGreaterThanOrEqualTo(last);
        assertThat(forcedBy.get()).as("the service's leader forced").isNotSameAs(Thread.currentThread());
        assertThat(forces.sum() - forcesBefore).as("one force for the three writers the first one released")
                .isEqualTo(1);
    }

    @Test
    @Timeout(30)
    void outsideAReadTheServiceForces() throws Exception {
        start(1_000_000);
        long next = put();
        assertThat(groupCommit.submit(next).get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(forcedBy.get()).isNotSameAs(Thread.currentThread());
    }

    @Test
    @Timeout(30)
    void withTheLimitAtZeroTheServiceForcesWhatAReadPut() throws Exception {
        start(0);
        ReadBatch.begin();
        long next = put();
        CompletableFuture<Boolean> answer = groupCommit.submit(next);
        ReadBatch.end();
        assertThat(answer.get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(forcedBy.get()).isNotSameAs(Thread.currentThread());
    }

    @Test
    @Timeout(30)
    void aSlowDiskSendsTheNextReadsForceToTheService() throws Exception {
        start(1_000);
        forceNanos.set(TimeUnit.MILLISECONDS.toNanos(5));
        // nothing is known of the disk yet: the first force is done at the end of the read, and it takes 5 ms
        ReadBatch.begin();
        CompletableFuture<Boolean> first = groupCommit.submit(put());
        ReadBatch.end();
        assertThat(first.getNow(null)).isTrue();
        assertThat(forcedBy.get()).isSameAs(Thread.currentThread());

        ReadBatch.begin();
        CompletableFuture<Boolean> second = groupCommit.submit(put());
        ReadBatch.end();
        assertThat(second.get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(forcedBy.get()).as("after a 5 ms force, over the 1 ms limit").isNotSameAs(Thread.currentThread());
    }

    @Test
    @Timeout(30)
    void whileAnotherThreadForcesTheReadHandsItsPutsToTheService() throws Exception {
        start(1_000_000);
        holdDisk = new CountDownLatch(1);
        CompletableFuture<Boolean> held = groupCommit.submit(put());
        assertThat(diskHeld.await(20, TimeUnit.SECONDS)).isTrue();

        ReadBatch.begin();
        long mine = put();
        CompletableFuture<Boolean> answer = groupCommit.submit(mine);
        ReadBatch.end(); // finds the service forcing: does not wait for it
        assertThat(answer).isNotDone();
        assertThat(commitLog.getFlushedWhere()).isLessThan(mine);

        holdDisk.countDown();
        assertThat(held.get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(answer.get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(commitLog.getFlushedWhere()).isGreaterThanOrEqualTo(mine);
    }

    @Test
    @Timeout(30)
    void forceIfFreeForcesOnTheCallersThreadOnlyWhenNobodyForces() throws Exception {
        start(1_000_000);
        long next = put();
        assertThat(groupCommit.forceIfFree(next)).isTrue();
        assertThat(forcedBy.get()).isSameAs(Thread.currentThread());

        holdDisk = new CountDownLatch(1);
        CompletableFuture<Boolean> held = groupCommit.submit(put());
        assertThat(diskHeld.await(20, TimeUnit.SECONDS)).isTrue();
        long mine = put();
        assertThat(groupCommit.forceIfFree(mine)).as("a force is running").isFalse();
        holdDisk.countDown();
        assertThat(held.get(20, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    @Timeout(30)
    void aForceThatFaultsAnswersNotConfirmedAndFailsTheStore() {
        start(1_000_000);
        StoreHealth health = new StoreHealth();
        groupCommit.setHealth(health);
        diskFaults = true;
        ReadBatch.begin();
        long next = put();
        CompletableFuture<Boolean> answer = groupCommit.submit(next);
        ReadBatch.end();
        assertThat(answer.getNow(null)).as("answered at once, not left to time out").isFalse();
        assertThat(health.writeRefusal()).as("the store refuses writes after the fault").isNotNull();
    }
}

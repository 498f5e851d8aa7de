package dev.wharf.store.commitlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gathering under SYNC_FLUSH: blocking writers that are a round trip away from their next put (as a producer is
 * after each answer) share one force instead of coming back in cohorts; a lone writer never waits for company.
 * The disk is a stand-in whose force takes 2 ms.
 */
class GroupCommitGatherTest {

    @TempDir
    Path dir;

    private CommitLog commitLog;
    private GroupCommitService groupCommit;

    @AfterEach
    void tearDown() {
        if (groupCommit != null) {
            groupCommit.shutdown();
        }
        if (commitLog != null) {
            commitLog.shutdown();
        }
    }

    private void start(long gatherMicros, LongAdder forces) {
        commitLog = new CommitLog(dir.resolve("commitlog"), 1024 * 1024, 4096);
        groupCommit = new GroupCommitService(commitLog.mappedFileQueue(), 30_000, forces, () -> {
            // the slow disk: what was written when the force began is on disk 2 ms later (a stand-in, not a wait
            // for a condition)
            boolean moved = commitLog.mappedFileQueue().flush(0);
            if (moved) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
            return moved;
        });
        groupCommit.setGatherMicros(gatherMicros);
        groupCommit.start();
    }

    /** Puts one message and waits for its force; false when it was not confirmed. */
    private boolean putAndWait() {
        AppendResult r = commitLog.putMessage(CommitLogTest.message("Gather", 0, "x".repeat(200)), "");
        return groupCommit.waitForFlush(r.nextOffset())
                && commitLog.getFlushedWhere() >= r.nextOffset();
    }

    @Test
    @Timeout(60)
    void fourWritersARoundTripAwayShareEachForce() throws Exception {
        LongAdder forces = new LongAdder();
        // a window far above the writers' round trips (0.2 to 0.8 ms), so a busy machine does not change the count
        start(50_000, forces);
        int writers = 4;
        int perWriter = 60;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                // answers reach producers one after the other: each writer's round trip is a little longer
                long roundTripNanos = TimeUnit.MICROSECONDS.toNanos(200L * (w + 1));
                results.add(pool.submit(() -> {
                    int confirmed = 0;
                    for (int i = 0; i < perWriter; i++) {
                        if (putAndWait()) {
                            confirmed++;
                        }
                        LockSupport.parkNanos(roundTripNanos);
                    }
                    return confirmed;
                }));
            }
            int confirmed = 0;
            for (Future<Integer> f : results) {
                confirmed += f.get();
            }
            int puts = writers * perWriter;
            assertThat(confirmed).isEqualTo(puts);
            // without gathering they come back in two cohorts: about two puts per force
            assertThat(forces.sum()).as("forces for %d puts by %d writers", puts, writers).isLessThanOrEqualTo(puts / 3);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Timeout(60)
    void aLoneWriterNeverWaitsForCompany() {
        LongAdder forces = new LongAdder();
        start(TimeUnit.SECONDS.toMicros(5), forces);
        long started = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            assertThat(putAndWait()).isTrue();
        }
        // one wait of the window would take 5 s; twenty puts at 2 ms a force take a fraction of one
        assertThat(System.nanoTime() - started).isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertThat(forces.sum()).isEqualTo(20);
    }
}

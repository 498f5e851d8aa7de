package dev.wharf.common.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ReadBatchTest {

    /** An event loop's turn: what it is given runs when the test says the turn's tasks run. */
    private final List<Runnable> loopTasks = new ArrayList<>();
    private final Executor loop = loopTasks::add;
    private final List<String> ran = new ArrayList<>();

    @AfterEach
    void closeTheRead() {
        ReadBatch.end();
    }

    private void runLoopTasks() {
        List<Runnable> tasks = new ArrayList<>(loopTasks);
        loopTasks.clear();
        tasks.forEach(Runnable::run);
    }

    @Test
    void nothingCanBeDeferredOutsideARead() {
        assertThat(ReadBatch.current()).isNull();
        ReadBatch.begin();
        assertThat(ReadBatch.current()).isNotNull();
        ReadBatch.readComplete(loop);
        assertThat(ReadBatch.current()).as("a read that deferred nothing closes").isNull();
        assertThat(loopTasks).isEmpty();
    }

    @Test
    void workDeferredByReadsOfOneTurnRunsOnceAfterThem() {
        ReadBatch.begin();
        ReadBatch.current().defer(() -> ran.add("first connection's force"));
        ReadBatch.readComplete(loop);
        assertThat(ran).as("nothing runs before the turn's other reads").isEmpty();

        // a second connection read in the same turn joins the open batch
        ReadBatch.begin();
        ReadBatch.current().defer(() -> ran.add("second connection's force"));
        ReadBatch.readComplete(loop);
        assertThat(loopTasks).as("the end is scheduled once").hasSize(1);

        runLoopTasks();
        assertThat(ran).containsExactly("first connection's force", "second connection's force");
        assertThat(ReadBatch.current()).isNull();

        // the next turn starts afresh
        ReadBatch.begin();
        ReadBatch.current().defer(() -> ran.add("next turn"));
        ReadBatch.readComplete(loop);
        runLoopTasks();
        assertThat(ran).hasSize(3).endsWith("next turn");
    }

    @Test
    void aLoopThatRefusesTasksGetsTheWorkRunAtOnce() {
        Executor closing = task -> {
            throw new RejectedExecutionException("event loop shut down");
        };
        ReadBatch.begin();
        ReadBatch.current().defer(() -> ran.add("force"));
        ReadBatch.readComplete(closing);
        assertThat(ran).containsExactly("force");
        assertThat(ReadBatch.current()).isNull();
    }

    @Test
    void aFailingTaskDoesNotStopTheOthers() {
        ReadBatch.begin();
        ReadBatch.current().defer(() -> {
            throw new IllegalStateException("broken");
        });
        ReadBatch.current().defer(() -> ran.add("still runs"));
        ReadBatch.end();
        assertThat(ran).containsExactly("still runs");
    }
}

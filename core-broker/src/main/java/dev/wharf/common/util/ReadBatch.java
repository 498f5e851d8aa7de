package dev.wharf.common.util;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests a network I/O thread reads in one turn of its event loop, from every connection it serves. Work that
 * costs the same for one request as for many (forcing the disk) can be deferred to the end of the turn, so that the
 * requests read together share it, on the thread that read them and without waking another.
 *
 * <p>The remoting layer opens the batch with {@link #begin()} for each request and calls
 * {@link #readComplete(Executor)} when a connection's read is done; the batch ends with {@link #end()}, which runs
 * what was deferred. Confined to its thread: each thread has its own, and outside a batch nothing can be deferred.
 */
public final class ReadBatch {

    private static final Logger log = LoggerFactory.getLogger(ReadBatch.class);
    private static final ThreadLocal<ReadBatch> CURRENT = ThreadLocal.withInitial(ReadBatch::new);

    private boolean open;
    private boolean endScheduled;
    private final List<Runnable> atEnd = new ArrayList<>(2);

    private ReadBatch() {
    }

    /** The calling thread's batch while one is open, else null. */
    public static ReadBatch current() {
        ReadBatch batch = CURRENT.get();
        return batch.open ? batch : null;
    }

    /** A request was read on the calling thread: opens its batch, or joins the one already open. */
    public static void begin() {
        CURRENT.get().open = true;
    }

    /**
     * A connection's read ended on the calling thread. With nothing deferred the batch closes; otherwise it stays
     * open, so that requests other connections deliver in the same turn of {@code loop} join it, and
     * {@link #end()} runs once on {@code loop} after them.
     */
    public static void readComplete(Executor loop) {
        ReadBatch batch = CURRENT.get();
        if (batch.atEnd.isEmpty()) {
            batch.open = false;
        } else if (!batch.endScheduled) {
            batch.endScheduled = true;
            try {
                loop.execute(ReadBatch::end);
            } catch (RejectedExecutionException e) {
                end(); // the loop is shutting down: the deferred work must still run
            }
        }
    }

    /** Ends the calling thread's batch: runs what was deferred to its end, in order. */
    public static void end() {
        ReadBatch batch = CURRENT.get();
        batch.open = false;
        batch.endScheduled = false;
        if (batch.atEnd.isEmpty()) {
            return;
        }
        List<Runnable> tasks = batch.atEnd;
        for (int i = 0; i < tasks.size(); i++) {
            try {
                tasks.get(i).run();
            } catch (RuntimeException e) {
                log.error("Work deferred to the end of a read failed", e);
            }
        }
        tasks.clear();
    }

    /** Runs {@code task} on this thread when the batch ends. */
    public void defer(Runnable task) {
        atEnd.add(task);
    }
}

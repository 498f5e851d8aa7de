package dev.wharf.remoting;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Executors for request processors. Give each family of request codes its own bounded executor: when its
 * queue is full the server answers {@code SYSTEM_BUSY} at once instead of queueing without limit, and a
 * flood of one request kind cannot starve the others.
 */
public final class RemotingExecutors {

    private RemotingExecutors() {
    }

    /**
     * A fixed pool of {@code threads} daemon threads named "{name}-N" with a queue of
     * {@code queueCapacity} waiting tasks (0 = hand-off only); a task beyond that is rejected with
     * {@link java.util.concurrent.RejectedExecutionException}. The caller shuts it down.
     */
    public static ThreadPoolExecutor bounded(String name, int threads, int queueCapacity) {
        if (threads < 1) {
            throw new IllegalArgumentException("executor '" + name + "' needs at least 1 thread, got " + threads);
        }
        if (queueCapacity < 0) {
            throw new IllegalArgumentException("executor '" + name + "' needs a queue capacity >= 0, got "
                    + queueCapacity);
        }
        BlockingQueue<Runnable> queue = queueCapacity == 0 ? new SynchronousQueue<>()
                : new ArrayBlockingQueue<>(queueCapacity);
        return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, queue, threadFactory(name),
                new ThreadPoolExecutor.AbortPolicy());
    }

    /** Daemon threads named "{name}-1", "{name}-2", ... */
    public static ThreadFactory threadFactory(String name) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}

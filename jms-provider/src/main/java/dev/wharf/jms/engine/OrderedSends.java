package dev.wharf.jms.engine;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The asynchronous sends of one session, run one after another on one thread of the session's own, in the order
 * they were submitted. Jakarta Messaging 3.1, 7.3: completion listeners of one session are called in the order
 * the sends were made, and the messages keep that order. A send and its callback are one task, so the callback of
 * an earlier send has returned before the next message goes out, and a callback runs on a thread the application
 * can recognise ({@link #isCallbackThread()}) to refuse the calls the specification forbids from it.
 *
 * <p>The thread is started with the first asynchronous send and ends with {@link #shutdown()}. Thread-safe.
 */
public final class OrderedSends {

    private final String threadName;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private int pending;
    private ExecutorService executor;
    private volatile Thread thread;
    private boolean shutDown;

    /** @param threadName name of the thread that sends and calls back */
    public OrderedSends(String threadName) {
        this.threadName = threadName;
    }

    /**
     * Queues a send and its callback.
     *
     * @throws IllegalStateException after {@link #shutdown()}
     */
    public void submit(Runnable sendAndCallBack) {
        lock.lock();
        try {
            if (shutDown) {
                throw new IllegalStateException("the session is closed");
            }
            if (executor == null) {
                executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, threadName);
                    t.setDaemon(true);
                    thread = t;
                    return t;
                });
            }
            pending++;
        } finally {
            lock.unlock();
        }
        executor.execute(() -> {
            try {
                sendAndCallBack.run();
            } finally {
                lock.lock();
                try {
                    if (--pending == 0) {
                        idle.signalAll();
                    }
                } finally {
                    lock.unlock();
                }
            }
        });
    }

    /** Whether the calling thread is the one running this session's sends and callbacks. */
    public boolean isCallbackThread() {
        return Thread.currentThread() == thread;
    }

    /** Whether sends are queued or running. */
    public boolean hasPending() {
        lock.lock();
        try {
            return pending > 0;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every queued send has completed and its callback returned. Must not be called from the
     * callback thread (it would wait for itself).
     */
    public void awaitIdle() throws InterruptedException {
        lock.lock();
        try {
            while (pending > 0) {
                idle.await();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits for the queued sends, then ends the thread; later submissions are refused. */
    public void shutdown() throws InterruptedException {
        ExecutorService e;
        lock.lock();
        try {
            shutDown = true;
            while (pending > 0) {
                idle.await();
            }
            e = executor;
        } finally {
            lock.unlock();
        }
        if (e != null) {
            e.shutdown();
        }
    }
}

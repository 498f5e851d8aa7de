package dev.wharf.common.util;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A background service on its own thread that sleeps until woken or until its interval passes. Subclasses
 * implement {@link #run()} as {@code while (!isStopped()) { waitForRunning(ms); work(); }}. A wakeup that
 * arrives while the service is working is remembered, so no signal is lost between two waits.
 */
public abstract class ServiceThread implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(ServiceThread.class);

    private final AtomicBoolean hasNotified = new AtomicBoolean(false);
    private final AtomicBoolean started = new AtomicBoolean(false);
    private volatile CountDownLatch waitPoint = new CountDownLatch(1);
    private volatile boolean stopped;
    private Thread thread;

    /** The thread name. */
    public abstract String getServiceName();

    public void start() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        stopped = false;
        thread = new Thread(this, getServiceName());
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the service and waits up to {@code joinMillis} for the thread to finish its last round. */
    public void shutdown(long joinMillis) {
        if (!started.compareAndSet(true, false)) {
            return;
        }
        stopped = true;
        wakeup();
        try {
            if (thread != Thread.currentThread()) {
                thread.join(joinMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            log.warn("{} did not stop within {} ms", getServiceName(), joinMillis);
        }
    }

    public void shutdown() {
        shutdown(10_000);
    }

    public boolean isStopped() {
        return stopped;
    }

    public void wakeup() {
        if (hasNotified.compareAndSet(false, true)) {
            waitPoint.countDown();
        }
    }

    /** Waits until {@link #wakeup()} or the interval passes, then calls {@link #onWaitEnd()}. */
    protected void waitForRunning(long intervalMillis) {
        if (hasNotified.compareAndSet(true, false)) {
            onWaitEnd();
            return;
        }
        waitPoint = new CountDownLatch(1);
        if (hasNotified.get()) {
            // a wakeup raced the latch swap: do not sleep through it
            hasNotified.set(false);
            onWaitEnd();
            return;
        }
        try {
            waitPoint.await(intervalMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            hasNotified.set(false);
            onWaitEnd();
        }
    }

    /** Hook run after every wait (e.g. to swap request lists). */
    protected void onWaitEnd() {
    }
}

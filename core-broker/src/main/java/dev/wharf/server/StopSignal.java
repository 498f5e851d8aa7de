package dev.wharf.server;

import java.util.concurrent.CountDownLatch;

/**
 * How a server running in the foreground learns that it should stop. The process uses
 * {@link #jvmShutdown()}: SIGTERM, SIGINT (Ctrl-C) or {@code System.exit} run the stop action in a shutdown
 * hook, so the store is flushed, offsets saved and the {@code abort} marker removed before the JVM ends.
 */
@FunctionalInterface
public interface StopSignal {

    /**
     * Blocks until the stop is requested, then runs {@code stopAction} once and returns when it completed. (With
     * the JVM signal the JVM may end as soon as the action completed, so nothing should follow this call.)
     */
    void awaitStop(Runnable stopAction) throws InterruptedException;

    /** Stop on JVM shutdown (signals, {@code System.exit}). */
    static StopSignal jvmShutdown() {
        return stopAction -> {
            CountDownLatch stopped = new CountDownLatch(1);
            Thread hook = new Thread(() -> {
                try {
                    stopAction.run();
                } finally {
                    stopped.countDown();
                }
            }, "wharf-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            stopped.await();
        };
    }
}

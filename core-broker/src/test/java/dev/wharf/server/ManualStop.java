package dev.wharf.server;

import java.util.concurrent.CountDownLatch;

/** A stop signal a test triggers, standing in for SIGTERM. */
public final class ManualStop implements StopSignal {

    private final CountDownLatch requested = new CountDownLatch(1);

    public void trigger() {
        requested.countDown();
    }

    @Override
    public void awaitStop(Runnable stopAction) throws InterruptedException {
        requested.await();
        stopAction.run();
    }
}

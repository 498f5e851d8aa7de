package dev.wharf.remoting;

import dev.wharf.common.util.RateLimitedLog;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.LoggerFactory;

/**
 * What the outbound invocations of one endpoint (server or client) share: the JVM's timer wheel
 * ({@link SharedTimer}) that expires asynchronous requests without a response, the executor that completes
 * asynchronous futures off the I/O threads, and the in-flight limits for asynchronous and one-way requests.
 */
final class InvokeSupport {

    private final HashedWheelTimer timer;
    private final AtomicBoolean timerReleased = new AtomicBoolean();
    private final ThreadPoolExecutor callbackExecutor;
    private final Semaphore asyncPermits;
    private final Semaphore onewayPermits;
    private final int asyncPermitCount;
    private final int onewayPermitCount;
    private final long syncSpinNanos;
    /** Write failures come with every response of a failing connection: rate-limited per endpoint. */
    private volatile RequestObserver requestObserver = RequestObserver.NONE;
    private final RateLimitedLog writeWarnings =
            RateLimitedLog.of(LoggerFactory.getLogger(NettyRemotingChannel.class));

    /** @param syncSpinMicros how long a synchronous caller may spin for its answer (see {@link SyncWait}) */
    InvokeSupport(String name, NettyEndpointConfig config, long syncSpinMicros) {
        this.syncSpinNanos = syncSpinMicros * 1000;
        this.timer = SharedTimer.acquire();
        // Unbounded queue: its length is bounded by the requests in flight, which the semaphores bound.
        this.callbackExecutor = new ThreadPoolExecutor(config.getCallbackExecutorThreads(),
                config.getCallbackExecutorThreads(), 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                RemotingExecutors.threadFactory(name + "-callback"));
        this.callbackExecutor.allowCoreThreadTimeOut(true);
        this.asyncPermitCount = config.getAsyncSemaphoreValue();
        this.onewayPermitCount = config.getOnewaySemaphoreValue();
        this.asyncPermits = new Semaphore(asyncPermitCount);
        this.onewayPermits = new Semaphore(onewayPermitCount);
    }

    long syncSpinNanos() {
        return syncSpinNanos;
    }

    /** The endpoint's limiter for write-failure lines of its connections. */
    RateLimitedLog writeWarnings() {
        return writeWarnings;
    }

    /** Schedules a timeout; null if the timer is stopped (the endpoint is shutting down). */
    Timeout schedule(TimerTask task, long delayMillis) {
        if (timerReleased.get()) {
            return null;
        }
        try {
            return timer.newTimeout(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException | RejectedExecutionException stopped) {
            return null;
        }
    }

    /** Completes a future on the callback executor (inline if that is shut down). */
    <T> void complete(CompletableFuture<T> future, T value, Throwable error) {
        try {
            callbackExecutor.execute(() -> completeNow(future, value, error));
        } catch (RejectedExecutionException e) {
            completeNow(future, value, error);
        }
    }

    static <T> void completeNow(CompletableFuture<T> future, T value, Throwable error) {
        if (error != null) {
            future.completeExceptionally(error);
        } else {
            future.complete(value);
        }
    }

    Semaphore asyncPermits() {
        return asyncPermits;
    }

    Semaphore onewayPermits() {
        return onewayPermits;
    }

    int asyncPermitCount() {
        return asyncPermitCount;
    }

    int onewayPermitCount() {
        return onewayPermitCount;
    }

    void shutdown() {
        if (timerReleased.compareAndSet(false, true)) {
            SharedTimer.release();
        }
        callbackExecutor.shutdown();
        try {
            callbackExecutor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Who is told of the responses written through this endpoint's channels (metrics). */
    RequestObserver requestObserver() {
        return requestObserver;
    }

    void setRequestObserver(RequestObserver observer) {
        this.requestObserver = observer == null ? RequestObserver.NONE : observer;
    }
}

package dev.wharf.remoting;

import dev.wharf.protocol.RemotingCommand;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

/**
 * A request sent and waiting for its response. Whoever removes it from its channel's table (response,
 * timeout, send failure or close) finishes it, so it finishes exactly once: the timeout is cancelled, the
 * in-flight permit returned and the future completed.
 */
final class PendingRequest implements TimerTask {

    private final NettyRemotingChannel channel;
    private final int opaque;
    private final int code;
    private final long timeoutMillis;
    private final Semaphore permit;
    private final InvokeSupport completeOnCallbackExecutor;
    private final CompletableFuture<RemotingCommand> future = new CompletableFuture<>();
    private volatile Timeout timeout;
    private volatile boolean finished;

    /**
     * @param timeoutMillis the caller's timeout, for the message of a timeout
     * @param permit      released when finished; null if none was taken
     * @param callbacks   completes the future on its callback executor; null completes it inline
     *                    (synchronous callers only wait on it)
     */
    PendingRequest(NettyRemotingChannel channel, RemotingCommand request, long timeoutMillis, Semaphore permit,
                   InvokeSupport callbacks) {
        this.channel = channel;
        this.opaque = request.opaque();
        this.code = request.code();
        this.timeoutMillis = timeoutMillis;
        this.permit = permit;
        this.completeOnCallbackExecutor = callbacks;
    }

    int opaque() {
        return opaque;
    }

    int code() {
        return code;
    }

    long timeoutMillis() {
        return timeoutMillis;
    }

    CompletableFuture<RemotingCommand> future() {
        return future;
    }

    void setTimeout(Timeout timeout) {
        this.timeout = timeout;
        if (finished && timeout != null) {
            timeout.cancel();
        }
    }

    /** Timer thread: the deadline passed. */
    @Override
    public void run(Timeout expired) {
        channel.expire(this);
    }

    void succeed(RemotingCommand response) {
        finish(response, null);
    }

    void fail(Throwable cause) {
        finish(null, cause);
    }

    private void finish(RemotingCommand response, Throwable cause) {
        finished = true;
        Timeout t = timeout;
        if (t != null) {
            t.cancel();
        }
        if (permit != null) {
            permit.release();
        }
        if (completeOnCallbackExecutor != null) {
            completeOnCallbackExecutor.complete(future, response, cause);
        } else {
            InvokeSupport.completeNow(future, response, cause);
        }
    }
}

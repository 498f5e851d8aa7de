package dev.wharf.remoting;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.remoting.codec.ChannelAddress;
import dev.wharf.remoting.exception.RemotingConnectException;
import dev.wharf.remoting.exception.RemotingException;
import dev.wharf.remoting.exception.RemotingSendRequestException;
import dev.wharf.remoting.exception.RemotingTimeoutException;
import dev.wharf.remoting.exception.RemotingTooMuchRequestException;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RemotingChannel} over a Netty channel; one per connection, attached to the channel. Holds the
 * requests this end sent on the connection and still waits for, keyed by opaque, so a response finds its
 * request and a closed connection fails all of them at once.
 */
final class NettyRemotingChannel implements RemotingChannel {

    private static final Logger log = LoggerFactory.getLogger(NettyRemotingChannel.class);
    private static final AttributeKey<NettyRemotingChannel> KEY =
            AttributeKey.valueOf(NettyRemotingChannel.class, "remotingChannel");
    /** The timeout {@link #send} is given for a call whose caller expires it itself (a synchronous one). */
    private static final long CALLER_EXPIRES = -1;

    private final Channel channel;
    private final InvokeSupport invoke;
    private final ConcurrentHashMap<Integer, PendingRequest> pending = new ConcurrentHashMap<>();
    private volatile String remoteAddress;
    /** The server's guard state of this connection (see {@link #guardState()}). */
    private volatile Object guardState;
    /**
     * Client side: whether the server bound this connection to the signer's user (a session), so requests on it go
     * unsigned; see {@link RequestSigner#openSession}.
     */
    private volatile boolean session;
    /** How long this connection's last synchronous call took; racy by design, it only steers {@link SyncWait}. */
    private volatile long previousAnswerNanos;

    private NettyRemotingChannel(Channel channel, InvokeSupport invoke) {
        this.channel = channel;
        this.invoke = invoke;
    }

    static NettyRemotingChannel attach(Channel channel, InvokeSupport invoke) {
        NettyRemotingChannel remoting = new NettyRemotingChannel(channel, invoke);
        channel.attr(KEY).set(remoting);
        return remoting;
    }

    static NettyRemotingChannel of(Channel channel) {
        return channel.attr(KEY).get();
    }

    Channel nettyChannel() {
        return channel;
    }

    @Override
    public boolean isEncrypted() {
        return channel.pipeline().get(SslHandler.class) != null;
    }

    @Override
    public Object guardState() {
        return guardState;
    }

    @Override
    public void setGuardState(Object state) {
        this.guardState = state;
    }

    boolean hasSession() {
        return session;
    }

    void setSession(boolean session) {
        this.session = session;
    }

    @Override
    public String remoteAddress() {
        String address = remoteAddress;
        if (address == null) {
            if (channel.remoteAddress() == null) {
                return ChannelAddress.remote(channel);
            }
            address = ChannelAddress.remote(channel);
            remoteAddress = address;
        }
        return address;
    }

    @Override
    public String localAddress() {
        return ChannelAddress.local(channel);
    }

    @Override
    public boolean isActive() {
        return channel.isActive();
    }

    @Override
    public boolean isWritable() {
        return channel.isWritable();
    }

    @Override
    public void writeResponse(RemotingCommand response) {
        Objects.requireNonNull(response, "response");
        response.markResponse();
        int answers = response.answersCode();
        if (answers >= 0) {
            invoke.requestObserver().served(answers, response.code(), System.nanoTime() - response.arrivedNanos());
        }
        if (!channel.isActive()) {
            log.debug("Dropping {} for {}: the connection is closed", response.describe(), remoteAddress());
            releaseBody(response);
            return;
        }
        channel.writeAndFlush(response, channel.newPromise().addListener(future -> {
            if (!future.isSuccess()) {
                if (channel.isActive()) {
                    invoke.writeWarnings().warn("response", "Failed to write {} (opaque {}) to {}: {}",
                            response.describe(), response.opaque(), remoteAddress(), future.cause().toString());
                } else {
                    log.debug("Dropped {} (opaque {}) for {}: the connection closed", response.describe(),
                            response.opaque(), remoteAddress());
                }
            }
            releaseBody(response);
        }));
    }

    @Override
    public RemotingCommand invokeSync(RemotingCommand request, long timeoutMillis)
            throws RemotingException, InterruptedException {
        return invokeSync(request, timeoutMillis, timeoutMillis);
    }

    /**
     * @param timeoutMillis  what is left of the caller's timeout
     * @param callerTimeout  the caller's whole timeout, named in a timeout's message
     */
    RemotingCommand invokeSync(RemotingCommand request, long timeoutMillis, long callerTimeout)
            throws RemotingException, InterruptedException {
        checkRequest(request, timeoutMillis);
        if (channel.eventLoop().inEventLoop()) {
            throw new IllegalStateException("invokeSync on the connection's own I/O thread would wait forever for "
                    + "a response that thread has to read; use invokeAsync, or call from a processor's executor");
        }
        // no timer task: the caller keeps its own deadline, which saves a timeout armed and cancelled per call
        PendingRequest call = send(request, CALLER_EXPIRES, callerTimeout, null, null);
        long sent = System.nanoTime();
        SyncWait.JVM.enter();
        try {
            SyncWait.JVM.spin(call.future(), invoke.syncSpinNanos(), previousAnswerNanos);
            return call.future().get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw asRemotingException(e.getCause(), request);
        } catch (TimeoutException e) {
            expire(call);
            // the answer may have come between the deadline and the expiry: then it wins
            CompletableFuture<RemotingCommand> answer = call.future();
            if (answer.isDone() && !answer.isCompletedExceptionally()) {
                return answer.join();
            }
            throw new RemotingTimeoutException(remoteAddress(), RequestCode.NAMES.describe(request.code()),
                    callerTimeout);
        } finally {
            SyncWait.JVM.leave();
            previousAnswerNanos = System.nanoTime() - sent;
        }
    }

    @Override
    public CompletableFuture<RemotingCommand> invokeAsync(RemotingCommand request, long timeoutMillis) {
        return invokeAsync(request, timeoutMillis, timeoutMillis);
    }

    /** Like {@link #invokeSync(RemotingCommand, long, long)}, asynchronously. */
    CompletableFuture<RemotingCommand> invokeAsync(RemotingCommand request, long timeoutMillis, long callerTimeout) {
        checkRequest(request, timeoutMillis);
        Semaphore permits = invoke.asyncPermits();
        if (!permits.tryAcquire()) {
            return CompletableFuture.failedFuture(new RemotingTooMuchRequestException(remoteAddress(),
                    "cannot send " + RequestCode.NAMES.describe(request.code()) + " to " + remoteAddress() + ": "
                            + invoke.asyncPermitCount() + " asynchronous requests are already in flight "
                            + "(asyncSemaphoreValue); slow down or raise the limit"));
        }
        return send(request, timeoutMillis, callerTimeout, permits, invoke).future();
    }

    @Override
    public void invokeOneway(RemotingCommand request) throws RemotingException {
        try {
            invokeOneway(request, 0);
        } catch (InterruptedException e) {
            // Unreachable: a zero wait uses the non-blocking tryAcquire.
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One-way send that may wait up to {@code permitWaitMillis} for an in-flight permit. */
    void invokeOneway(RemotingCommand request, long permitWaitMillis) throws RemotingException, InterruptedException {
        Objects.requireNonNull(request, "request");
        request.markOneway();
        if (!channel.isActive()) {
            releaseBody(request);
            throw closed(request);
        }
        Semaphore permits = invoke.onewayPermits();
        boolean acquired = permitWaitMillis <= 0 ? permits.tryAcquire()
                : permits.tryAcquire(permitWaitMillis, TimeUnit.MILLISECONDS);
        if (!acquired) {
            releaseBody(request);
            throw new RemotingTooMuchRequestException(remoteAddress(), "cannot send one-way "
                    + RequestCode.NAMES.describe(request.code()) + " to " + remoteAddress() + ": "
                    + invoke.onewayPermitCount() + " one-way requests are still being written "
                    + "(onewaySemaphoreValue); slow down or raise the limit");
        }
        channel.writeAndFlush(request, channel.newPromise().addListener(future -> {
            permits.release();
            if (!future.isSuccess()) {
                invoke.writeWarnings().warn("oneway", "Failed to send one-way {} to {}: {}", request.describe(),
                        remoteAddress(), future.cause().toString());
            }
            releaseBody(request);
        }));
    }

    @Override
    public void close() {
        channel.close();
    }

    /**
     * Registers the request, arms its timeout (none for {@link #CALLER_EXPIRES}) and writes it. Never throws:
     * failures finish the request.
     */
    private PendingRequest send(RemotingCommand request, long timeoutMillis, long callerTimeout, Semaphore permit,
                                InvokeSupport callbacks) {
        PendingRequest call = new PendingRequest(this, request, callerTimeout, permit, callbacks);
        if (!channel.isActive()) {
            releaseBody(request);
            call.fail(closed(request));
            return call;
        }
        if (pending.putIfAbsent(call.opaque(), call) != null) {
            releaseBody(request);
            call.fail(new RemotingSendRequestException(remoteAddress(), RequestCode.NAMES.describe(request.code()),
                    new IllegalStateException("opaque " + call.opaque() + " is already waiting for a response on "
                            + "this connection; build every request with RemotingCommand.createRequest")));
            return call;
        }
        if (timeoutMillis != CALLER_EXPIRES) {
            call.setTimeout(invoke.schedule(call, timeoutMillis));
        }
        // Listeners go on the promise before the write (here and above): added after it from a caller's thread, a
        // listener may find the write already done and is then posted to the I/O thread, waking it once more.
        channel.writeAndFlush(request, channel.newPromise().addListener(future -> {
            if (!future.isSuccess() && pending.remove(call.opaque(), call)) {
                call.fail(new RemotingSendRequestException(remoteAddress(), RequestCode.NAMES.describe(call.code()),
                        future.cause()));
            }
            releaseBody(request);
        }));
        return call;
    }

    /** I/O thread: a response arrived. */
    void completeResponse(RemotingCommand response) {
        PendingRequest call = pending.remove(response.opaque());
        if (call == null) {
            log.debug("Dropping {} (opaque {}) from {}: no request is waiting for it (timed out or unknown)",
                    response.describe(), response.opaque(), remoteAddress());
            return;
        }
        call.succeed(response);
    }

    /** Timer thread (or a synchronous caller that gave up): the request's deadline passed. */
    void expire(PendingRequest call) {
        if (pending.remove(call.opaque(), call)) {
            call.fail(new RemotingTimeoutException(remoteAddress(), RequestCode.NAMES.describe(call.code()),
                    call.timeoutMillis()));
        }
    }

    /** I/O thread: the connection closed; every waiting request fails now rather than at its timeout. */
    void failAllPending() {
        for (PendingRequest call : pending.values()) {
            if (pending.remove(call.opaque(), call)) {
                call.fail(new RemotingConnectException(remoteAddress(), "connection to " + remoteAddress()
                        + " closed before the response to " + RequestCode.NAMES.describe(call.code()) + " arrived", null,
                        true));
            }
        }
    }

    int pendingCount() {
        return pending.size();
    }

    private RemotingConnectException closed(RemotingCommand request) {
        return new RemotingConnectException(remoteAddress(), "cannot send " + RequestCode.NAMES.describe(request.code())
                + ": the connection to " + remoteAddress() + " is closed", null);
    }

    private RemotingException asRemotingException(Throwable cause, RemotingCommand request) {
        if (cause instanceof RemotingException remoting) {
            return remoting;
        }
        return new RemotingSendRequestException(remoteAddress(), RequestCode.NAMES.describe(request.code()), cause);
    }

    private static void checkRequest(RemotingCommand request, long timeoutMillis) {
        Objects.requireNonNull(request, "request");
        if (request.isResponse()) {
            throw new IllegalArgumentException(request.describe() + " is a response; invoke sends requests "
                    + "(build them with RemotingCommand.createRequest)");
        }
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("timeoutMillis must be positive, got " + timeoutMillis);
        }
    }

    static void releaseBody(RemotingCommand command) {
        try {
            command.releaseBodyBuffers();
        } catch (RuntimeException e) {
            log.warn("The onWritten callback of {} failed: {}", command.describe(), e.toString());
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NettyRemotingChannel other && other.channel.equals(channel);
    }

    @Override
    public int hashCode() {
        return channel.hashCode();
    }

    @Override
    public String toString() {
        return "RemotingChannel[" + localAddress() + " -> " + remoteAddress() + (isActive() ? "" : ", closed") + "]";
    }
}

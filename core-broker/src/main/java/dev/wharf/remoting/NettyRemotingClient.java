package dev.wharf.remoting;

import dev.wharf.protocol.BinaryHeaderCodec;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingFrameDescriptor;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.remoting.codec.PartialFrameBudget;
import dev.wharf.remoting.exception.RemotingConnectException;
import dev.wharf.remoting.exception.RemotingException;
import dev.wharf.remoting.exception.RemotingTimeoutException;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.Timeout;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls remoting servers by address ("host:port"). One connection per address, opened lazily by the first
 * call and shared by all callers (concurrent first calls share one connection attempt); a closed
 * connection is replaced by the next call. Each call's timeout covers connecting and waiting for the
 * response. Processors registered here serve requests the servers send back over these connections.
 *
 * <p>Lifecycle: {@code start()} once, {@code shutdown()} once; thread-safe.
 */
public final class NettyRemotingClient {

    private static final Logger log = LoggerFactory.getLogger(NettyRemotingClient.class);
    private static final String NAME = "wharf-remoting-client";

    private enum State { NEW, STARTED, SHUT_DOWN }

    /** The shared connection attempt, then the connection, for one address. */
    private static final class Connection {
        final CompletableFuture<NettyRemotingChannel> ready = new CompletableFuture<>();
        volatile Channel channel;

        boolean isUsable() {
            if (!ready.isDone()) {
                return true;
            }
            Channel c = channel;
            return !ready.isCompletedExceptionally() && c != null && c.isActive();
        }
    }

    private final NettyClientConfig config;
    private final RequestDispatcher dispatcher = new RequestDispatcher();
    private final ChannelEventDispatcher events = new ChannelEventDispatcher(NAME);
    private final ChannelGroup channels = new DefaultChannelGroup(NAME, GlobalEventExecutor.INSTANCE);
    private final ConcurrentHashMap<String, Connection> connections = new ConcurrentHashMap<>();
    private volatile State state = State.NEW;
    private InvokeSupport invoke;
    private EventLoopGroup ioGroup;
    private Bootstrap bootstrap;
    private volatile RequestSigner signer;
    private PipelineHook pipelineHook;

    public NettyRemotingClient(NettyClientConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** Serves requests the server sends over a connection of this client (e.g. CHECK_TRANSACTION_STATE). */
    public void registerProcessor(int code, RequestProcessor processor, ExecutorService executor) {
        dispatcher.register(code, processor, executor);
    }

    public void registerDefaultProcessor(RequestProcessor processor, ExecutorService executor) {
        dispatcher.registerDefault(processor, executor);
    }

    public void setChannelEventListener(ChannelEventListener listener) {
        events.setListener(listener);
    }

    /** Adds credentials to every request this client sends; null for none. */
    public void setRequestSigner(RequestSigner signer) {
        this.signer = signer;
    }

    /** Adds handlers at the head of every connection's pipeline (TLS); set before {@link #start()}. */
    public void setPipelineHook(PipelineHook hook) {
        this.pipelineHook = hook;
    }

    public synchronized void start() {
        if (state != State.NEW) {
            throw new IllegalStateException("a remoting client can be started once; this one is " + state);
        }
        Transport transport = Transport.select(config.isUseEpoll());
        invoke = new InvokeSupport(NAME, config, config.getSyncSpinMicros());
        ioGroup = transport.newEventLoopGroup(config.getSelectorThreads(), NAME + "-io");
        bootstrap = new Bootstrap()
                .group(ioGroup)
                .channel(transport.channelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.getConnectTimeoutMillis())
                .handler(new RemotingChannelInitializer(config, invoke, dispatcher, events, channels,
                        PartialFrameBudget.unlimited()));
        if (config.getSocketSndBufSize() > 0) {
            bootstrap.option(ChannelOption.SO_SNDBUF, config.getSocketSndBufSize());
        }
        if (config.getSocketRcvBufSize() > 0) {
            bootstrap.option(ChannelOption.SO_RCVBUF, config.getSocketRcvBufSize());
        }
        state = State.STARTED;
        log.debug("Remoting client started ({})", transport.name());
    }

    /**
     * Sends a request to {@code address} and waits for the response.
     *
     * @throws RemotingConnectException        cannot connect, or the connection closed while waiting
     * @throws RemotingTimeoutException        no response within {@code timeoutMillis}
     * @throws dev.wharf.remoting.exception.RemotingSendRequestException the request could not be written
     * @throws IllegalArgumentException        the address is not "host:port"
     */
    public RemotingCommand invokeSync(String address, RemotingCommand request, long timeoutMillis)
            throws RemotingException, InterruptedException {
        prepare(request, timeoutMillis);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        NettyRemotingChannel channel = awaitConnection(address, timeoutMillis);
        boolean session = sign(channel, request);
        RemotingCommand response = channel.invokeSync(request, remainingMillis(address, request, deadline,
                timeoutMillis), timeoutMillis);
        if (session && response.code() == ResponseCode.AUTHENTICATION_FAILED) {
            sessionEnded(address, channel, response);
        }
        return response;
    }

    /**
     * Sends a request to {@code address}; the future completes with the response or fails with a
     * {@link RemotingException} (or an {@link IllegalArgumentException} for a malformed address). It
     * completes on the client's callback executor, never on an I/O thread.
     */
    public CompletableFuture<RemotingCommand> invokeAsync(String address, RemotingCommand request,
                                                          long timeoutMillis) {
        prepare(request, timeoutMillis);
        CompletableFuture<NettyRemotingChannel> connecting = connection(address);
        if (connecting.isDone() && !connecting.isCompletedExceptionally()) {
            NettyRemotingChannel channel = connecting.join();
            boolean session = sign(channel, request);
            CompletableFuture<RemotingCommand> sent = channel.invokeAsync(request, timeoutMillis);
            return session ? watchSession(address, channel, sent) : sent;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        CompletableFuture<RemotingCommand> result = new CompletableFuture<>();
        // Bounds the connect phase by the call's own timeout, not only by connectTimeoutMillis.
        Timeout connectDeadline = invoke.schedule(t -> invoke.complete(result, null,
                connectTimedOut(address, timeoutMillis)), timeoutMillis);
        connecting.whenComplete((channel, error) -> {
            if (connectDeadline != null) {
                connectDeadline.cancel();
            }
            if (result.isDone()) {
                return;
            }
            if (error != null) {
                invoke.complete(result, null, unwrap(error));
                return;
            }
            long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (remaining <= 0) {
                invoke.complete(result, null,
                        new RemotingTimeoutException(address, RequestCode.NAMES.describe(request.code()), timeoutMillis));
                return;
            }
            try {
                boolean session = sign(channel, request);
                channel.invokeAsync(request, remaining, timeoutMillis).whenComplete((response, failure) -> {
                    if (session && response != null && response.code() == ResponseCode.AUTHENTICATION_FAILED) {
                        sessionEnded(address, channel, response);
                    }
                    InvokeSupport.completeNow(result, response, failure == null ? null : unwrap(failure));
                });
            } catch (RuntimeException e) {
                invoke.complete(result, null, e);
            }
        });
        return result;
    }

    /**
     * Sends a one-way request to {@code address}; returns once it is handed to the connection.
     * {@code timeoutMillis} bounds connecting and waiting for a one-way permit.
     */
    public void invokeOneway(String address, RemotingCommand request, long timeoutMillis)
            throws RemotingException, InterruptedException {
        prepare(request, timeoutMillis);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        NettyRemotingChannel channel = awaitConnection(address, timeoutMillis);
        sign(channel, request);
        channel.invokeOneway(request, remainingMillis(address, request, deadline, timeoutMillis));
    }

    /** Closes the connection to {@code address}, if any; requests waiting on it fail at once. */
    public void closeChannel(String address) {
        Connection connection = connections.remove(address);
        if (connection != null && connection.channel != null) {
            connection.channel.close();
        }
    }

    /** Whether a connection to {@code address} is open now (none is opened by asking). */
    public boolean isConnected(String address) {
        Connection connection = connections.get(address);
        return connection != null && connection.ready.isDone() && connection.isUsable();
    }

    /** Closes every connection (waiting requests fail at once), then stops the I/O threads. Idempotent. */
    public synchronized void shutdown() {
        State was = state;
        state = State.SHUT_DOWN;
        if (was != State.STARTED) {
            events.shutdown();
            return;
        }
        channels.close().awaitUninterruptibly(3, TimeUnit.SECONDS);
        connections.clear();
        ioGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        invoke.shutdown();
        events.shutdown();
        log.debug("Remoting client shut down");
    }

    private NettyRemotingChannel awaitConnection(String address, long timeoutMillis)
            throws RemotingException, InterruptedException {
        CompletableFuture<NettyRemotingChannel> connecting = connection(address);
        try {
            return connecting.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = unwrap(e.getCause());
            if (cause instanceof RemotingException remoting) {
                throw remoting;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new RemotingConnectException(address, "cannot connect to " + address + ": " + cause, cause);
        } catch (TimeoutException e) {
            throw connectTimedOut(address, timeoutMillis);
        }
    }

    private static RemotingConnectException connectTimedOut(String address, long timeoutMillis) {
        return new RemotingConnectException(address, "cannot connect to " + address + " within the call's "
                + timeoutMillis + " ms timeout; is the server running and the address right?", null);
    }

    /** The connection (attempt) for an address; starts one if there is none or the last one died. */
    private CompletableFuture<NettyRemotingChannel> connection(String address) {
        if (state != State.STARTED) {
            throw new IllegalStateException("the remoting client is " + state + "; call start() before invoking");
        }
        Objects.requireNonNull(address, "address");
        Connection existing = connections.get(address);
        if (existing != null && existing.isUsable()) {
            return existing.ready;
        }
        Connection fresh = new Connection();
        Connection winner = connections.compute(address, (key, old) -> old != null && old.isUsable() ? old : fresh);
        if (winner == fresh) {
            // Outside compute(): connect listeners may run inline and touch the map.
            connect(address, fresh);
        }
        return winner.ready;
    }

    private void connect(String address, Connection connection) {
        HostAndPort target;
        try {
            target = HostAndPort.parse(address);
        } catch (IllegalArgumentException e) {
            connections.remove(address, connection);
            connection.ready.completeExceptionally(e);
            return;
        }
        ChannelFuture connect = bootstrapFor(target).connect(target.host(), target.port());
        connection.channel = connect.channel();
        connect.channel().closeFuture().addListener(closed -> connections.remove(address, connection));
        connect.addListener(done -> {
            if (done.isSuccess()) {
                authenticate(address, connection, NettyRemotingChannel.of(connect.channel()));
            } else {
                connections.remove(address, connection);
                connection.ready.completeExceptionally(RemotingConnectException.cannotConnect(address,
                        config.getConnectTimeoutMillis(), done.cause()));
            }
        });
    }

    /** The shared bootstrap, or with a pipeline hook one whose connections get the hook's handlers for this peer. */
    private Bootstrap bootstrapFor(HostAndPort target) {
        PipelineHook hook = pipelineHook;
        if (hook == null) {
            return bootstrap;
        }
        ChannelHandler rest = bootstrap.config().handler();
        return bootstrap.clone().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel channel) {
                hook.initChannel(channel, target.host(), target.port());
                channel.pipeline().addLast(rest);
            }
        });
    }

    private static long remainingMillis(String address, RemotingCommand request, long deadline, long timeoutMillis)
            throws RemotingTimeoutException {
        long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (remaining <= 0) {
            throw new RemotingTimeoutException(address, RequestCode.NAMES.describe(request.code()), timeoutMillis);
        }
        return remaining;
    }

    /** Checks the arguments of an invocation and gives the request this client's header encoding. */
    private void prepare(RemotingCommand request, long timeoutMillis) {
        Objects.requireNonNull(request, "request");
        if (request.isResponse()) {
            throw new IllegalArgumentException(request.describe() + " is a response; invoke sends requests "
                    + "(build them with RemotingCommand.createRequest)");
        }
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("timeoutMillis must be positive, got " + timeoutMillis);
        }
        request.setSerializeType(BinaryHeaderCodec.canCarry(request) ? config.serializeTypeCode()
                : RemotingFrameDescriptor.SERIALIZE_TYPE_JSON);
    }

    /**
     * With a signer, opens the connection's session before anyone may use it (see {@link RequestSigner#openSession});
     * callers of the address wait on {@code connection.ready} meanwhile, so no request overtakes the handshake.
     */
    private void authenticate(String address, Connection connection, NettyRemotingChannel channel) {
        RequestSigner s = signer;
        if (s == null) {
            connection.ready.complete(channel);
            return;
        }
        CompletableFuture<Boolean> opening;
        try {
            opening = s.openSession(channel, config.getConnectTimeoutMillis());
        } catch (RuntimeException e) {
            log.debug("No session on {} ({}); signing each request", address, e.toString());
            opening = CompletableFuture.completedFuture(Boolean.FALSE);
        }
        opening.whenComplete((bound, error) -> {
            channel.setSession(error == null && Boolean.TRUE.equals(bound));
            connection.ready.complete(channel);
        });
    }

    /**
     * Prepares {@code request} for {@code channel}: signed, or (on a connection with a session) without the
     * credential fields an earlier attempt may have added. True when it goes unsigned on a session.
     */
    private boolean sign(NettyRemotingChannel channel, RemotingCommand request) {
        RequestSigner s = signer;
        if (s == null) {
            return false;
        }
        if (channel.hasSession()) {
            s.unsign(request);
            return true;
        }
        s.sign(request);
        return false;
    }

    private CompletableFuture<RemotingCommand> watchSession(String address, NettyRemotingChannel channel,
                                                           CompletableFuture<RemotingCommand> sent) {
        return sent.whenComplete((response, failure) -> {
            if (response != null && response.code() == ResponseCode.AUTHENTICATION_FAILED) {
                sessionEnded(address, channel, response);
            }
        });
    }

    /**
     * The server refused an unsigned request on a session: it ended the session (its users file no longer holds
     * the user, or holds another password). The connection is closed, so the next call connects and authenticates
     * again, and fails with the server's reason if the credentials no longer hold.
     */
    private void sessionEnded(String address, NettyRemotingChannel channel, RemotingCommand response) {
        if (channel.hasSession()) {
            channel.setSession(false);
            Connection current = connections.get(address);
            if (current != null && current.channel == channel.nettyChannel()) {
                connections.remove(address, current); // the next call opens a new connection, not this closing one
            }
            log.info("The server at {} ended this client's authenticated session ({}); reconnecting", address,
                    response.remark());
            channel.close();
        }
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /** "host:port" or "[ipv6]:port". */
    private record HostAndPort(String host, int port) {

        static HostAndPort parse(String address) {
            int colon = address.lastIndexOf(':');
            String host = colon > 0 ? address.substring(0, colon).trim() : "";
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port = -1;
            if (colon > 0) {
                try {
                    port = Integer.parseInt(address.substring(colon + 1).trim());
                } catch (NumberFormatException e) {
                    port = -1;
                }
            }
            if (host.isEmpty() || port < 1 || port > 65_535) {
                throw new IllegalArgumentException("remote address '" + address
                        + "' is not host:port (e.g. 127.0.0.1:9876)");
            }
            return new HostAndPort(host, port);
        }
    }
}

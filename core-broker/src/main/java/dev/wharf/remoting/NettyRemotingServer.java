package dev.wharf.remoting;

import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.remoting.codec.ChannelAddress;
import dev.wharf.remoting.codec.PartialFrameBudget;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts connections and serves requests with the registered {@link RequestProcessor}s; over the same
 * connections it can also call processors registered on the clients ({@link RemotingChannel}s are
 * handed to processors and to the {@link ChannelEventListener}).
 *
 * <p>Register processors before {@link #start()} (registering later works too, for new requests).
 * Lifecycle: {@code start()} once, {@code shutdown()} once; thread-safe.
 */
public final class NettyRemotingServer {

    private static final Logger log = LoggerFactory.getLogger(NettyRemotingServer.class);
    private static final String NAME = "wharf-remoting-server";

    private enum State { NEW, STARTED, SHUT_DOWN }

    private final NettyServerConfig config;
    private final RequestDispatcher dispatcher = new RequestDispatcher();
    private final ChannelEventDispatcher events = new ChannelEventDispatcher(NAME);
    private final ChannelGroup channels = new DefaultChannelGroup(NAME, GlobalEventExecutor.INSTANCE);
    private State state = State.NEW;
    private InvokeSupport invoke;
    private EventLoopGroup bossGroup;
    private EventLoopGroup ioGroup;
    private Channel serverChannel;
    private volatile PartialFrameBudget frameBudget;
    private volatile RequestObserver requestObserver = RequestObserver.NONE;
    private PipelineHook pipelineHook;

    public NettyRemotingServer(NettyServerConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /** Serves {@code code} with {@code processor} on {@code executor} (bounded: see {@link RemotingExecutors}). */
    public void registerProcessor(int code, RequestProcessor processor, ExecutorService executor) {
        dispatcher.register(code, processor, executor);
    }

    /**
     * Registers a processor run on the I/O thread a request arrives on. Only for processors that never block: a
     * blocked I/O thread stalls every connection it serves.
     */
    public void registerProcessorOnIoThread(int code, RequestProcessor processor) {
        dispatcher.registerOnIoThread(code, processor);
    }

    /** Serves every code without a processor of its own. */
    public void registerDefaultProcessor(RequestProcessor processor, ExecutorService executor) {
        dispatcher.registerDefault(processor, executor);
    }

    /** Tells {@code observer} of every response written (metrics); null observes nothing. */
    public synchronized void setRequestObserver(RequestObserver observer) {
        this.requestObserver = observer == null ? RequestObserver.NONE : observer;
        if (invoke != null) {
            invoke.setRequestObserver(requestObserver);
        }
    }

    public void setChannelEventListener(ChannelEventListener listener) {
        events.setListener(listener);
    }

    /** Checks every request before its processor (authentication, authorization); null for none. */
    public void setRequestGuard(RequestGuard guard) {
        dispatcher.setGuard(guard);
    }

    /**
     * Adds handlers at the head of every connection's pipeline before the framing handlers (TLS); set before
     * {@link #start()}.
     */
    public void setPipelineHook(PipelineHook hook) {
        this.pipelineHook = hook;
    }

    /**
     * Binds and starts serving.
     *
     * @throws IllegalStateException if the address cannot be bound (port in use, unknown address) or the
     *                               server was started before
     */
    public synchronized void start() {
        if (state != State.NEW) {
            throw new IllegalStateException("a remoting server can be started once; this one is " + state);
        }
        if (config.getMaxPartialFrameBytes() < 2L * config.getMaxFrameLength()) {
            // the buffer of a frame grows ahead of its bytes, up to twice its size
            throw new IllegalArgumentException("maxPartialFrameBytes (" + config.getMaxPartialFrameBytes()
                    + ") is smaller than twice maxFrameLength (2 x " + config.getMaxFrameLength() + "), so a frame"
                    + " of the largest size might never arrive; raise maxPartialFrameBytes or lower maxFrameLength");
        }
        frameBudget = new PartialFrameBudget(config.getMaxPartialFrameBytes(), "maxPartialFrameBytes",
                RateLimitedLog.of(log));
        Transport transport = Transport.select(config.isUseEpoll());
        // The server's own synchronous calls (to clients) never spin: its cores belong to the requests it serves.
        invoke = new InvokeSupport(NAME, config, 0);
        invoke.setRequestObserver(requestObserver);
        bossGroup = transport.newEventLoopGroup(1, NAME + "-boss");
        ioGroup = transport.newEventLoopGroup(config.getSelectorThreads(), NAME + "-io");
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, ioGroup)
                .channel(transport.serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, config.getBacklog())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, false)
                .childHandler(new RemotingChannelInitializer(config, invoke, dispatcher, events, channels,
                        frameBudget).withHook(pipelineHook));
        if (config.getSocketSndBufSize() > 0) {
            bootstrap.childOption(ChannelOption.SO_SNDBUF, config.getSocketSndBufSize());
        }
        if (config.getSocketRcvBufSize() > 0) {
            bootstrap.childOption(ChannelOption.SO_RCVBUF, config.getSocketRcvBufSize());
        }
        String where = config.getBindAddress() + ":" + config.getListenPort();
        ChannelFuture bind = bootstrap.bind(config.getBindAddress(), config.getListenPort()).awaitUninterruptibly();
        if (!bind.isSuccess()) {
            releaseResources();
            state = State.SHUT_DOWN;
            throw new IllegalStateException("cannot listen on " + where + ": " + bind.cause().getMessage()
                    + "; is another server using the port? Choose another listenPort or bindAddress", bind.cause());
        }
        serverChannel = bind.channel();
        state = State.STARTED;
        log.info("Remoting server listening on {} ({})", ChannelAddress.local(serverChannel), transport.name());
    }

    /** The port listened on (the one picked when {@code listenPort} is 0). */
    public int localPort() {
        return boundAddress().getPort();
    }

    /** The address listened on, as "ip:port". */
    public String localAddress() {
        return ChannelAddress.format(boundAddress());
    }

    private synchronized InetSocketAddress boundAddress() {
        if (state != State.STARTED) {
            throw new IllegalStateException("the remoting server is " + state + ", not listening; call start() first");
        }
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /**
     * Bytes of buffers holding unfinished frames of its connections now (bounded by maxPartialFrameBytes); 0 before
     * start.
     */
    public long partialFrameBytes() {
        PartialFrameBudget budget = frameBudget;
        return budget == null ? 0 : budget.heldBytes();
    }

    /** Connections closed so far because unfinished frames exhausted maxPartialFrameBytes. */
    public long partialFrameEvictions() {
        PartialFrameBudget budget = frameBudget;
        return budget == null ? 0 : budget.evictions();
    }

    /** Connections currently open. */
    public int connectionCount() {
        return channels.size();
    }

    /**
     * Stops accepting, closes every connection (requests waiting on them fail at once, listeners get their
     * close events), then stops the I/O threads. Processor executors belong to the caller and are left
     * running. Idempotent.
     */
    public synchronized void shutdown() {
        if (state != State.STARTED) {
            state = State.SHUT_DOWN;
            events.shutdown();
            return;
        }
        state = State.SHUT_DOWN;
        String address = ChannelAddress.local(serverChannel);
        serverChannel.close().awaitUninterruptibly(3, TimeUnit.SECONDS);
        channels.close().awaitUninterruptibly(3, TimeUnit.SECONDS);
        releaseResources();
        log.info("Remoting server on {} shut down", address);
    }

    private void releaseResources() {
        var boss = bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        var io = ioGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        boss.awaitUninterruptibly(5, TimeUnit.SECONDS);
        io.awaitUninterruptibly(5, TimeUnit.SECONDS);
        invoke.shutdown();
        events.shutdown();
    }
}

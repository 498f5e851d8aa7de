package dev.wharf.remoting;

import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.common.util.ReadBatch;
import dev.wharf.protocol.RemotingCommand;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of the pipeline, joining a connection to its endpoint: responses go to the request
 * waiting for them, requests to the processor table; connection, idle, error and close events go to the
 * listener, and a close fails the requests still waiting on the connection.
 *
 * <p>{@code @Sharable}: per-connection state lives in the channel's {@link NettyRemotingChannel}.
 */
@Sharable
final class RemotingChannelHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(RemotingChannelHandler.class);

    /** Peers can provoke errors as often as they connect: one line per kind of error per interval. */
    private final RateLimitedLog warnings = RateLimitedLog.of(log);
    private final RequestDispatcher dispatcher;
    private final ChannelEventDispatcher events;
    private final int idleSeconds;

    RemotingChannelHandler(RequestDispatcher dispatcher, ChannelEventDispatcher events, int idleSeconds) {
        this.dispatcher = dispatcher;
        this.events = events;
        this.idleSeconds = idleSeconds;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof RemotingCommand command)) {
            ctx.fireChannelRead(msg);
            return;
        }
        NettyRemotingChannel channel = NettyRemotingChannel.of(ctx.channel());
        if (command.isResponse()) {
            channel.completeResponse(command);
        } else {
            ReadBatch.begin();
            dispatcher.dispatch(channel, command);
        }
    }

    /**
     * The requests read together from this connection are processed: what they deferred runs once, after the other
     * connections this I/O thread serves in the same turn have been read.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ReadBatch.readComplete(ctx.channel().eventLoop());
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        events.connected(NettyRemotingChannel.of(ctx.channel()));
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ReadBatch.end(); // never leave deferred work behind a read whose end a closing connection skipped
        NettyRemotingChannel channel = NettyRemotingChannel.of(ctx.channel());
        channel.failAllPending();
        events.closed(channel);
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            NettyRemotingChannel channel = NettyRemotingChannel.of(ctx.channel());
            log.info("Closing connection {}: idle for {} s", channel.remoteAddress(), idleSeconds);
            events.idle(channel);
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        NettyRemotingChannel channel = NettyRemotingChannel.of(ctx.channel());
        if (cause instanceof IOException) {
            // Resets and broken pipes are how peers usually leave; not worth a WARN each.
            log.debug("Closing connection {} after an I/O error: {}", channel.remoteAddress(), cause.toString());
        } else {
            warnings.warn("error:" + cause.getClass().getName(), "Closing connection {} after an error: {}",
                    channel.remoteAddress(), cause.toString());
        }
        events.exception(channel, cause);
        ctx.close();
    }
}

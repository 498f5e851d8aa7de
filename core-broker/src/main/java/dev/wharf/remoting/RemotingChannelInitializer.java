package dev.wharf.remoting;

import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.remoting.codec.PartialFrameBudget;
import dev.wharf.remoting.codec.RemotingCommandDecoder;
import dev.wharf.remoting.codec.RemotingCommandEncoder;
import dev.wharf.remoting.codec.RemotingFrameDecoder;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.timeout.IdleStateHandler;
import org.slf4j.LoggerFactory;

/**
 * Builds the pipeline of every connection of an endpoint, server or client alike:
 * <pre>
 *   idle -> frameDecoder -> commandDecoder -> (commandEncoder) -> handler
 * </pre>
 * Stateless handlers are shared by all connections; the frame decoder and the idle timer are per
 * connection, the frame decoders sharing the endpoint's budget for unfinished frames.
 */
@Sharable
final class RemotingChannelInitializer extends ChannelInitializer<Channel> {

    private final NettyEndpointConfig config;
    private final InvokeSupport invoke;
    private final ChannelGroup channels;
    private final RemotingCommandDecoder commandDecoder = new RemotingCommandDecoder();
    private final RemotingCommandEncoder commandEncoder = new RemotingCommandEncoder();
    private final RemotingChannelHandler handler;
    private final PartialFrameBudget frameBudget;
    private PipelineHook hook;
    /** Close lines of all the endpoint's frame decoders share one limiter, so a flood of connections is bounded. */
    private final RateLimitedLog frameWarnings =
            RateLimitedLog.of(LoggerFactory.getLogger(RemotingFrameDecoder.class));

    /** @param frameBudget the bytes of unfinished frames all connections of the endpoint may hold together */
    RemotingChannelInitializer(NettyEndpointConfig config, InvokeSupport invoke, RequestDispatcher dispatcher,
                               ChannelEventDispatcher events, ChannelGroup channels, PartialFrameBudget frameBudget) {
        this.config = config;
        this.frameBudget = frameBudget;
        this.invoke = invoke;
        this.channels = channels;
        this.handler = new RemotingChannelHandler(dispatcher, events, config.getChannelMaxIdleTimeSeconds());
    }

    /** Adds {@code hook}'s handlers at the head of every pipeline (null: none). */
    RemotingChannelInitializer withHook(PipelineHook hook) {
        this.hook = hook;
        return this;
    }

    @Override
    protected void initChannel(Channel channel) {
        NettyRemotingChannel.attach(channel, invoke);
        channels.add(channel);
        ChannelPipeline pipeline = channel.pipeline();
        if (hook != null) {
            hook.initChannel(channel, null, 0);
        }
        if (config.getChannelMaxIdleTimeSeconds() > 0) {
            pipeline.addLast("idle", new IdleStateHandler(0, 0, config.getChannelMaxIdleTimeSeconds()));
        }
        pipeline.addLast("frameDecoder", new RemotingFrameDecoder(config.getMaxFrameLength(), frameBudget,
                config.getPartialFrameTimeoutMillis(), frameWarnings));
        pipeline.addLast("commandDecoder", commandDecoder);
        pipeline.addLast("commandEncoder", commandEncoder);
        pipeline.addLast("handler", handler);
    }
}

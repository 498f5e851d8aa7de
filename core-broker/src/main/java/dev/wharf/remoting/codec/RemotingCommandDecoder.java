package dev.wharf.remoting.codec;

import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingCommandCodec;
import dev.wharf.protocol.RemotingFrameDescriptor;
import dev.wharf.protocol.RemotingFrameException;
import dev.wharf.protocol.ResponseCode;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns each frame (without its length prefix) into a {@link RemotingCommand}; the body is copied out so
 * the frame is released here, always.
 *
 * <p>A frame that does not decode gets a WARN line with the peer and the reason, rate-limited per kind of
 * outcome (a peer can send bad frames as fast as it likes; the log must not grow with them). If it is a request whose
 * opaque could be read, the peer gets a {@link ResponseCode#REQUEST_HEADER_INVALID} response and the
 * connection stays open (framing is intact); a bad one-way request is dropped; anything else (a bad
 * response, or an unreadable opaque) closes the connection, which also fails the requests waiting on it;
 * frames of a closed connection still in the pipeline are dropped without further logs.
 *
 * <p>{@code @Sharable}: it keeps no state between frames (the rate limiter is shared by design).
 */
@Sharable
public class RemotingCommandDecoder extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(RemotingCommandDecoder.class);

    private final RateLimitedLog warnings = RateLimitedLog.of(log);

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf frame)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (!ctx.channel().isActive()) {
            // Closed after an earlier bad frame of the same read: the rest of that read is dropped unlogged.
            frame.release();
            return;
        }
        RemotingCommand command;
        try {
            command = RemotingCommandCodec.decode(frame.nioBuffer());
        } catch (RemotingFrameException e) {
            reject(ctx, e);
            return;
        } finally {
            frame.release();
        }
        ctx.fireChannelRead(command);
    }

    private void reject(ChannelHandlerContext ctx, RemotingFrameException e) {
        String remote = ChannelAddress.remote(ctx.channel());
        if (e.isAnswerableRequest()) {
            warnings.warn("answered", "Bad request frame from {} (opaque {}), answered with an error: {}", remote,
                    e.opaque(), e.getMessage());
            RemotingCommand response = RemotingCommand.createResponse(ResponseCode.REQUEST_HEADER_INVALID,
                    "bad request frame: " + e.getMessage()).setOpaque(e.opaque());
            ctx.channel().writeAndFlush(response);
        } else if (e.hasOpaque() && (e.flag() & RemotingFrameDescriptor.FLAG_RESPONSE) == 0) {
            warnings.warn("dropped", "Bad one-way request frame from {} (opaque {}), dropped: {}", remote,
                    e.opaque(), e.getMessage());
        } else {
            warnings.warn("closed", "Bad frame from {}, closing the connection: {}", remote, e.getMessage());
            ctx.close();
        }
    }
}

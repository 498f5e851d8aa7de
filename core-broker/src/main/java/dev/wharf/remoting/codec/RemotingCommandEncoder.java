package dev.wharf.remoting.codec;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingCommandCodec;
import dev.wharf.protocol.RemotingFrameDescriptor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.nio.ByteBuffer;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a {@link RemotingCommand} as one frame: length prefix, header-length word and header (JSON, or RocketMQ's
 * binary encoding for the answer to a request that came in it) in a
 * pooled buffer, followed by the body. A {@code byte[]} body is copied into that buffer; body buffers
 * (memory-mapped file slices) are wrapped, not copied, as further components of a composite buffer, so
 * the transport hands them to {@code writev} directly. Their {@code onWritten} callback runs exactly
 * once, when the write completed or failed.
 *
 * <p>{@code @Sharable}: it keeps no state between writes.
 */
@Sharable
public class RemotingCommandEncoder extends ChannelOutboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(RemotingCommandEncoder.class);

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof RemotingCommand command)) {
            ctx.write(msg, promise);
            return;
        }
        if (command.hasBodyBuffers()) {
            promise = promise.unvoid();
            promise.addListener(future -> release(command));
        }
        ByteBuf frame;
        try {
            frame = encode(ctx.alloc(), command);
        } catch (RuntimeException e) {
            promise.tryFailure(e);
            return;
        }
        ctx.write(frame, promise);
    }

    /** The whole frame of a command; the caller owns the returned buffer. */
    public static ByteBuf encode(ByteBufAllocator alloc, RemotingCommand command) {
        if (command.bodyBuffersReleased()) {
            throw new IllegalStateException("the body buffers of " + command.describe()
                    + " were already written and released; build a new command to send them again");
        }
        byte[] header = RemotingCommandCodec.encodeHeader(command);
        int totalLength = RemotingCommandCodec.totalLength(command, header.length);
        byte[] body = command.hasBodyBuffers() ? null : command.body();
        int inline = RemotingFrameDescriptor.HEADER_OFFSET + header.length + (body == null ? 0 : body.length);
        ByteBuf head = alloc.buffer(inline);
        head.writeInt(totalLength);
        head.writeInt(RemotingFrameDescriptor.headerLengthWord(command.serializeType(), header.length));
        head.writeBytes(header);
        if (body != null) {
            head.writeBytes(body);
        }
        if (!command.hasBodyBuffers()) {
            return head;
        }
        List<ByteBuffer> buffers = command.bodyBuffers();
        // Room for every component, so the composite never consolidates (copies) them.
        CompositeByteBuf frame = alloc.compositeBuffer(buffers.size() + 1);
        frame.addComponent(true, head);
        for (ByteBuffer buffer : buffers) {
            if (buffer.hasRemaining()) {
                // wrappedBuffer takes a slice: the caller's position and limit are left alone.
                frame.addComponent(true, Unpooled.wrappedBuffer(buffer));
            }
        }
        return frame;
    }

    private static void release(RemotingCommand command) {
        try {
            command.releaseBodyBuffers();
        } catch (RuntimeException e) {
            log.warn("The onWritten callback of {} failed: {}", command.describe(), e.toString());
        }
    }
}

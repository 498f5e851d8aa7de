package dev.wharf.remoting.codec;

import dev.wharf.protocol.RemotingFrameDescriptor;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.ByteOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts the inbound byte stream into frames by their 4-byte total-length prefix and strips the prefix, so
 * each frame passed on starts at the header-length word (see {@link RemotingFrameDescriptor}).
 *
 * <p>A length prefix that is too large or too small means the stream can no longer be trusted: the
 * decoder logs one WARN line with the peer and the reason, drops everything buffered and closes the
 * connection. Other connections are unaffected.
 *
 * <p>Per channel, not {@code @Sharable}: it buffers the partial frame of its connection between reads.
 */
public class RemotingFrameDecoder extends LengthFieldBasedFrameDecoder {

    private static final Logger log = LoggerFactory.getLogger(RemotingFrameDecoder.class);

    private final int maxFrameLength;
    private boolean broken;

    /** @param maxFrameLength the largest whole frame accepted, length prefix included */
    public RemotingFrameDecoder(int maxFrameLength) {
        super(maxFrameLength, RemotingFrameDescriptor.LENGTH_FIELD_OFFSET,
                RemotingFrameDescriptor.LENGTH_FIELD_LENGTH, 0, RemotingFrameDescriptor.LENGTH_FIELD_LENGTH, true);
        this.maxFrameLength = maxFrameLength;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (broken) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        try {
            return super.decode(ctx, in);
        } catch (TooLongFrameException | CorruptedFrameException e) {
            broken = true;
            in.skipBytes(in.readableBytes());
            log.warn("Closing connection from {}: {}", ChannelAddress.remote(ctx.channel()), e.getMessage());
            ctx.close();
            return null;
        }
    }

    /** Checks the prefix as soon as it is readable, so a bad one is refused before any body is buffered. */
    @Override
    protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, ByteOrder order) {
        long totalLength = super.getUnadjustedFrameLength(buf, offset, length, order);
        if (totalLength < RemotingFrameDescriptor.HEADER_LENGTH_WORD_LENGTH) {
            throw new CorruptedFrameException("frame length prefix " + totalLength
                    + " is smaller than the 4-byte header-length word it must cover");
        }
        long frameLength = totalLength + RemotingFrameDescriptor.LENGTH_FIELD_LENGTH;
        if (frameLength > maxFrameLength) {
            throw new TooLongFrameException("frame of " + frameLength + " bytes exceeds the maximum frame length "
                    + maxFrameLength + " (maxFrameLength); send smaller messages or raise the limit on both sides");
        }
        return totalLength;
    }
}

package dev.wharf.remoting.codec;

import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.protocol.RemotingFrameDescriptor;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts the inbound byte stream into frames by their 4-byte total-length prefix and strips the prefix, so
 * each frame passed on starts at the header-length word (see {@link RemotingFrameDescriptor}).
 *
 * <p>A length prefix that is too large or too small means the stream can no longer be trusted: the
 * decoder logs a WARN line with the peer and the reason, drops everything buffered and closes the
 * connection. Other connections are unaffected.
 *
 * <p>The unfinished frame it buffers is bounded three ways: by {@code maxFrameLength}; by the endpoint's
 * {@link PartialFrameBudget}, told after every read how much this connection holds (an exhausted budget closes
 * the largest holders); and by time: a frame still unfinished {@code partialFrameTimeout} after its first byte
 * closes the connection, so a peer cannot hold memory by trickling a frame in byte by byte (slowloris). Close
 * lines are rate-limited per cause.
 *
 * <p>Per channel, not {@code @Sharable}: it buffers the partial frame of its connection between reads.
 */
public class RemotingFrameDecoder extends LengthFieldBasedFrameDecoder {

    private static final Logger log = LoggerFactory.getLogger(RemotingFrameDecoder.class);

    private final int maxFrameLength;
    private final PartialFrameBudget budget;
    private final long partialFrameTimeoutNanos;
    private final RateLimitedLog warnings;
    private PartialFrameBudget.Account account;
    private boolean broken;
    /** A frame was cut during the current read, so what is left over starts a new one. */
    private boolean frameCompleted;
    /** When the unfinished frame held now began; 0 when none is held. */
    private long partialSinceNanos;
    private ScheduledFuture<?> stallCheck;

    /** @param maxFrameLength the largest whole frame accepted, length prefix included */
    public RemotingFrameDecoder(int maxFrameLength) {
        this(maxFrameLength, PartialFrameBudget.unlimited(), 0, RateLimitedLog.of(log));
    }

    /**
     * @param maxFrameLength          the largest whole frame accepted, length prefix included
     * @param budget                  the endpoint's budget for unfinished frames, shared by its connections
     * @param partialFrameTimeoutMillis how long a frame may stay unfinished; 0 = no limit
     * @param warnings                the endpoint's rate limiter for close lines
     */
    public RemotingFrameDecoder(int maxFrameLength, PartialFrameBudget budget, long partialFrameTimeoutMillis,
                                RateLimitedLog warnings) {
        super(maxFrameLength, RemotingFrameDescriptor.LENGTH_FIELD_OFFSET,
                RemotingFrameDescriptor.LENGTH_FIELD_LENGTH, 0, RemotingFrameDescriptor.LENGTH_FIELD_LENGTH, true);
        this.maxFrameLength = maxFrameLength;
        this.budget = budget;
        this.partialFrameTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(partialFrameTimeoutMillis);
        this.warnings = warnings;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        account = budget.open(ctx.channel());
        super.handlerAdded(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        releaseAccount();
        super.handlerRemoved0(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseAccount();
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        frameCompleted = false;
        super.channelRead(ctx, msg);
        if (!broken) {
            afterRead(ctx);
        }
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (broken) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        try {
            Object frame = super.decode(ctx, in);
            if (frame != null) {
                frameCompleted = true;
            }
            return frame;
        } catch (TooLongFrameException | CorruptedFrameException e) {
            breakOff(ctx, in, "bad-prefix", "Closing connection from {}: {}", ChannelAddress.remote(ctx.channel()),
                    e.getMessage());
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

    /**
     * Every complete frame of the read was passed on: what is left is one unfinished frame. The budget is
     * charged the capacity of the buffer holding it, the memory really kept (Netty grows it ahead of the data).
     */
    private void afterRead(ChannelHandlerContext ctx) {
        ByteBuf buffer = internalBuffer();
        long held = buffer.readableBytes();
        account.hold(held == 0 ? 0 : buffer.capacity());
        if (account.closed()) {
            // the budget was exhausted and this connection held the most: the budget closed it
            broken = true;
            return;
        }
        if (held == 0) {
            partialSinceNanos = 0;
            return;
        }
        if (partialSinceNanos == 0 || frameCompleted) {
            partialSinceNanos = System.nanoTime();
        }
        scheduleStallCheck(ctx);
    }

    private void scheduleStallCheck(ChannelHandlerContext ctx) {
        if (partialFrameTimeoutNanos <= 0 || stallCheck != null) {
            return;
        }
        long delay = Math.max(1, partialSinceNanos + partialFrameTimeoutNanos - System.nanoTime());
        stallCheck = ctx.executor().schedule(() -> checkStall(ctx), delay, TimeUnit.NANOSECONDS);
    }

    /** I/O thread: closes the connection if its frame has been unfinished for too long, else looks again later. */
    private void checkStall(ChannelHandlerContext ctx) {
        stallCheck = null;
        if (broken || partialSinceNanos == 0 || !ctx.channel().isActive()) {
            return;
        }
        long waited = System.nanoTime() - partialSinceNanos;
        if (waited < partialFrameTimeoutNanos) {
            scheduleStallCheck(ctx);
            return;
        }
        ByteBuf held = internalBuffer();
        String expected = held.readableBytes() >= RemotingFrameDescriptor.LENGTH_FIELD_LENGTH
                ? String.valueOf(held.getUnsignedInt(held.readerIndex()) + RemotingFrameDescriptor.LENGTH_FIELD_LENGTH)
                : "?";
        breakOff(ctx, held, "stalled", "Closing connection from {}: a frame has been unfinished for {} ms ({} of {}"
                + " bytes received), longer than partialFrameTimeoutMillis ({} ms); the peer is too slow or stalled",
                ChannelAddress.remote(ctx.channel()), TimeUnit.NANOSECONDS.toMillis(waited), held.readableBytes(),
                expected, TimeUnit.NANOSECONDS.toMillis(partialFrameTimeoutNanos));
    }

    private void breakOff(ChannelHandlerContext ctx, ByteBuf in, String key, String format, Object... args) {
        broken = true;
        in.skipBytes(in.readableBytes());
        releaseAccount();
        warnings.warn(key, format, args);
        ctx.close();
    }

    private void releaseAccount() {
        if (account != null) {
            account.release();
        }
        if (stallCheck != null) {
            stallCheck.cancel(false);
            stallCheck = null;
        }
    }
}

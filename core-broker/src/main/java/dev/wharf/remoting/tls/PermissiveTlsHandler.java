package dev.wharf.remoting.tls;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import java.util.List;

/**
 * Lets TLS and plain clients share a port ({@code tlsMode=permissive}): looks at a connection's first byte and puts an
 * {@code SslHandler} in its place when it opens a TLS handshake record (content type 22), else steps aside. A
 * remoting frame starts with its length, whose first byte would be 22 only for frames over 350 MiB, far above any
 * maxFrameLength; Netty's own optional handler also probes SSLv2 headers, which a small frame length can look like.
 *
 * <p>Per connection (stateful: it decides once).
 */
final class PermissiveTlsHandler extends ByteToMessageDecoder {

    private static final int TLS_HANDSHAKE = 22;

    private final SslContext context;

    PermissiveTlsHandler(SslContext context) {
        this.context = context;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return;
        }
        if (in.getUnsignedByte(in.readerIndex()) == TLS_HANDSHAKE) {
            ctx.pipeline().replace(this, "tls", context.newHandler(ctx.alloc()));
        } else {
            ctx.pipeline().remove(this);
        }
    }
}

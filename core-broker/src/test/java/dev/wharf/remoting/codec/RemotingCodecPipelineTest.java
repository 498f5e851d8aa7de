package dev.wharf.remoting.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingCommandCodec;
import dev.wharf.protocol.RemotingFrameDescriptor;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RemotingCodecPipelineTest {

    private static final int MAX_FRAME = 4096;

    private static EmbeddedChannel pipeline() {
        return new EmbeddedChannel(new RemotingFrameDecoder(MAX_FRAME), new RemotingCommandDecoder(),
                new RemotingCommandEncoder());
    }

    private static ByteBuf wire(RemotingCommand command) {
        return Unpooled.wrappedBuffer(RemotingCommandCodec.encode(command));
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        buf.release();
        return out;
    }

    @Test
    void decodesFramesSplitAndCoalescedAcrossReads() {
        EmbeddedChannel channel = pipeline();
        ByteBuf first = wire(RemotingCommand.createRequest(RequestCode.SEND_MESSAGE).setBody(new byte[] {1, 2}));
        ByteBuf second = wire(RemotingCommand.createRequest(RequestCode.PULL_MESSAGE).putExt("queueId", 1));
        ByteBuf stream = Unpooled.wrappedBuffer(first, second);

        // One byte at a time for the first part, then the rest at once.
        for (int i = 0; i < 20; i++) {
            channel.writeInbound(stream.readRetainedSlice(1));
        }
        channel.writeInbound(stream.readRetainedSlice(stream.readableBytes()));
        stream.release();

        RemotingCommand a = channel.readInbound();
        RemotingCommand b = channel.readInbound();
        assertThat(a.code()).isEqualTo(RequestCode.SEND_MESSAGE);
        assertThat(a.body()).containsExactly(1, 2);
        assertThat(b.extFields()).containsEntry("queueId", "1");
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void closesTheConnectionOnAFrameOverTheMaximum() {
        EmbeddedChannel channel = pipeline();
        ByteBuf buf = Unpooled.buffer().writeInt(MAX_FRAME).writeInt(0).writeBytes(new byte[100]);

        channel.writeInbound(buf);

        assertThat(channel.isOpen()).isFalse();
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(buf.refCnt()).isZero();
    }

    @Test
    void closesTheConnectionOnALengthPrefixTooSmallOrNegative() {
        for (int prefix : new int[] {0, 3, -1, Integer.MIN_VALUE}) {
            EmbeddedChannel channel = pipeline();
            channel.writeInbound(Unpooled.buffer().writeInt(prefix).writeLong(0));
            assertThat(channel.isOpen()).as("prefix %d", prefix).isFalse();
        }
    }

    @Test
    void answersABadRequestWhoseOpaqueIsKnownAndKeepsServing() throws Exception {
        EmbeddedChannel channel = pipeline();
        byte[] header = "{\"code\":\"x\",\"opaque\":77,\"flag\":0}".getBytes(StandardCharsets.UTF_8);
        channel.writeInbound(Unpooled.buffer().writeInt(4 + header.length)
                .writeInt(RemotingFrameDescriptor.headerLengthWord(0, header.length)).writeBytes(header));

        ByteBuf out = channel.readOutbound();
        RemotingCommand answer = RemotingCommandCodec.decode(ByteBuffer.wrap(bytes(out)).position(4));
        assertThat(answer.isResponse()).isTrue();
        assertThat(answer.opaque()).isEqualTo(77);
        assertThat(answer.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(answer.remark()).contains("'code'");
        assertThat(channel.isOpen()).isTrue();

        channel.writeInbound(wire(RemotingCommand.createRequest(RequestCode.HEART_BEAT)));
        assertThat(((RemotingCommand) channel.readInbound()).code()).isEqualTo(RequestCode.HEART_BEAT);
        channel.finishAndReleaseAll();
    }

    @Test
    void closesOnAnUnreadableHeaderWhoseOpaqueIsUnknown() {
        EmbeddedChannel channel = pipeline();
        byte[] header = "not json".getBytes(StandardCharsets.UTF_8);
        channel.writeInbound(Unpooled.buffer().writeInt(4 + header.length)
                .writeInt(RemotingFrameDescriptor.headerLengthWord(0, header.length)).writeBytes(header));

        assertThat(channel.isOpen()).isFalse();
        assertThat((Object) channel.readOutbound()).isNull();
    }

    @Test
    void encodesTheSameBytesAsThePureCodec() {
        EmbeddedChannel channel = pipeline();
        RemotingCommand command = RemotingCommand.createRequest(RequestCode.SEND_MESSAGE)
                .putExt("topic", "T").setRemark("r").setBody("hello".getBytes(StandardCharsets.UTF_8));

        channel.writeOutbound(command);

        byte[] expected = new byte[RemotingCommandCodec.encode(command).remaining()];
        RemotingCommandCodec.encode(command).get(expected);
        assertThat(bytes(channel.readOutbound())).isEqualTo(expected);
    }

    @Test
    void writesBodyBuffersWithoutCopyingAndReleasesThemOnce() throws Exception {
        EmbeddedChannel channel = pipeline();
        ByteBuffer mapped = ByteBuffer.allocateDirect(8).put("abcdefgh".getBytes(StandardCharsets.US_ASCII)).flip();
        ByteBuffer slice = mapped.slice(2, 4);
        AtomicInteger released = new AtomicInteger();
        RemotingCommand response = RemotingCommand.createResponse(ResponseCode.SUCCESS, null).setOpaque(5)
                .setBodyBuffers(List.of(slice, ByteBuffer.allocateDirect(0)), released::incrementAndGet);

        ChannelFuture write = channel.writeAndFlush(response);

        assertThat(write.isSuccess()).isTrue();
        assertThat(released).hasValue(1);
        ByteBuf out = channel.readOutbound();
        assertThat(out).isInstanceOf(CompositeByteBuf.class);
        // The frame still points at the caller's memory: a change made now shows up in it.
        mapped.put(2, (byte) 'C');
        RemotingCommand decoded = RemotingCommandCodec.decode(ByteBuffer.wrap(bytes(out)).position(4));
        assertThat(new String(decoded.body(), StandardCharsets.US_ASCII)).isEqualTo("Cdef");
        assertThat(slice.position()).isZero();
        assertThat(released).hasValue(1);

        channel.writeAndFlush(response).awaitUninterruptibly();
        assertThat(channel.outboundMessages()).isEmpty();
        assertThat(released).hasValue(1);
    }

    @Test
    void releasesBodyBuffersOnceWhenTheWriteFails() {
        // Stands in for the socket: fails every write the way a broken connection does.
        ChannelOutboundHandlerAdapter brokenSocket = new ChannelOutboundHandlerAdapter() {
            @Override
            public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                ReferenceCountUtil.release(msg);
                promise.setFailure(new IOException("Broken pipe"));
            }
        };
        EmbeddedChannel channel = new EmbeddedChannel(brokenSocket, new RemotingCommandEncoder());
        AtomicInteger released = new AtomicInteger();
        RemotingCommand response = RemotingCommand.createResponse(ResponseCode.SUCCESS, null)
                .setBodyBuffers(List.of(ByteBuffer.allocateDirect(16)), released::incrementAndGet);

        ChannelFuture write = channel.writeAndFlush(response);

        assertThat(write.cause()).isInstanceOf(IOException.class);
        assertThat(released).hasValue(1);
    }
}

package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An ACCEPTED frame carries the master's whole epoch history; after dozens of elections it outgrows the header
 * buffer, and the master could no longer accept a single slave (a long chaos run stalled that way).
 */
@Timeout(30)
class FrameChannelTest {

    @Test
    void aBodyLargerThanTheHeaderBufferIsWrittenWhole() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel out = SocketChannel.open(server.getLocalAddress());
                    SocketChannel in = server.accept()) {
                int entries = 500; // an epoch history of 500 elections
                ByteBuffer body = ByteBuffer.allocate(HaFrame.ACCEPTED_SIZE + HaFrame.EPOCH_ENTRY_SIZE * entries);
                body.putLong(123).putLong(45);
                for (int i = 1; i <= entries; i++) {
                    body.putInt(i).putLong(i * 1_000L);
                }
                body.flip();
                new FrameChannel(out, 64 * 1024).write(HaFrame.TYPE_ACCEPTED, entries, body, null);

                FrameChannel reader = new FrameChannel(in, 64 * 1024);
                reader.readFrame();
                assertThat(reader.type()).isEqualTo(HaFrame.TYPE_ACCEPTED);
                assertThat(reader.epoch()).isEqualTo(entries);
                ByteBuffer got = reader.body();
                assertThat(got.remaining()).isEqualTo(HaFrame.ACCEPTED_SIZE + HaFrame.EPOCH_ENTRY_SIZE * entries);
                assertThat(got.getLong()).isEqualTo(123);
                assertThat(got.getLong()).isEqualTo(45);
                for (int i = 1; i <= entries; i++) {
                    assertThat(got.getInt()).isEqualTo(i);
                    assertThat(got.getLong()).isEqualTo(i * 1_000L);
                }
            }
        }
    }
}

package dev.wharf.broker.ha;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/** A hand-driven end of an HA connection, for tests that send what a real peer never would. */
final class FakePeer implements AutoCloseable {

    final SocketChannel channel;
    int type;
    ByteBuffer body;

    private FakePeer(SocketChannel channel) {
        this.channel = channel;
    }

    static FakePeer connect(String address) throws IOException {
        int colon = address.lastIndexOf(':');
        SocketChannel channel = SocketChannel.open(new InetSocketAddress(address.substring(0, colon),
                Integer.parseInt(address.substring(colon + 1))));
        return new FakePeer(channel);
    }

    static FakePeer of(SocketChannel channel) {
        return new FakePeer(channel);
    }

    void writeRaw(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    void write(int type, ByteBuffer body) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(HaFrame.HEADER_SIZE + body.remaining());
        HaFrame.putHeader(frame, type, body.remaining(), HaFrame.CLASSIC_EPOCH);
        frame.put(body).flip();
        writeRaw(frame);
    }

    void handshake(String brokerName, long brokerId, long maxOffset, long lastOffset, int lastSize, int lastCrc)
            throws IOException {
        byte[] name = brokerName.getBytes(StandardCharsets.UTF_8);
        ByteBuffer body = ByteBuffer.allocate(HaFrame.HANDSHAKE_FIXED_SIZE + name.length);
        body.putLong(maxOffset).putLong(brokerId).putLong(lastOffset).putInt(lastSize).putInt(lastCrc)
                .putShort((short) name.length).put(name).flip();
        write(HaFrame.TYPE_HANDSHAKE, body);
    }

    void ack(long offset) throws IOException {
        write(HaFrame.TYPE_ACK, ByteBuffer.allocate(8).putLong(0, offset));
    }

    /** Reads one frame into {@link #type} and {@link #body}. */
    void read() throws IOException {
        ByteBuffer header = ByteBuffer.allocate(HaFrame.HEADER_SIZE);
        readFully(header);
        type = header.getInt(HaFrame.TYPE_OFFSET);
        body = ByteBuffer.allocate(header.getInt(HaFrame.BODY_LENGTH_OFFSET));
        readFully(body);
        body.flip();
    }

    /** Reads frames until a REFUSED arrives; returns its reason and message. */
    String readRefusal() throws IOException {
        do {
            read();
        } while (type != HaFrame.TYPE_REFUSED);
        int reason = body.getInt();
        byte[] text = new byte[body.remaining()];
        body.get(text);
        return HaFrame.reasonName(reason) + ": " + new String(text, StandardCharsets.UTF_8);
    }

    /** Whether the other side closed the connection (reads until end of stream). */
    boolean closedByPeer() throws IOException {
        ByteBuffer sink = ByteBuffer.allocate(64 * 1024);
        try {
            while (true) {
                sink.clear();
                if (channel.read(sink) < 0) {
                    return true;
                }
            }
        } catch (IOException e) {
            return true;
        }
    }

    private void readFully(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw new EOFException("closed");
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}

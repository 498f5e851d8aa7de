package dev.wharf.broker.ha;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * One end of an HA connection: a blocking socket channel (plain, or TLS once {@link #use} installed it) that reads
 * whole frames into a buffer it reuses and writes frames whole. Reads happen on one thread; writes may come from two (transfer and refusal, or ack and
 * heartbeat), so they are serialized on this object.
 */
final class FrameChannel implements AutoCloseable {

    private final SocketChannel channel;
    private volatile HaStream io;
    private final String peer;
    private final ByteBuffer header = ByteBuffer.allocate(HaFrame.HEADER_SIZE);
    private final ByteBuffer outHeader = ByteBuffer.allocateDirect(HaFrame.HEADER_SIZE + 512);
    private final ByteBuffer[] gather = new ByteBuffer[2];
    private ByteBuffer body = ByteBuffer.allocateDirect(64 * 1024);
    private final int maxBodyLength;
    private int type;
    private int epoch;
    private volatile long lastReadMillis = System.currentTimeMillis();
    private volatile long lastWriteMillis = System.currentTimeMillis();

    FrameChannel(SocketChannel channel, int maxBodyLength) {
        this.channel = channel;
        this.io = HaStream.plain(channel, null);
        this.maxBodyLength = maxBodyLength;
        String address;
        try {
            SocketAddress remote = channel.getRemoteAddress();
            address = remote == null ? "?" : remote.toString();
        } catch (IOException e) {
            address = "?";
        }
        this.peer = address.startsWith("/") ? address.substring(1) : address;
    }

    String peer() {
        return peer;
    }

    /** The socket under the stream (to set up TLS on it). */
    SocketChannel socket() {
        return channel;
    }

    /** Reads and writes through {@code stream} from now on (after a TLS handshake, or a peeked first byte). */
    void use(HaStream stream) {
        this.io = stream;
    }

    long lastReadMillis() {
        return lastReadMillis;
    }

    long lastWriteMillis() {
        return lastWriteMillis;
    }

    /**
     * Reads the next frame; afterwards {@link #type()}, {@link #epoch()} and {@link #body()} (position 0, limit the
     * body length) describe it until the next read.
     *
     * @throws HaProtocolException the bytes are not an HA frame, or the body is longer than allowed
     * @throws EOFException        the peer closed the connection
     */
    void readFrame() throws IOException, HaProtocolException {
        header.clear();
        readFully(header);
        int magic = header.getInt(HaFrame.MAGIC_OFFSET);
        if (magic != HaFrame.MAGIC) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, String.format("%s sent bytes that are not an HA"
                    + " frame (magic 0x%08X, expected 0x%08X); only Wharf brokers of the same group may connect to"
                    + " the HA port", peer, magic, HaFrame.MAGIC));
        }
        type = header.getInt(HaFrame.TYPE_OFFSET);
        epoch = header.getInt(HaFrame.EPOCH_OFFSET);
        int length = header.getInt(HaFrame.BODY_LENGTH_OFFSET);
        if (length < 0 || length > maxBodyLength) {
            throw new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, peer + " sent a " + HaFrame.typeName(type)
                    + " frame of " + length + " bytes; at most " + maxBodyLength + " are allowed");
        }
        if (body.capacity() < length) {
            body = ByteBuffer.allocateDirect(Math.max(length, body.capacity() * 2));
        }
        body.clear().limit(length);
        readFully(body);
        body.flip();
    }

    int type() {
        return type;
    }

    int epoch() {
        return epoch;
    }

    ByteBuffer body() {
        return body;
    }

    private void readFully(ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (io.read(buffer) < 0) {
                throw new EOFException(peer + " closed the connection");
            }
            lastReadMillis = System.currentTimeMillis();
        }
    }

    /** Writes a frame whose body is {@code fixed} (small, position 0 to limit) followed by {@code data} (may be null). */
    synchronized void write(int type, int epoch, ByteBuffer fixed, ByteBuffer data) throws IOException {
        if (data == null && fixed != null && fixed.remaining() > outHeader.capacity() - HaFrame.HEADER_SIZE) {
            // a body larger than the header buffer (a long epoch history) goes out gathered after the header
            data = fixed;
            fixed = null;
        }
        int fixedLength = fixed == null ? 0 : fixed.remaining();
        int dataLength = data == null ? 0 : data.remaining();
        outHeader.clear();
        HaFrame.putHeader(outHeader, type, fixedLength + dataLength, epoch);
        if (fixed != null) {
            outHeader.put(fixed);
        }
        outHeader.flip();
        if (data == null || dataLength == 0) {
            writeFully(outHeader);
        } else {
            gather[0] = outHeader;
            gather[1] = data;
            io.write(gather);
            gather[1] = null;
        }
        lastWriteMillis = System.currentTimeMillis();
    }

    /** Writes a REFUSED frame, ignoring failures (the connection is closed next anyway). */
    void refuse(int reason, int epoch, String message) {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(text.length, HaFrame.MAX_REFUSAL_SIZE - 4);
        ByteBuffer body = ByteBuffer.allocate(4 + length);
        body.putInt(reason).put(text, 0, length).flip();
        try {
            synchronized (this) {
                ByteBuffer frame = ByteBuffer.allocate(HaFrame.HEADER_SIZE + body.remaining());
                HaFrame.putHeader(frame, HaFrame.TYPE_REFUSED, body.remaining(), epoch);
                frame.put(body).flip();
                writeFully(frame);
            }
        } catch (IOException e) {
            // the peer is gone; the refusal is logged by the caller
        }
    }

    /** Reads a REFUSED body into an exception. */
    static HaProtocolException refusal(ByteBuffer body, String peer) {
        if (body.remaining() < 4) {
            return new HaProtocolException(HaFrame.REFUSED_BAD_FRAME, peer + " refused without a reason");
        }
        int reason = body.getInt();
        byte[] text = new byte[body.remaining()];
        body.get(text);
        return new HaProtocolException(reason, new String(text, StandardCharsets.UTF_8));
    }

    private void writeFully(ByteBuffer buffer) throws IOException {
        io.write(buffer);
    }

    boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing: nothing to do
        }
    }
}

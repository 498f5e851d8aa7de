package dev.wharf.broker.ha;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLSocket;

/**
 * The byte stream under a {@link FrameChannel}: the socket itself, or TLS over it. One thread reads; writes are
 * serialized by the frame channel. Closing is the frame channel's job (it closes the socket, which ends a blocked
 * read or write of either kind).
 */
interface HaStream {

    /** Reads some bytes into {@code dst}; -1 at the end of the stream. Blocks until at least one byte came. */
    int read(ByteBuffer dst) throws IOException;

    /** Writes all of {@code srcs}, in order. */
    void write(ByteBuffer... srcs) throws IOException;

    /** The socket itself; {@code prefix} (may be null) holds bytes already read from it, served first. */
    static HaStream plain(SocketChannel socket, ByteBuffer prefix) {
        return new Plain(socket, prefix);
    }

    /** TLS over a socket whose handshake is done. */
    static HaStream tls(SSLSocket socket) throws IOException {
        return new Tls(socket.getInputStream(), socket.getOutputStream());
    }

    /** Straight to the socket: mapped-file slices leave without a copy. */
    final class Plain implements HaStream {

        private final SocketChannel socket;
        private ByteBuffer prefix;

        Plain(SocketChannel socket, ByteBuffer prefix) {
            this.socket = socket;
            this.prefix = prefix != null && prefix.hasRemaining() ? prefix : null;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            ByteBuffer p = prefix;
            if (p != null) {
                int n = Math.min(p.remaining(), dst.remaining());
                dst.put(dst.position(), p, p.position(), n).position(dst.position() + n);
                p.position(p.position() + n);
                if (!p.hasRemaining()) {
                    prefix = null;
                }
                return n;
            }
            return socket.read(dst);
        }

        @Override
        public void write(ByteBuffer... srcs) throws IOException {
            while (anyRemaining(srcs)) {
                socket.write(srcs);
            }
        }

        private static boolean anyRemaining(ByteBuffer[] srcs) {
            for (ByteBuffer b : srcs) {
                if (b.hasRemaining()) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Through the JDK's TLS socket: bytes are copied once through a heap buffer each way (encryption copies them
     * anyway), and a write packs the frame's parts into as few TLS records as fit.
     */
    final class Tls implements HaStream {

        /** Payload of one TLS record: a write of this size becomes one record. */
        private static final int RECORD = 16 * 1024;

        private final InputStream in;
        private final OutputStream out;
        private final byte[] readBuffer = new byte[RECORD];
        private final byte[] writeBuffer = new byte[4 * RECORD];

        Tls(InputStream in, OutputStream out) {
            this.in = in;
            this.out = out;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            int n = in.read(readBuffer, 0, Math.min(readBuffer.length, dst.remaining()));
            if (n > 0) {
                dst.put(readBuffer, 0, n);
            }
            return n;
        }

        @Override
        public void write(ByteBuffer... srcs) throws IOException {
            int filled = 0;
            for (ByteBuffer src : srcs) {
                while (src.hasRemaining()) {
                    int n = Math.min(src.remaining(), writeBuffer.length - filled);
                    src.get(writeBuffer, filled, n);
                    filled += n;
                    if (filled == writeBuffer.length) {
                        out.write(writeBuffer, 0, filled);
                        filled = 0;
                    }
                }
            }
            if (filled > 0) {
                out.write(writeBuffer, 0, filled);
            }
        }
    }
}

package dev.wharf.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a file at given positions (pwrite(2)) through a channel it opens on the first write and keeps until
 * {@link #close()}, so a file that is appended to for a while costs one open, and a file that is only read holds
 * no descriptor. A failed write closes the channel (an interrupt of the writing thread has closed it already); the
 * next write opens a new one. Single writer; {@link #close()} may come from another thread once writes have ended.
 */
final class PositionalWriter {

    private static final Logger log = LoggerFactory.getLogger(PositionalWriter.class);

    /**
     * Most bytes handed to one write: the JDK copies a heap buffer into a temporary direct buffer of the same size
     * and keeps it for the thread, so a batch of many megabytes written at once would pin that much direct memory
     * on every thread that ever wrote one.
     */
    static final int MAX_WRITE_BYTES = 256 * 1024;

    private final Path path;
    private volatile FileChannel channel;

    PositionalWriter(Path path) {
        this.path = path;
    }

    /**
     * Writes {@code data} (position to limit) at {@code at}, all of it or, on failure, an unknown part of it.
     *
     * @throws IOException the channel's failure; a {@link java.nio.channels.ClosedByInterruptException} when the
     *         writing thread was interrupted
     */
    void write(ByteBuffer data, long at) throws IOException {
        int start = data.position();
        try {
            FileChannel ch = channel;
            if (ch == null) {
                ch = FileChannel.open(path, StandardOpenOption.WRITE);
                channel = ch;
            }
            while (data.hasRemaining()) {
                long position = at + (data.position() - start);
                if (data.remaining() <= MAX_WRITE_BYTES) {
                    ch.write(data, position);
                } else {
                    int wrote = ch.write(data.slice(data.position(), MAX_WRITE_BYTES), position);
                    data.position(data.position() + wrote);
                }
            }
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    boolean isOpen() {
        return channel != null;
    }

    void close() {
        FileChannel ch = channel;
        channel = null;
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                log.debug("Could not close the write channel of {}: {}", path, e.toString());
            }
        }
    }
}

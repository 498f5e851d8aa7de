package dev.wharf.store.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The disk blocks of one mapped file, given ahead of its writer. A sparse file has no blocks until written, and a
 * write or read through the mapping of a byte the full disk cannot hold faults (SIGBUS, seen by Java as an
 * {@link InternalError}). So zeros are written through a file channel, where a full disk is an ordinary
 * {@link IOException}, in steps, before the writer gets there; and what a truncation leaves behind is zeroed the same
 * way, so recovery always meets zeros right after the last record written. Writer thread only.
 */
final class BlockReservation {

    private static final Logger log = LoggerFactory.getLogger(BlockReservation.class);
    /** Bytes written per call when filling a range. */
    static final int FILL_CHUNK = 1024 * 1024;
    /** One shared direct buffer of zeros, never written, so views of it are safe on any thread. */
    static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(FILL_CHUNK).asReadOnlyBuffer();

    private final Path path;
    private final int fileSize;
    /** Whether the file did not exist before its mapping created it (nothing of an earlier run can be in it). */
    private final boolean createdEmpty;
    /** Bytes from the start known to have disk blocks, so mapped writes below cannot fault. */
    private int reservedPosition;
    /** Bytes reserved at a time (the whole file unless the owner sets a step). */
    private int step;
    /** Whether zero-filling above the write position is forced before records follow it. */
    private boolean durableZeroFill;
    /** Whether zeros go a page per write and every reservation is forced (a file forced per record). */
    private boolean forcedPerRecord;

    BlockReservation(Path path, int fileSize, boolean createdEmpty) {
        this.path = path;
        this.fileSize = fileSize;
        this.createdEmpty = createdEmpty;
        this.step = fileSize;
    }

    void setStep(int step, boolean durableZeroFill) {
        this.step = step;
        this.durableZeroFill = durableZeroFill;
    }

    void setForcedPerRecord(boolean forcedPerRecord) {
        this.forcedPerRecord = forcedPerRecord;
    }

    /** Whether the file is forced a record at a time, so its appends go through write(2) as well. */
    boolean forcedPerRecord() {
        return forcedPerRecord;
    }

    int reservedPosition() {
        return reservedPosition;
    }

    /** Gives blocks to every byte below {@code position} plus one page, zero-filling from {@code writePosition}. */
    void reserve(int position, int writePosition) throws IOException {
        int needed = (int) Math.min(fileSize, (long) position + MappedFile.OS_PAGE_SIZE);
        if (needed <= reservedPosition) {
            return;
        }
        int from = Math.max(reservedPosition, writePosition);
        int to = (int) Math.min(fileSize, ((long) needed + step - 1) / step * step);
        fill(from, to, false, forcedPerRecord || durableZeroFill && !createdEmpty);
        reservedPosition = to;
    }

    /** {@link #reserve} for an append; false, with nothing reserved, when the file system has no room. */
    boolean reserveQuietly(int position, int writePosition) {
        if (position + MappedFile.OS_PAGE_SIZE <= reservedPosition) {
            return true;
        }
        try {
            reserve(position, writePosition);
            return true;
        } catch (IOException e) {
            log.debug("No room for {} bytes in {}: {}", position, path, e.toString());
            return false;
        }
    }

    /** Gives blocks to {@code [0, position)} by writing back what is there. */
    void reserveKeepingContent(int position) throws IOException {
        if (position > reservedPosition) {
            fill(reservedPosition, position, true, false);
            reservedPosition = position;
        }
    }

    /** Records that the bytes below {@code position} have blocks already (written by an earlier run). */
    void assume(int position) {
        reservedPosition = Math.max(reservedPosition, position);
    }

    /** Zeroes from {@code position} to the end of the first step after it, forced; see {@link MappedFile#zeroFrom}. */
    void zeroFrom(int position) {
        int to = (int) Math.min(fileSize, ((long) position + MappedFile.OS_PAGE_SIZE + step - 1) / step * step);
        try {
            fill(position, to, false, true);
            reservedPosition = to;
        } catch (IOException e) {
            reservedPosition = Math.min(reservedPosition, position);
            log.warn("Could not zero {} from byte {} ({}); new records wait until there is room", path, position,
                    e.getMessage());
        }
    }

    /**
     * Writes {@code [from, to)} through a channel of its own (the mapping's channel may be closed), with zeros or
     * with the bytes already there, forcing them when asked.
     */
    private void fill(int from, int to, boolean keepContent, boolean force) throws IOException {
        if (from >= to) {
            return;
        }
        ByteBuffer copy = keepContent ? ByteBuffer.allocate(Math.min(FILL_CHUNK, to - from)) : null;
        // zeros of a file forced per record go a page per write (see MappedFile.setForcedPerRecord); copies keep
        // their pages
        int chunkSize = forcedPerRecord && !keepContent ? MappedFile.OS_PAGE_SIZE : FILL_CHUNK;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (long pos = from; pos < to;) {
                int length = (int) Math.min(chunkSize, to - pos);
                ByteBuffer chunk;
                if (keepContent) {
                    chunk = copy.clear().limit(length);
                    Arrays.fill(copy.array(), 0, length, (byte) 0);
                    while (chunk.hasRemaining() && ch.read(chunk, pos + chunk.position()) >= 0) {
                        // a short read only happens at the end of a file that is shorter than its mapping
                    }
                    chunk.rewind();
                } else {
                    chunk = ZEROS.duplicate().limit(length);
                }
                while (chunk.hasRemaining()) {
                    ch.write(chunk, pos + chunk.position());
                }
                pos += length;
            }
            if (force) {
                ch.force(false);
            }
        } catch (IOException e) {
            throw new IOException("Could not reserve disk space for " + path + " (bytes " + from + " to " + to
                    + "): " + e.getMessage(), e);
        }
    }
}

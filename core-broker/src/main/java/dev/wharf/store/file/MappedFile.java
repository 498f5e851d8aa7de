package dev.wharf.store.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fixed-size file mapped into memory, named by the global offset of its first byte as 20 zero-padded
 * digits ({@code 00000000001073741824}). Entries are appended at the write position; everything below it is
 * readable; everything below the flushed position has been forced to disk.
 *
 * <p>Thread-safety: one writer at a time appends (the owner's put lock or single writer thread guarantees
 * it); any number of readers select views concurrently with the writer, seeing exactly the bytes below the
 * write position (published by a volatile store after the bytes are written). {@link #flush(int)} may run
 * on another thread than the writer. Views hold a reference, so {@link #destroy(long)} unmaps only when the
 * last view is released.
 */
public final class MappedFile extends ReferenceResource {

    public static final int OS_PAGE_SIZE = 4096;
    /** Length of a file name: the start offset as zero-padded decimal digits. */
    public static final int FILE_NAME_LENGTH = 20;

    private static final Logger log = LoggerFactory.getLogger(MappedFile.class);

    private final Path path;
    private final String fileName;
    private final long fileFromOffset;
    private final int fileSize;
    private final MappedByteBuffer mapped;
    /** A duplicate owned by the single writer, so appends never touch the readers' view of positions. */
    private final ByteBuffer writeView;
    private final AtomicInteger wrotePosition = new AtomicInteger();
    private final AtomicInteger flushedPosition = new AtomicInteger();
    private volatile long storeTimestamp;
    private volatile boolean firstCreateInQueue;
    /** The disk blocks given ahead of the writer; writer-owned. */
    private final BlockReservation blocks;
    /** Writes the appends of a file forced per record; holds a descriptor only until the file is full. */
    private final PositionalWriter writer;

    /**
     * Maps {@code path}, creating it (sparse) at {@code fileSize} bytes when missing. The file name must be the
     * 20-digit start offset.
     */
    public MappedFile(Path path, int fileSize) throws IOException {
        this(path, fileSize, parseOffset(path.getFileName().toString()));
    }

    /**
     * Maps {@code path} like {@link #MappedFile(Path, int)} for a file whose name is not its start offset (an
     * index file is named by its creation time); {@code fileFromOffset} is what {@link #getFileFromOffset()}
     * reports.
     */
    public MappedFile(Path path, int fileSize, long fileFromOffset) throws IOException {
        if (fileSize <= 0) {
            throw new IllegalArgumentException("mapped file size must be positive, got " + fileSize);
        }
        this.path = path;
        this.fileName = path.getFileName().toString();
        this.fileFromOffset = fileFromOffset;
        this.fileSize = fileSize;
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        boolean createdEmpty = !Files.exists(path);
        // the mapping outlives the channel: keeping no descriptor open lets a store hold far more files than
        // the process's open-file limit; forcing goes through the mapping (msync), which needs no descriptor
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            this.mapped = ch.map(FileChannel.MapMode.READ_WRITE, 0, fileSize);
        } catch (IOException | RuntimeException e) {
            throw new IOException("Could not map " + path + " (" + fileSize + " bytes): " + e.getMessage(), e);
        }
        this.blocks = new BlockReservation(path, fileSize, createdEmpty);
        this.writeView = mapped.duplicate();
        this.writer = new PositionalWriter(path);
        this.storeTimestamp = Files.getLastModifiedTime(path).toMillis();
    }

    /** The 20-digit file name for a start offset. */
    public static String fileName(long startOffset) {
        if (startOffset < 0) {
            throw new IllegalArgumentException("negative file offset " + startOffset);
        }
        String digits = Long.toString(startOffset);
        return "0".repeat(FILE_NAME_LENGTH - digits.length()) + digits;
    }

    /** The start offset a 20-digit file name stands for. */
    public static long parseOffset(String fileName) {
        if (fileName.length() != FILE_NAME_LENGTH || !fileName.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("\"" + fileName + "\" is not a store file name: expected "
                    + FILE_NAME_LENGTH + " decimal digits giving the file's start offset.");
        }
        return Long.parseLong(fileName);
    }

    /** Whether a name looks like a store file (20 digits). */
    public static boolean isStoreFileName(String fileName) {
        return fileName.length() == FILE_NAME_LENGTH && fileName.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /**
     * Copies {@code data} (position to limit) at the write position, reserving disk blocks first.
     *
     * @return false, writing nothing, when the rest of the file is too small or the file system has no room
     *         for it (see {@link #reserve(int)})
     */
    public boolean append(ByteBuffer data) {
        return append(data, false);
    }

    /**
     * Copies {@code trailer} (position to limit; may be empty) at the write position and moves the position to the
     * end of the file, so the bytes after the trailer count as written: a file closed early because the next
     * entry does not fit.
     *
     * @return false, writing nothing, under the same conditions as {@link #append(ByteBuffer)}
     */
    public boolean appendLast(ByteBuffer trailer) {
        return append(trailer, true);
    }

    /** Copies {@code length} bytes of {@code data} from {@code offset}; false when they do not fit. */
    public boolean append(byte[] data, int offset, int length) {
        return append(ByteBuffer.wrap(data, offset, length), false);
    }

    /**
     * Appends through the mapping, or with write(2) for a file forced per record.
     *
     * @throws UncheckedIOException when the write(2) fails; its cause is a
     *         {@link java.nio.channels.ClosedByInterruptException} when the writing thread was interrupted (nothing
     *         was appended, the file stays usable) and any other {@link IOException} for a fault of the disk
     */
    private boolean append(ByteBuffer data, boolean last) {
        int current = wrotePosition.get();
        int length = data.remaining();
        if (length > fileSize - current || !blocks.reserveQuietly(current + length, current)) {
            return false;
        }
        if (blocks.forcedPerRecord()) {
            writeThrough(data, current);
        } else {
            writeView.limit(fileSize).position(current);
            writeView.put(data);
        }
        advance(last ? fileSize : current + length);
        return true;
    }

    private void advance(int position) {
        wrotePosition.set(position);
        storeTimestamp = System.currentTimeMillis();
        if (position == fileSize) {
            writer.close();
        }
    }

    /**
     * Writes with pwrite(2) rather than through the mapping. After each force Linux write-protects the forced
     * pages of a writable mapping, so the next record written through it takes a page fault that asks the file
     * system for the page again (ext4_page_mkwrite); a file forced after every record paid that on every record.
     * The page cache is the same either way, so readers of the mapping see the bytes and forcing the mapping's
     * range (msync) writes them.
     */
    private void writeThrough(ByteBuffer data, int at) {
        int length = data.remaining();
        try {
            writer.write(data, at);
        } catch (IOException e) {
            scrub(at, length);
            throw new UncheckedIOException("Could not write " + length + " bytes at position " + at + " of " + path
                    + ": " + e, e);
        }
    }

    /**
     * Zeroes what a failed write may have left above the write position, so that no complete record that was
     * never acknowledged can be recovered from there if no later append overwrites it. Through the mapping, since
     * an interrupted thread can use no channel. Best effort: when the disk itself failed, the store stops taking
     * messages anyway.
     */
    private void scrub(int at, int length) {
        try {
            ByteBuffer view = mapped.duplicate();
            for (int pos = at, end = at + length; pos < end;) {
                int chunk = Math.min(BlockReservation.FILL_CHUNK, end - pos);
                view.limit(pos + chunk).position(pos);
                view.put(BlockReservation.ZEROS.duplicate().limit(chunk));
                pos += chunk;
            }
        } catch (InternalError e) {
            log.debug("Could not zero a failed write at {} of {}: {}", at, path, e.toString());
        }
    }

    /** Whether a write channel is open (for tests: a full or shut-down file holds no descriptor). */
    boolean hasOpenWriteChannel() {
        return writer.isOpen();
    }

    /**
     * A view of {@code size} bytes at {@code pos} within this file, or null when they are not all written yet
     * or the file is being destroyed. The caller must release the result.
     */
    public SelectMappedBufferResult selectMappedBuffer(int pos, int size) {
        int readPosition = getReadPosition();
        if (pos < 0 || size < 0 || pos + size > readPosition) {
            return null;
        }
        if (!hold()) {
            return null;
        }
        ByteBuffer slice = mapped.slice(pos, size);
        return new SelectMappedBufferResult(fileFromOffset + pos, slice, size, this);
    }

    /** A view from {@code pos} to the read position, or null when there is nothing there. */
    public SelectMappedBufferResult selectMappedBuffer(int pos) {
        int readPosition = getReadPosition();
        if (pos < 0 || pos >= readPosition) {
            return null;
        }
        return selectMappedBuffer(pos, readPosition - pos);
    }

    /** Reads one int at {@code pos}; the caller must hold a reference or own the file (recovery, writer). */
    public int getInt(int pos) {
        return mapped.getInt(pos);
    }

    /** Reads one long at {@code pos}; same rule as {@link #getInt(int)}. */
    public long getLong(int pos) {
        return mapped.getLong(pos);
    }

    /**
     * Writes an int at {@code pos} outside the append discipline, for fixed-layout files (the index) that
     * update slots and headers in place. The owner is the single writer and publishes the write to its readers
     * itself; the write position is not moved.
     */
    public void putInt(int pos, int value) {
        mapped.putInt(pos, value);
    }

    /** Writes a long at {@code pos}; same rules as {@link #putInt(int, int)}. */
    public void putLong(int pos, long value) {
        mapped.putLong(pos, value);
    }

    /**
     * Forces the whole file to disk, for files written in place with {@link #putInt(int, int)} and
     * {@link #putLong(int, long)}, whose dirty range the positions do not track.
     */
    public void forceAll() {
        if (!hold()) {
            return;
        }
        try {
            mapped.force();
        } catch (RuntimeException e) {
            log.error("Could not force {} to disk", path, e);
        } finally {
            release();
        }
    }

    /**
     * Forces written bytes to disk when at least {@code leastPages} pages are dirty ({@code 0}: any byte).
     * A full file is always forced completely.
     *
     * @return the flushed position afterwards
     */
    public int flush(int leastPages) {
        if (!isAbleToFlush(leastPages)) {
            return flushedPosition.get();
        }
        if (!hold()) {
            return flushedPosition.get();
        }
        try {
            int target = getReadPosition();
            int from = flushedPosition.get();
            if (target > from) {
                // only the dirty range; the JDK aligns it to pages
                mapped.force(from, target - from);
                flushedPosition.set(target);
            }
        } catch (RuntimeException e) {
            log.error("Could not force {} to disk", path, e);
        } finally {
            release();
        }
        return flushedPosition.get();
    }

    private boolean isAbleToFlush(int leastPages) {
        int flushed = flushedPosition.get();
        int written = getReadPosition();
        if (isFull() || leastPages <= 0) {
            return written > flushed;
        }
        return written / OS_PAGE_SIZE - flushed / OS_PAGE_SIZE >= leastPages;
    }

    /**
     * Touches every page so later appends take no page faults; optional (warmMapedFileEnable). Reserves the whole
     * file first, so the touching itself cannot fault on a full disk.
     *
     * @throws IOException when the file system has no room for the file
     */
    public void warm() throws IOException {
        reserve(fileSize);
        ByteBuffer view = mapped.duplicate();
        for (int pos = wrotePosition.get(); pos < fileSize; pos += OS_PAGE_SIZE) {
            view.put(pos, (byte) 0);
        }
        mapped.force();
    }

    public boolean isFull() {
        return wrotePosition.get() == fileSize;
    }

    /** Highest position readers may see (everything below it is completely written). */
    public int getReadPosition() {
        return wrotePosition.get();
    }

    public int getWrotePosition() {
        return wrotePosition.get();
    }

    /** Sets the write position (recovery and truncation only, never concurrently with an append). */
    public void setWrotePosition(int position) {
        checkPosition(position);
        wrotePosition.set(position);
    }

    public int getFlushedPosition() {
        return flushedPosition.get();
    }

    /** Sets the flushed position (recovery and truncation only). */
    public void setFlushedPosition(int position) {
        checkPosition(position);
        flushedPosition.set(position);
    }

    /**
     * Sets how far ahead of the writer disk blocks are reserved: {@code step} bytes at a time (the whole file when
     * {@code step} is the file size or more). With {@code durableZeroFill}, each reservation above the write
     * position of a file that may hold bytes of an earlier run is forced to disk before records are written
     * behind it, so that after a power loss no stale record can follow the last one written (see
     * {@link #zeroFrom(int)}). Call before the first append.
     */
    public void setReserveStep(int step, boolean durableZeroFill) {
        if (step < OS_PAGE_SIZE) {
            throw new IllegalArgumentException("reserve step must be at least " + OS_PAGE_SIZE + " bytes, got " + step);
        }
        blocks.setStep(step, durableZeroFill);
    }

    /**
     * Prepares reservations for a file forced a record at a time (the commit log under SYNC_FLUSH), so that each
     * force writes the record's page and nothing else:
     * <ul>
     * <li>zeros are written a page per write, not a megabyte: Linux (ext4 with large folios; measured on 6.18)
     * keeps the page cache in units as large as the writes that made them, a mapped write dirties its whole unit
     * and a force writes whole units back, so every force wrote the whole step (67 KB per 1 KiB put with 64 KiB
     * steps);</li>
     * <li>each reservation is forced before records follow it, so their blocks are on disk and a record's force
     * makes no block allocation the file system must journal first;</li>
     * <li>appends are written with pwrite(2) on a channel held open while the file is written, not through the
     * mapping (see {@link #writeThrough}).</li>
     * </ul>
     * Call before the first append.
     */
    public void setForcedPerRecord(boolean forcedPerRecord) {
        blocks.setForcedPerRecord(forcedPerRecord);
    }

    /**
     * Makes sure the file system has given blocks to every byte below {@code position} plus one page (the page
     * after the last record is read by recovery), so that writing or reading them through the mapping can never
     * fault (SIGBUS, seen by Java as an {@link InternalError}) when the disk fills up. A sparse file has no blocks
     * until written, so this writes zeros through a file channel, where a full disk is an ordinary
     * {@link IOException}, in steps of the {@linkplain #setReserveStep reserve step}. Only bytes at or above the
     * write position are zero-filled (append-only files); writer thread only.
     *
     * @throws IOException when the file system cannot give the blocks (disk full); nothing was reserved then
     */
    public void reserve(int position) throws IOException {
        blocks.reserve(position, wrotePosition.get());
    }

    /**
     * Like {@link #reserve(int)} for bytes that already hold data: gives blocks to {@code [0, position)} by writing
     * back what is there (a file written in place, such as an index, may have holes among its data). Nothing may
     * write the range concurrently; writer thread only.
     *
     * @throws IOException when the file system cannot give the blocks (disk full)
     */
    public void reserveKeepingContent(int position) throws IOException {
        checkPosition(position);
        blocks.reserveKeepingContent(position);
    }

    /**
     * Records that the bytes below {@code position} already have disk blocks because they were written earlier
     * (entries of a file loaded from disk), so no reservation writes them again.
     */
    public void assumeReserved(int position) {
        checkPosition(position);
        blocks.assume(position);
    }

    /** Bytes from the start that are known to have disk blocks. */
    public int getReservedPosition() {
        return blocks.reservedPosition();
    }

    /**
     * Zeroes what a truncation at {@code position} leaves behind, without touching the rest of the file: bytes
     * from {@code position} to the end of the first reserve step after it, written through a channel (never
     * through the mapping, so this cannot fault on a full disk) and forced. Beyond that the file needs no work:
     * every later {@link #reserve(int)} zero-fills a step (forced, for files of an earlier run, when the owner
     * asked for it) before the writer puts a record there, so whatever an earlier run left above the write
     * position is overwritten with zeros before a record can end next to it, and recovery, which reads records
     * until the first one that is not intact, always meets zeros right after the last record written.
     *
     * <p>When the disk has no room even for that (a restart on a full disk), the zeroing is left to the first
     * reservation after space returns and this logs one warning.
     */
    public void zeroFrom(int position) {
        checkPosition(position);
        blocks.zeroFrom(position);
    }

    private void checkPosition(int position) {
        if (position < 0 || position > fileSize) {
            throw new IllegalArgumentException("position " + position + " outside file " + fileName + " of "
                    + fileSize + " bytes");
        }
    }

    public long getFileFromOffset() {
        return fileFromOffset;
    }

    public int getFileSize() {
        return fileSize;
    }

    public String getFileName() {
        return fileName;
    }

    public Path getPath() {
        return path;
    }

    /** Time of the last append in this process, or the file's modification time before the first one. */
    public long getStoreTimestamp() {
        return storeTimestamp;
    }

    /** The file's modification time on disk (used for expiry after a restart). */
    public long getLastModifiedTimestamp() {
        try {
            return Files.getLastModifiedTime(path).toMillis();
        } catch (IOException e) {
            return storeTimestamp;
        }
    }

    public boolean isFirstCreateInQueue() {
        return firstCreateInQueue;
    }

    public void setFirstCreateInQueue(boolean firstCreateInQueue) {
        this.firstCreateInQueue = firstCreateInQueue;
    }

    /**
     * Shuts the file down and deletes it once no view is left (or forcibly after {@code intervalForcibly}).
     *
     * @return true when the file is unmapped and deleted; false while views still hold it (call again later)
     */
    public boolean destroy(long intervalForcibly) {
        shutdown(intervalForcibly);
        if (!isCleanupOver()) {
            return false;
        }
        try {
            Files.deleteIfExists(path);
            return true;
        } catch (IOException e) {
            log.warn("Could not delete {}: {}", path, e.toString());
            return false;
        }
    }

    /**
     * Shuts the file down and removes its name from the folder now, even while views still hold the mapping
     * (they keep reading the unlinked file until they release it; the last release unmaps it). A cut must
     * not leave a file behind for the next start to load, which would bring the cut records back.
     *
     * @throws UncheckedIOException when the name cannot be removed (e.g. a file system that refuses
     *                                      to delete a mapped file)
     */
    public void destroyNow() {
        if (destroy(1000)) {
            return;
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not delete " + path + " while cutting its queue: " + e
                    + "; stop the process and remove the file by hand before restarting", e);
        }
    }

    @Override
    protected void cleanup() {
        writer.close();
        Unmapper.unmap(mapped);
    }

    @Override
    public String toString() {
        return "MappedFile{" + fileName + ", wrote=" + wrotePosition.get() + ", flushed=" + flushedPosition.get()
                + "}";
    }
}

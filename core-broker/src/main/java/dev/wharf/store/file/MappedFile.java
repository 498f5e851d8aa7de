package dev.wharf.store.file;

import java.io.IOException;
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
        // the mapping outlives the channel: keeping no descriptor open lets a store hold far more files than
        // the process's open-file limit; forcing goes through the mapping (msync), which needs no descriptor
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            this.mapped = ch.map(FileChannel.MapMode.READ_WRITE, 0, fileSize);
        } catch (IOException | RuntimeException e) {
            throw new IOException("Could not map " + path + " (" + fileSize + " bytes): " + e.getMessage(), e);
        }
        this.writeView = mapped.duplicate();
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
     * Copies {@code data} (position to limit) at the write position.
     *
     * @return false, writing nothing, when the rest of the file is too small
     */
    public boolean append(ByteBuffer data) {
        int current = wrotePosition.get();
        int length = data.remaining();
        if (length > fileSize - current) {
            return false;
        }
        writeView.limit(fileSize).position(current);
        writeView.put(data);
        wrotePosition.set(current + length);
        storeTimestamp = System.currentTimeMillis();
        return true;
    }

    /** Copies {@code length} bytes of {@code data} from {@code offset}; false when they do not fit. */
    public boolean append(byte[] data, int offset, int length) {
        int current = wrotePosition.get();
        if (length > fileSize - current) {
            return false;
        }
        writeView.limit(fileSize).position(current);
        writeView.put(data, offset, length);
        wrotePosition.set(current + length);
        storeTimestamp = System.currentTimeMillis();
        return true;
    }

    /**
     * Lets the callback write at the write position and advances the position by what it returns.
     *
     * @return the callback's result (bytes the position advanced)
     */
    public int append(AppendCallback callback) {
        int current = wrotePosition.get();
        writeView.limit(fileSize).position(current);
        int advanced = callback.doAppend(fileFromOffset, writeView);
        if (advanced < 0 || advanced > fileSize - current) {
            throw new IllegalStateException("append callback advanced by " + advanced + " bytes with "
                    + (fileSize - current) + " left in " + fileName);
        }
        if (advanced > 0) {
            wrotePosition.set(current + advanced);
            storeTimestamp = System.currentTimeMillis();
        }
        return advanced;
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

    /** Touches every page so later appends take no page faults; optional (warmMapedFileEnable). */
    public void warm() {
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
     * Zeroes the bytes from {@code position} to the end of the file, so a later scan cannot mistake stale
     * bytes behind a truncation point for data. Pages that are already zero are only read, never written, so
     * untouched (sparse) parts of the file stay unallocated.
     */
    public void zeroFrom(int position) {
        checkPosition(position);
        ByteBuffer view = mapped.duplicate();
        boolean changed = false;
        int pos = position;
        while (pos < fileSize && pos % Long.BYTES != 0) {
            changed |= zeroByte(view, pos++);
        }
        for (; pos + Long.BYTES <= fileSize; pos += Long.BYTES) {
            if (view.getLong(pos) != 0L) {
                view.putLong(pos, 0L);
                changed = true;
            }
        }
        while (pos < fileSize) {
            changed |= zeroByte(view, pos++);
        }
        if (changed) {
            mapped.force();
        }
    }

    private static boolean zeroByte(ByteBuffer view, int pos) {
        if (view.get(pos) != 0) {
            view.put(pos, (byte) 0);
            return true;
        }
        return false;
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

    @Override
    protected void cleanup() {
        Unmapper.unmap(mapped);
    }

    @Override
    public String toString() {
        return "MappedFile{" + fileName + ", wrote=" + wrotePosition.get() + ", flushed=" + flushedPosition.get()
                + "}";
    }
}

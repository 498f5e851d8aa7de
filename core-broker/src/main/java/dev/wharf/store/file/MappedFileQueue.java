package dev.wharf.store.file;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory of equally sized {@link MappedFile}s that together form one continuous byte log: file N starts
 * where file N-1 ends, and each is named by its start offset. Finding the file of an offset is arithmetic.
 *
 * <p>Thread-safety: one writer creates and appends to the last file; readers look files up concurrently;
 * one flusher flushes; one cleaner deletes from the head. The file list is copy-on-write, so lookups never
 * lock. {@link #load()}, {@link #truncateDirtyFiles(long)} and {@link #destroy()} run while nothing else
 * uses the queue (start-up, recovery, shutdown).
 */
public final class MappedFileQueue {

    private static final Logger log = LoggerFactory.getLogger(MappedFileQueue.class);

    private final Path storePath;
    private final int mappedFileSize;
    private final CopyOnWriteArrayList<MappedFile> mappedFiles = new CopyOnWriteArrayList<>();
    private volatile long flushedWhere;
    private volatile long storeTimestamp;
    private volatile boolean warmNewFiles;
    /** Disk blocks reserved ahead of the writer at a time; 0: the whole file. */
    private volatile int reserveStep;
    private volatile String lastCreateFailure;
    private volatile boolean durableZeroFill;
    /** Whether {@link #load()} keeps files shorter than the file size (see {@link #setAcceptShortFiles}). */
    private volatile boolean acceptShortFiles;
    private final List<ShortFile> shortFiles = new CopyOnWriteArrayList<>();

    public MappedFileQueue(Path storePath, int mappedFileSize) {
        if (mappedFileSize <= 0) {
            throw new IllegalArgumentException("mapped file size must be positive, got " + mappedFileSize);
        }
        this.storePath = storePath;
        this.mappedFileSize = mappedFileSize;
    }

    /** Whether new files are pre-touched page by page before use. */
    public void setWarmNewFiles(boolean warm) {
        this.warmNewFiles = warm;
    }

    /**
     * Reserves disk blocks {@code step} bytes at a time ahead of the writer in every file (see
     * {@link MappedFile#reserve(int)}) instead of the whole file at once; {@code durableZeroFill} forces the
     * zero-filling of files of an earlier run (the commit log, whose recovery reads past the last record).
     * Call before {@link #load()}.
     */
    public void setReserveStep(int step, boolean durableZeroFill) {
        if (step < MappedFile.OS_PAGE_SIZE) {
            throw new IllegalArgumentException("reserve step must be at least " + MappedFile.OS_PAGE_SIZE
                    + " bytes, got " + step);
        }
        this.reserveStep = step;
        this.durableZeroFill = durableZeroFill;
    }

    /** The reserve step set by {@link #setReserveStep}, 0 when files are reserved whole. */
    public int getReserveStep() {
        return reserveStep;
    }

    private MappedFile configure(MappedFile file) {
        if (reserveStep > 0) {
            file.setReserveStep(reserveStep, durableZeroFill);
        }
        return file;
    }

    /**
     * Maps the files already in the directory. Every file is considered fully written; recovery then sets
     * the real end with {@link #truncateDirtyFiles(long)}.
     *
     * @throws IOException when a file cannot be mapped, or has the wrong size (the store was written with
     *                     another file size setting), or the offsets are not continuous
     */
    public void load() throws IOException {
        if (!Files.isDirectory(storePath)) {
            return;
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(storePath)) {
            for (Path p : stream) {
                if (MappedFile.isStoreFileName(p.getFileName().toString()) && Files.isRegularFile(p)) {
                    files.add(p);
                } else {
                    log.debug("Ignoring {} in {}", p.getFileName(), storePath);
                }
            }
        }
        files.sort(null);
        List<MappedFile> loaded = new ArrayList<>();
        try {
            long expectedOffset = -1;
            for (Path p : files) {
                long size = Files.size(p);
                if (size < mappedFileSize && acceptShortFiles) {
                    // mapping extends it with zeros; recovery finds what is left of its records
                    shortFiles.add(new ShortFile(p, MappedFile.parseOffset(p.getFileName().toString()), size,
                            mappedFileSize));
                    log.warn("Store file {} is {} bytes, shorter than the file size {}: it was truncated; extending it"
                            + " and recovering its records up to the cut", p, size, mappedFileSize);
                } else if (size != mappedFileSize) {
                    throw new IOException("Store file " + p + " is " + size + " bytes but the configured file size is "
                            + mappedFileSize + "; start with the file size the store was written with.");
                }
                MappedFile file = configure(new MappedFile(p, mappedFileSize));
                loaded.add(file);
                if (expectedOffset >= 0 && file.getFileFromOffset() != expectedOffset) {
                    throw new IOException("Store files in " + storePath + " are not continuous: expected a file at offset "
                            + expectedOffset + " but found " + file.getFileName() + ".");
                }
                if (file.getFileFromOffset() % mappedFileSize != 0) {
                    throw new IOException("Store file " + p + " does not start at a multiple of the file size "
                            + mappedFileSize + "; start with the file size the store was written with.");
                }
                expectedOffset = file.getFileFromOffset() + mappedFileSize;
                file.setWrotePosition(mappedFileSize);
                file.setFlushedPosition(mappedFileSize);
            }
        } catch (IOException | RuntimeException e) {
            for (MappedFile f : loaded) {
                f.shutdown(0);
            }
            throw e;
        }
        mappedFiles.addAll(loaded);
        if (!loaded.isEmpty()) {
            MappedFile last = loaded.get(loaded.size() - 1);
            flushedWhere = last.getFileFromOffset() + mappedFileSize;
        }
    }

    /**
     * Lets {@link #load()} accept files shorter than the file size instead of refusing to start: it extends
     * them and lists them in {@link #shortFiles()} for recovery to deal with. Longer files are still refused.
     */
    public void setAcceptShortFiles(boolean accept) {
        this.acceptShortFiles = accept;
    }

    /** The files {@link #load()} found shorter than the file size (empty unless accepted). */
    public List<ShortFile> shortFiles() {
        return List.copyOf(shortFiles);
    }

    public Path getStorePath() {
        return storePath;
    }

    public int getMappedFileSize() {
        return mappedFileSize;
    }

    /** A snapshot of the files, oldest first. */
    public List<MappedFile> getMappedFiles() {
        return new ArrayList<>(mappedFiles);
    }

    public int fileCount() {
        return mappedFiles.size();
    }

    public boolean isEmpty() {
        return mappedFiles.isEmpty();
    }

    public MappedFile getFirstMappedFile() {
        try {
            return mappedFiles.isEmpty() ? null : mappedFiles.get(0);
        } catch (IndexOutOfBoundsException e) {
            return null;
        }
    }

    public MappedFile getLastMappedFile() {
        for (;;) {
            int size = mappedFiles.size();
            if (size == 0) {
                return null;
            }
            try {
                return mappedFiles.get(size - 1);
            } catch (IndexOutOfBoundsException e) {
                // a concurrent delete shrank the list; look again
            }
        }
    }

    /**
     * The file to write into: the last one when it has room, otherwise a new one (when {@code create}).
     * For an empty queue the new file starts at the file boundary at or below {@code startOffset}.
     *
     * @return the file, or null when none exists and {@code create} is false or creation failed
     */
    public MappedFile getLastMappedFile(long startOffset, boolean create) {
        MappedFile last = getLastMappedFile();
        long createOffset;
        if (last == null) {
            createOffset = startOffset - startOffset % mappedFileSize;
        } else if (last.isFull()) {
            createOffset = last.getFileFromOffset() + mappedFileSize;
        } else {
            return last;
        }
        if (!create) {
            return last;
        }
        MappedFile file = null;
        try {
            file = configure(new MappedFile(storePath.resolve(MappedFile.fileName(createOffset)), mappedFileSize));
            // blocks for the first step before the file is published: a file nobody can write to is no use
            if (warmNewFiles) {
                file.warm();
            } else {
                file.reserve(0);
            }
            file.setFirstCreateInQueue(mappedFiles.isEmpty());
            mappedFiles.add(file);
            return file;
        } catch (IOException e) {
            lastCreateFailure = e.getMessage();
            if (file != null) {
                file.destroy(0);
            }
            log.debug("Could not create store file at offset {} in {}: {}", createOffset, storePath, e.toString());
            return null;
        }
    }

    /** Why the last file creation failed (disk full, permissions), or null; for error messages. */
    public String lastCreateFailure() {
        return lastCreateFailure;
    }

    /** {@link #getLastMappedFile(long, boolean)} with create. */
    public MappedFile getLastMappedFile(long startOffset) {
        return getLastMappedFile(startOffset, true);
    }

    /**
     * The file holding {@code offset}.
     *
     * @param returnFirstOnNotFound answer the first file instead of null when the offset is outside
     */
    public MappedFile findMappedFileByOffset(long offset, boolean returnFirstOnNotFound) {
        MappedFile first = getFirstMappedFile();
        if (first == null) {
            return null;
        }
        long index = offset / mappedFileSize - first.getFileFromOffset() / mappedFileSize;
        if (offset >= first.getFileFromOffset() && index < Integer.MAX_VALUE) {
            try {
                MappedFile candidate = mappedFiles.get((int) index);
                if (contains(candidate, offset)) {
                    return candidate;
                }
            } catch (IndexOutOfBoundsException e) {
                // the list changed under us or the offset is past the end; fall back to a scan
            }
            for (MappedFile file : mappedFiles) {
                if (contains(file, offset)) {
                    return file;
                }
            }
        }
        return returnFirstOnNotFound ? getFirstMappedFile() : null;
    }

    public MappedFile findMappedFileByOffset(long offset) {
        return findMappedFileByOffset(offset, false);
    }

    private boolean contains(MappedFile file, long offset) {
        return offset >= file.getFileFromOffset() && offset < file.getFileFromOffset() + mappedFileSize;
    }

    /** Offset of the first byte still stored, or -1 when the queue is empty. */
    public long getMinOffset() {
        MappedFile first = getFirstMappedFile();
        return first == null ? -1 : first.getFileFromOffset();
    }

    /** Offset one past the last readable byte (0 for an empty queue). */
    public long getMaxOffset() {
        MappedFile last = getLastMappedFile();
        return last == null ? 0 : last.getFileFromOffset() + last.getReadPosition();
    }

    /** Offset one past the last written byte. */
    public long getMaxWrotePosition() {
        MappedFile last = getLastMappedFile();
        return last == null ? 0 : last.getFileFromOffset() + last.getWrotePosition();
    }

    /** Bytes written but not yet forced to disk. */
    public long howMuchFallBehind() {
        return Math.max(0, getMaxWrotePosition() - flushedWhere);
    }

    /**
     * Forces the file holding the flush point when at least {@code leastPages} pages are dirty.
     *
     * @return true when the flush point moved
     */
    public boolean flush(int leastPages) {
        long minOffset = getMinOffset();
        if (minOffset > flushedWhere) {
            // the files below were deleted (or the queue starts late): nothing down there to flush
            flushedWhere = minOffset;
        }
        MappedFile file = findMappedFileByOffset(flushedWhere, false);
        if (file == null) {
            return false;
        }
        long timestamp = file.getStoreTimestamp();
        int written = file.getWrotePosition();
        int offset = file.flush(leastPages);
        long where = file.getFileFromOffset() + offset;
        boolean moved = where != flushedWhere;
        flushedWhere = where;
        if (leastPages == 0 || offset >= written) {
            // everything appended up to that time is on disk (recovery trusts records stored before it)
            storeTimestamp = timestamp;
        }
        return moved;
    }

    /**
     * Forces everything written so far, file by file.
     *
     * @return how many files were forced
     */
    public int flushAll() {
        int forced = 0;
        for (int guard = 0; guard <= mappedFiles.size() && flushedWhere < getMaxWrotePosition(); guard++) {
            if (flush(0)) {
                forced++;
            }
        }
        return forced;
    }

    public long getFlushedWhere() {
        return flushedWhere;
    }

    public void setFlushedWhere(long flushedWhere) {
        this.flushedWhere = flushedWhere;
    }

    /** Time of the last append covered by a complete flush. */
    public long getStoreTimestamp() {
        return storeTimestamp;
    }

    /**
     * Cuts the log at {@code offset}: files starting after it are deleted, the file holding it gets its
     * positions set there and its tail zeroed. Used by recovery, never concurrently with writers.
     */
    public void truncateDirtyFiles(long offset) {
        truncateDirtyFiles(offset, true);
    }

    /**
     * Like {@link #truncateDirtyFiles(long)}; {@code zeroTail} false skips zeroing the rest of the file, for a
     * clean restart where everything past the end is known to be unwritten (saves reading the whole tail).
     */
    public void truncateDirtyFiles(long offset, boolean zeroTail) {
        List<MappedFile> toDelete = new ArrayList<>();
        for (MappedFile file : mappedFiles) {
            long fileTail = file.getFileFromOffset() + mappedFileSize;
            if (fileTail > offset) {
                if (offset >= file.getFileFromOffset()) {
                    int pos = (int) (offset - file.getFileFromOffset());
                    file.setWrotePosition(pos);
                    file.setFlushedPosition(pos);
                    if (zeroTail) {
                        file.zeroFrom(pos);
                    }
                } else {
                    file.destroyNow();
                    toDelete.add(file);
                }
            }
        }
        mappedFiles.removeAll(toDelete);
        flushedWhere = offset;
    }

    /**
     * Deletes files (never the last one) not modified for {@code expiredMillis}, or every such candidate
     * at once when {@code cleanImmediately}, at most {@code maxDelete} per call.
     *
     * @param deleteFilesIntervalMillis pause between two deletions so deletes do not stall the disk
     * @param intervalForcibly          how long a file still in use by readers is spared before it is
     *                                  unmapped anyway
     * @return how many files were deleted
     */
    public int deleteExpiredFileByTime(long expiredMillis, long deleteFilesIntervalMillis, long intervalForcibly,
            boolean cleanImmediately, int maxDelete) {
        List<MappedFile> files = getMappedFiles();
        List<MappedFile> deleted = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (int i = 0; i < files.size() - 1 && deleted.size() < maxDelete; i++) {
            MappedFile file = files.get(i);
            boolean expired = now >= file.getLastModifiedTimestamp() + expiredMillis;
            if (!expired && !cleanImmediately) {
                break;
            }
            if (!file.destroy(intervalForcibly)) {
                break;
            }
            deleted.add(file);
            if (deleteFilesIntervalMillis > 0 && i + 1 < files.size() - 1 && deleted.size() < maxDelete) {
                try {
                    Thread.sleep(deleteFilesIntervalMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        removeDeleted(deleted);
        return deleted.size();
    }

    /**
     * Deletes leading files of fixed-size units whose last unit points below {@code minOffset} (the first
     * long of a unit is the offset it points to). The last file is kept.
     *
     * @return how many files were deleted
     */
    public int deleteExpiredFileByOffset(long minOffset, int unitSize) {
        List<MappedFile> files = getMappedFiles();
        List<MappedFile> deleted = new ArrayList<>();
        for (int i = 0; i < files.size() - 1; i++) {
            MappedFile file = files.get(i);
            SelectMappedBufferResult lastUnit = file.selectMappedBuffer(mappedFileSize - unitSize, unitSize);
            if (lastUnit == null) {
                break;
            }
            long pointsTo;
            try {
                pointsTo = lastUnit.byteBuffer().getLong(0);
            } finally {
                lastUnit.release();
            }
            if (pointsTo >= minOffset) {
                break;
            }
            if (!file.destroy(60_000)) {
                break;
            }
            deleted.add(file);
        }
        removeDeleted(deleted);
        return deleted.size();
    }

    /**
     * Deletes the first file if it ends at or below {@code offset} (and is not the last file).
     *
     * @return true when it was deleted
     */
    public boolean deleteFirstFileIfBelow(long offset, long intervalForcibly) {
        List<MappedFile> files = getMappedFiles();
        if (files.size() < 2) {
            return false;
        }
        MappedFile first = files.get(0);
        if (first.getFileFromOffset() + mappedFileSize > offset) {
            return false;
        }
        if (!first.destroy(intervalForcibly)) {
            return false;
        }
        removeDeleted(List.of(first));
        return true;
    }

    /** Retries the destruction of a first file that was shut down but still had readers. */
    public boolean retryDeleteFirstFile(long intervalForcibly) {
        MappedFile first = getFirstMappedFile();
        if (first == null || first.isAvailable()) {
            return false;
        }
        log.warn("Retrying the deletion of {}, which readers still held", first.getFileName());
        if (first.destroy(intervalForcibly)) {
            removeDeleted(List.of(first));
            return true;
        }
        return false;
    }

    private void removeDeleted(List<MappedFile> deleted) {
        if (!deleted.isEmpty()) {
            mappedFiles.removeAll(deleted);
            log.info("Deleted {} file(s) from {}, first remaining offset {}", deleted.size(), storePath, getMinOffset());
        }
    }

    /** Unmaps every file without deleting it (shutdown). */
    public void shutdown(long intervalForcibly) {
        for (MappedFile file : mappedFiles) {
            file.shutdown(intervalForcibly);
        }
    }

    /** Unmaps and deletes every file and the directory when it is left empty. */
    public void destroy() {
        for (Iterator<MappedFile> it = mappedFiles.iterator(); it.hasNext();) {
            it.next().destroy(0);
        }
        mappedFiles.clear();
        flushedWhere = 0;
        try {
            Files.deleteIfExists(storePath);
        } catch (IOException e) {
            log.debug("Left {} in place: {}", storePath, e.toString());
        }
    }
}

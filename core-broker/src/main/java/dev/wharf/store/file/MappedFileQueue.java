package dev.wharf.store.file;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory of equally sized {@link MappedFile}s that together form one continuous byte log: file N starts
 * where file N-1 ends, and each is named by its start offset. Finding the file of an offset is arithmetic.
 *
 * <p>Thread-safety: one writer creates and appends to the last file; readers look files up concurrently;
 * one flusher flushes; one cleaner deletes from the head. The files are an immutable array, oldest first, swapped
 * whole (under a lock only changes take) when a file is added or removed, so a lookup reads one consistent snapshot
 * and never locks or allocates. A removed file is unmapped only once its readers have released it (see
 * {@link MappedFile#destroy(long)}). {@link #load()}, {@link #truncateDirtyFiles(long)} and {@link #destroy()} run
 * while nothing else uses the queue (start-up, recovery, shutdown).
 */
public final class MappedFileQueue {

    private static final Logger log = LoggerFactory.getLogger(MappedFileQueue.class);

    private final Path storePath;
    private final int mappedFileSize;
    private static final MappedFile[] NONE = new MappedFile[0];

    /** The files, oldest first, each starting where the one before ends; replaced whole, never changed in place. */
    private volatile MappedFile[] files = NONE;
    /** Taken by changes of {@link #files} only, so that two of them cannot lose each other's file. */
    private final Object filesChange = new Object();
    private volatile long flushedWhere;
    private volatile long storeTimestamp;
    private volatile boolean warmNewFiles;
    /** Disk blocks reserved ahead of the writer at a time; 0: the whole file. */
    private volatile int reserveStep;
    private volatile String lastCreateFailure;
    private volatile boolean durableZeroFill;
    private volatile boolean forcedPerRecord;
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

    /** Prepares every file's reservations for forces of single records (see {@link MappedFile#setForcedPerRecord}). */
    public void setForcedPerRecord(boolean forcedPerRecord) {
        this.forcedPerRecord = forcedPerRecord;
    }

    /** The reserve step set by {@link #setReserveStep}, 0 when files are reserved whole. */
    public int getReserveStep() {
        return reserveStep;
    }

    private MappedFile configure(MappedFile file) {
        if (reserveStep > 0) {
            file.setReserveStep(reserveStep, durableZeroFill);
        }
        file.setForcedPerRecord(forcedPerRecord);
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
        synchronized (filesChange) {
            MappedFile[] current = this.files;
            MappedFile[] next = Arrays.copyOf(current, current.length + loaded.size());
            for (int i = 0; i < loaded.size(); i++) {
                next[current.length + i] = loaded.get(i);
            }
            this.files = next;
        }
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
        return List.of(files);
    }

    public int fileCount() {
        return files.length;
    }

    public boolean isEmpty() {
        return files.length == 0;
    }

    /** The oldest file, or null when there is none. */
    public MappedFile firstFile() {
        MappedFile[] snapshot = files;
        return snapshot.length == 0 ? null : snapshot[0];
    }

    /** The newest file (full or not), or null when there is none. */
    public MappedFile lastFile() {
        MappedFile[] snapshot = files;
        return snapshot.length == 0 ? null : snapshot[snapshot.length - 1];
    }

    /**
     * The file to write into: the last one while it has room, otherwise a new one after it. For an empty queue the
     * new file starts at the file boundary at or below {@code startOffset}.
     *
     * @return the file, or null when a new file was needed and could not be created (see {@link #lastCreateFailure()})
     */
    public MappedFile rollIfFull(long startOffset) {
        MappedFile last = lastFile();
        if (last != null && !last.isFull()) {
            return last;
        }
        long createOffset = last == null ? startOffset - startOffset % mappedFileSize
                : last.getFileFromOffset() + mappedFileSize;
        MappedFile file = null;
        try {
            file = configure(new MappedFile(storePath.resolve(MappedFile.fileName(createOffset)), mappedFileSize));
            // blocks for the first step before the file is published: a file nobody can write to is no use
            if (warmNewFiles) {
                file.warm();
            } else {
                file.reserve(0);
            }
            synchronized (filesChange) {
                MappedFile[] current = files;
                file.setFirstCreateInQueue(current.length == 0);
                MappedFile[] next = Arrays.copyOf(current, current.length + 1);
                next[current.length] = file;
                files = next;
            }
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

    /** The file holding {@code offset}, or null when no file does (below the first, past the last). */
    public MappedFile fileAt(long offset) {
        MappedFile[] snapshot = files;
        int index = floorIndex(snapshot, offset);
        return index >= 0 && contains(snapshot[index], offset) ? snapshot[index] : null;
    }

    /**
     * The index of the last file starting at or below {@code offset}, -1 when none does. The files are continuous, so
     * the index is arithmetic; the search below only runs if that ever stopped being true.
     */
    private int floorIndex(MappedFile[] snapshot, long offset) {
        if (snapshot.length == 0 || offset < snapshot[0].getFileFromOffset()) {
            return -1;
        }
        long guess = (offset - snapshot[0].getFileFromOffset()) / mappedFileSize;
        if (guess < snapshot.length && contains(snapshot[(int) guess], offset)) {
            return (int) guess;
        }
        int low = 0;
        int high = snapshot.length - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (snapshot[mid].getFileFromOffset() <= offset) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    private boolean contains(MappedFile file, long offset) {
        return offset >= file.getFileFromOffset() && offset < file.getFileFromOffset() + mappedFileSize;
    }

    /** Offset of the first byte still stored, or -1 when the queue is empty. */
    public long getMinOffset() {
        MappedFile first = firstFile();
        return first == null ? -1 : first.getFileFromOffset();
    }

    /** Offset one past the last readable byte (0 for an empty queue). */
    public long getMaxOffset() {
        MappedFile last = lastFile();
        return last == null ? 0 : last.getFileFromOffset() + last.getReadPosition();
    }

    /** Offset one past the last written byte. */
    public long getMaxWrotePosition() {
        MappedFile last = lastFile();
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
        MappedFile file = fileAt(flushedWhere);
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
        for (int guard = 0; guard <= files.length && flushedWhere < getMaxWrotePosition(); guard++) {
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
        truncate(offset, true);
    }

    /**
     * Like {@link #truncateDirtyFiles(long)} without zeroing the rest of the file holding {@code offset}: for a clean
     * restart, where everything past the end is known to be unwritten (saves reading the whole tail).
     */
    public void truncateAtCleanEnd(long offset) {
        truncate(offset, false);
    }

    private void truncate(long offset, boolean zeroTail) {
        List<MappedFile> toDelete = new ArrayList<>();
        for (MappedFile file : files) {
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
        remove(toDelete::contains);
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
        MappedFile first = firstFile();
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
            remove(deleted::contains);
            log.info("Deleted {} file(s) from {}, first remaining offset {}", deleted.size(), storePath, getMinOffset());
        }
    }

    private void remove(Predicate<MappedFile> which) {
        synchronized (filesChange) {
            files = Arrays.stream(files).filter(which.negate()).toArray(MappedFile[]::new);
        }
    }

    /** Unmaps every file without deleting it (shutdown). */
    public void shutdown(long intervalForcibly) {
        for (MappedFile file : files) {
            file.shutdown(intervalForcibly);
        }
    }

    /** Unmaps and deletes every file and the directory when it is left empty. */
    public void destroy() {
        MappedFile[] all;
        synchronized (filesChange) {
            all = files;
            files = NONE;
        }
        for (MappedFile file : all) {
            file.destroy(0);
        }
        flushedWhere = 0;
        try {
            Files.deleteIfExists(storePath);
        } catch (IOException e) {
            log.debug("Left {} in place: {}", storePath, e.toString());
        }
    }
}

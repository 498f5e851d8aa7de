package dev.wharf.store.queue;

import static dev.wharf.store.queue.ConsumeQueueUnit.SIZE;
import static dev.wharf.store.queue.ConsumeQueueUnit.byteOffset;
import static dev.wharf.store.queue.ConsumeQueueUnit.unitIndex;

import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.MappedFileQueue;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.LongUnaryOperator;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consume queue of one topic and queue id: unit N (see {@link ConsumeQueueUnit}) says where the queue's
 * Nth message lies in the commit log. Units sit back to back in the queue's continuous file space
 * ({@code {topic}/{queueId}/{20-digit start byte}} files of equal size), so finding unit N is arithmetic.
 *
 * <p>Logical offsets: {@link #getMinOffsetInQueue()} is the first unit a consumer may read (older files were
 * deleted with the commit log, or the queue started late); {@link #getMaxOffsetInQueue()} is the next unit to
 * be written. Both count units, not bytes.
 *
 * <p>Thread-safety: one writer (the dispatch thread) calls {@link #putUnit}; any number of readers call the
 * getters concurrently and without locks: a unit becomes visible when its file's write position, a volatile,
 * moves past it, which happens after its bytes are written. {@link #flush(int)} may run on a flush thread and
 * {@link #correctMinOffset(long)} on the clean-up thread. {@link #load()}, {@link #recover()},
 * {@link #truncateDirtyLogicFiles(long)} and {@link #destroy()} run while no writer is active (start-up,
 * recovery, topic deletion).
 */
public final class ConsumeQueue {

    private static final Logger log = LoggerFactory.getLogger(ConsumeQueue.class);

    /**
     * Recovery re-validates only the last few files: older ones were complete and flushed long before the stop,
     * and a full scan of every queue would make start-up proportional to the whole store.
     */
    static final int RECOVER_FILES = 3;

    /** Disk blocks a consume-queue file is given at a time ahead of the writer (one page). */
    static final int RESERVE_STEP = 4096;

    private final String topic;
    private final int queueId;
    private final MappedFileQueue files;
    /** Owned by the writer: one reusable unit, so a put allocates nothing. */
    private final ByteBuffer unitBuffer = ByteBuffer.allocate(SIZE);
    /** First readable unit number. */
    private volatile long minOffset;
    /** Commit-log offset just past the last message unit; 0 while there is none. */
    private volatile long lastPhyEnd;

    /**
     * A queue whose files live in {@code queueDir}.
     *
     * @param mappedFileSize bytes per file, a positive multiple of {@link ConsumeQueueUnit#SIZE}
     */
    public ConsumeQueue(String topic, int queueId, Path queueDir, int mappedFileSize) {
        checkFileSize(mappedFileSize);
        this.topic = topic;
        this.queueId = queueId;
        this.files = new MappedFileQueue(queueDir, mappedFileSize);
        // a page at a time: a queue with one message reserves no more than the block it takes anyway
        files.setReserveStep(RESERVE_STEP, false);
    }

    static void checkFileSize(int mappedFileSize) {
        if (mappedFileSize < SIZE || mappedFileSize % SIZE != 0) {
            throw new IllegalArgumentException("mappedFileSizeConsumeQueue must be a positive multiple of "
                    + SIZE + " bytes (the unit size), got " + mappedFileSize
                    + "; the default is " + ConsumeQueueUnit.DEFAULT_FILE_SIZE + ".");
        }
    }

    public String topic() {
        return topic;
    }

    public int queueId() {
        return queueId;
    }

    /** Maps the existing files; {@link #recover()} then finds the valid end. */
    public void load() throws IOException {
        files.load();
    }

    /**
     * Finds the valid end: scanning the last {@value #RECOVER_FILES} files from their start, the valid part
     * ends before the first unit that is zero (never written) or not sane (negative size, offset going
     * backwards: a torn write). Everything after it is zeroed or deleted. Then the min offset is set to the
     * first message unit.
     */
    public void recover() {
        var list = files.getMappedFiles();
        if (list.isEmpty()) {
            minOffset = 0;
            lastPhyEnd = 0;
            return;
        }
        int start = Math.max(0, list.size() - RECOVER_FILES);
        long validEnd = list.get(start).getFileFromOffset();
        long prevEnd = Long.MIN_VALUE;
        scan:
        for (int i = start; i < list.size(); i++) {
            MappedFile file = list.get(i);
            for (int pos = 0; pos + SIZE <= file.getFileSize(); pos += SIZE) {
                long phy = file.getLong(pos + ConsumeQueueUnit.PHY_OFFSET_OFFSET);
                int size = file.getInt(pos + ConsumeQueueUnit.MSG_SIZE_OFFSET);
                if (ConsumeQueueUnit.isMessage(phy, size) && phy >= prevEnd) {
                    prevEnd = phy + size;
                } else if (ConsumeQueueUnit.isBlank(size) && phy >= prevEnd) {
                    prevEnd = phy;
                } else {
                    long tags = file.getLong(pos + ConsumeQueueUnit.TAGS_CODE_OFFSET);
                    if (phy != 0 || size != 0 || tags != 0) {
                        log.warn("Consume queue {}-{}: unit {} is not valid (offset {}, size {}); the queue ends"
                                + " before it", topic, queueId, unitIndex(file.getFileFromOffset() + pos), phy, size);
                    }
                    break scan;
                }
                validEnd = file.getFileFromOffset() + pos + SIZE;
            }
        }
        files.truncateDirtyFiles(validEnd);
        long first = unitIndex(files.getMinOffset());
        minOffset = skipBlanks(first, getMaxOffsetInQueue());
        lastPhyEnd = findLastPhyEnd();
    }

    /**
     * Writes the unit of message {@code cqOffset}. A unit number below the queue's end is already there
     * (re-dispatch after recovery) and is ignored. A unit number beyond the end is placed at its own position
     * anyway, because readers find units by arithmetic: the numbers in between get blank units, which readers
     * skip. For a queue with nothing readable (new, or its files were cleaned) the blanks only pad the first
     * file up to the unit and the queue's min offset becomes {@code cqOffset}.
     */
    public PutUnitStatus putUnit(long cqOffset, long phyOffset, int size, long tagsCode) {
        if (cqOffset < 0 || cqOffset > Long.MAX_VALUE / SIZE || phyOffset < 0 || size <= 0) {
            throw new IllegalArgumentException("invalid consume queue unit for " + topic + "-" + queueId
                    + ": queue offset " + cqOffset + ", commit-log offset " + phyOffset + ", size " + size);
        }
        boolean nothingReadable = files.isEmpty() || minOffset >= getMaxOffsetInQueue();
        long next;
        if (files.isEmpty()) {
            MappedFile file = files.getLastMappedFile(byteOffset(cqOffset), true);
            if (file == null) {
                return PutUnitStatus.FAILED;
            }
            next = unitIndex(file.getFileFromOffset());
        } else {
            next = getMaxOffsetInQueue();
            if (cqOffset < next) {
                return PutUnitStatus.DUPLICATE;
            }
        }
        PutUnitStatus status = PutUnitStatus.APPENDED;
        if (cqOffset > next) {
            for (long i = next; i < cqOffset; i++) {
                if (!append(i, phyOffset, ConsumeQueueUnit.BLANK_SIZE, 0L)) {
                    return PutUnitStatus.FAILED;
                }
            }
            if (nothingReadable) {
                log.info("Consume queue {}-{} starts at unit {}", topic, queueId, cqOffset);
            } else {
                log.warn("Consume queue {}-{}: units {} to {} never arrived; filled with blank units", topic,
                        queueId, next, cqOffset - 1);
            }
            status = PutUnitStatus.GAP_FILLED;
        }
        if (nothingReadable) {
            // before the unit becomes visible, so readers never see a min below the first written unit
            minOffset = cqOffset;
        }
        if (!append(cqOffset, phyOffset, size, tagsCode)) {
            return PutUnitStatus.FAILED;
        }
        lastPhyEnd = phyOffset + size;
        return status;
    }

    private boolean append(long index, long phyOffset, int size, long tagsCode) {
        MappedFile file = files.getLastMappedFile(byteOffset(index), true);
        if (file == null) {
            return false;
        }
        if (file.getFileFromOffset() + file.getWrotePosition() != byteOffset(index)) {
            throw new IllegalStateException("consume queue " + topic + "-" + queueId + " would write unit " + index
                    + " at byte " + (file.getFileFromOffset() + file.getWrotePosition()));
        }
        unitBuffer.clear();
        ConsumeQueueUnit.write(unitBuffer, phyOffset, size, tagsCode);
        unitBuffer.flip();
        return file.append(unitBuffer);
    }

    /** First readable unit number. */
    public long getMinOffsetInQueue() {
        return minOffset;
    }

    /** Next unit number to be written: the number of units counted from the queue's logical start. */
    public long getMaxOffsetInQueue() {
        return unitIndex(files.getMaxOffset());
    }

    /**
     * The queue's end as readers may see it: units pointing at or past {@code confirmedPhyOffset} (an atomic
     * batch whose last record is not dispatched yet) are not counted. They can only be at the end of the queue,
     * since units are written in commit-log order; usually the last unit is below the bound and this is one read.
     */
    public long getVisibleMaxOffset(long confirmedPhyOffset) {
        long max = getMaxOffsetInQueue();
        long first = Math.max(minOffset, unitIndex(Math.max(0, files.getMinOffset())));
        long end = max;
        while (end > first && phyOffsetAt(end - 1) >= confirmedPhyOffset) {
            end--;
        }
        return end;
    }

    /** The commit-log offset in unit {@code index} (a blank's too), or Long.MIN_VALUE when it is not there. */
    private long phyOffsetAt(long index) {
        long pos = byteOffset(index);
        MappedFile file = files.findMappedFileByOffset(pos);
        if (file == null || !file.hold()) {
            return Long.MIN_VALUE;
        }
        try {
            int at = (int) (pos - file.getFileFromOffset());
            return at + SIZE > file.getReadPosition() ? Long.MIN_VALUE : file.getLong(at + ConsumeQueueUnit.PHY_OFFSET_OFFSET);
        } finally {
            file.release();
        }
    }

    /**
     * The units from {@code startIndex} to the end of the written part of the file holding it, without copying.
     * Blank units ({@link ConsumeQueueUnit#isBlank(int)}) may appear and must be skipped. The caller releases the
     * result.
     *
     * @return null when {@code startIndex} is below the min offset or not written yet
     */
    public SelectMappedBufferResult getIndexBuffer(long startIndex) {
        if (startIndex < minOffset || startIndex > Long.MAX_VALUE / SIZE) {
            return null;
        }
        long pos = byteOffset(startIndex);
        MappedFile file = files.findMappedFileByOffset(pos);
        if (file == null) {
            return null;
        }
        return file.selectMappedBuffer((int) (pos - file.getFileFromOffset()));
    }

    /**
     * The first unit whose message was stored at or after {@code timestamp}, by binary search (store times grow
     * along a queue). A message already gone from the commit log counts as older than any timestamp.
     *
     * @param storeTimeOfPhyOffset the store time of the message at a commit-log offset, -1 when it is gone
     * @return a unit number in [min, max]; max when every message is older
     */
    public long getOffsetInQueueByTime(long timestamp, LongUnaryOperator storeTimeOfPhyOffset) {
        long max = getMaxOffsetInQueue();
        long found = searchFirst(minOffset, max, u -> {
            if (!u.readable) {
                return false;
            }
            long storeTime = storeTimeOfPhyOffset.applyAsLong(u.phy);
            return storeTime >= 0 && storeTime >= timestamp;
        });
        return skipBlanks(found, max);
    }

    /** Commit-log offset just past the last message of this queue; 0 when it holds none. */
    public long getLastOffset() {
        return lastPhyEnd;
    }

    /** Commit-log offset of the first readable message, -1 when nothing is readable. */
    public long getMinPhysicalOffset() {
        Unit unit = new Unit();
        long min = minOffset;
        if (min >= getMaxOffsetInQueue() || !read(min, unit) || !unit.isMessage()) {
            return -1;
        }
        return unit.phy;
    }

    /** Forces written units when at least {@code leastPages} pages are dirty (0: any). */
    public void flush(int leastPages) {
        files.flush(leastPages);
    }

    /** Forces everything written (shutdown). */
    void flushAll() {
        files.flushAll();
    }

    /**
     * Drops the units that point at or past {@code phyOffset}, the commit log's valid end after an unclean
     * stop: they are a suffix of the queue since offsets grow along it.
     */
    public void truncateDirtyLogicFiles(long phyOffset) {
        if (files.isEmpty()) {
            return;
        }
        long max = getMaxOffsetInQueue();
        long keepEnd = searchFirst(unitIndex(files.getMinOffset()), max, u -> u.readable
                && (ConsumeQueueUnit.isBlank(u.size) ? u.phy >= phyOffset : u.phy + u.size > phyOffset));
        if (keepEnd == max) {
            return;
        }
        files.truncateDirtyFiles(byteOffset(keepEnd));
        MappedFile cut = files.getLastMappedFile();
        if (cut != null) {
            cut.forceAll(); // dropped units must not reappear after a crash (a replica truncating its log)
        }
        if (minOffset > keepEnd) {
            minOffset = keepEnd;
        }
        lastPhyEnd = findLastPhyEnd();
        log.info("Consume queue {}-{}: dropped units {} to {} beyond commit-log offset {}", topic, queueId, keepEnd,
                max - 1, phyOffset);
    }

    /**
     * Moves the min offset to the first message at or above {@code minPhyOffset}, the oldest offset the commit
     * log still holds; never moves it back.
     */
    public void correctMinOffset(long minPhyOffset) {
        long max = getMaxOffsetInQueue();
        long from = Math.max(minOffset, unitIndex(Math.max(0, files.getMinOffset())));
        long found = skipBlanks(searchFirst(from, max, u -> u.readable && u.phy >= minPhyOffset), max);
        if (found > minOffset) {
            minOffset = found;
        }
    }

    /**
     * Deletes leading files (never the last) whose units all point below {@code minPhyOffset}, then corrects
     * the min offset.
     *
     * @return how many files were deleted
     */
    int deleteExpiredFiles(long minPhyOffset) {
        // the last unit of a file has the highest offset in it; a blank carries the offset of a later message
        int deleted = files.deleteExpiredFileByOffset(minPhyOffset, SIZE);
        correctMinOffset(minPhyOffset);
        return deleted;
    }

    /** Number of files, for tests and metrics. */
    int fileCount() {
        return files.fileCount();
    }

    Path directory() {
        return files.getStorePath();
    }

    /** Flushes and unmaps the files (shutdown); the queue is unusable afterwards. */
    void shutdown() {
        files.flushAll();
        files.shutdown(0);
    }

    /** Unmaps and deletes every file and the queue's directory. */
    void destroy() {
        files.destroy();
    }

    /** First index in [lo, hi) whose unit matches, for a predicate false...false true...true along the queue. */
    private long searchFirst(long lo, long hi, Predicate<Unit> matches) {
        Unit unit = new Unit();
        long low = lo;
        long high = hi;
        while (low < high) {
            long mid = (low + high) >>> 1;
            read(mid, unit);
            if (matches.test(unit)) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    /** The first index at or after {@code index} that is not a blank unit ({@code max} when none). */
    private long skipBlanks(long index, long max) {
        Unit unit = new Unit();
        long i = index;
        while (i < max && read(i, unit) && ConsumeQueueUnit.isBlank(unit.size)) {
            i++;
        }
        return i;
    }

    private long findLastPhyEnd() {
        Unit unit = new Unit();
        long first = unitIndex(Math.max(0, files.getMinOffset()));
        for (long i = getMaxOffsetInQueue() - 1; i >= first; i--) {
            if (read(i, unit) && unit.isMessage()) {
                return unit.phy + unit.size;
            }
        }
        return 0;
    }

    /** Reads unit {@code index} into {@code unit}; false (and unit marked unreadable) when it is not there. */
    private boolean read(long index, Unit unit) {
        long pos = byteOffset(index);
        MappedFile file = files.findMappedFileByOffset(pos);
        if (file == null || !file.hold()) {
            return unit.unreadable();
        }
        try {
            int at = (int) (pos - file.getFileFromOffset());
            if (at + SIZE > file.getReadPosition()) {
                return unit.unreadable();
            }
            unit.readable = true;
            unit.phy = file.getLong(at + ConsumeQueueUnit.PHY_OFFSET_OFFSET);
            unit.size = file.getInt(at + ConsumeQueueUnit.MSG_SIZE_OFFSET);
            return true;
        } finally {
            file.release();
        }
    }

    /** A unit read for a search; reused across the probes of one search. */
    private static final class Unit {
        boolean readable;
        long phy;
        int size;

        boolean unreadable() {
            readable = false;
            phy = Long.MIN_VALUE;
            size = 0;
            return false;
        }

        boolean isMessage() {
            return readable && ConsumeQueueUnit.isMessage(phy, size);
        }
    }

    @Override
    public String toString() {
        return "ConsumeQueue{" + topic + "-" + queueId + ", min=" + minOffset + ", max=" + getMaxOffsetInQueue() + "}";
    }
}

package dev.wharf.store.queue;

import static dev.wharf.store.queue.ConsumeQueueUnit.SIZE;
import static dev.wharf.store.queue.ConsumeQueueUnit.byteOffset;
import static dev.wharf.store.queue.ConsumeQueueUnit.unitIndex;

import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.MappedFileQueue;
import dev.wharf.store.file.SelectMappedBufferResult;
import dev.wharf.store.queue.QueueScan.Unit;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.LongUnaryOperator;
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
 * <p>Open and closed: the files are mapped on first use and closed again when the store's budget of mapped
 * queues ({@link QueueMappings}) needs the room or the queue stays idle. While closed, the queue keeps its
 * ends (min, max, last commit-log offset) in a few fields, so an idle queue costs no mapping, no descriptor
 * and about a hundred bytes of heap, and reopening it sets the known positions without reading the files. A
 * queue whose ends are not known (found on disk after an unclean stop) scans its last files when it opens,
 * and drops units beyond the commit log's recovered end ({@link #truncateDirtyLogicFiles(long)} on a closed
 * queue is applied then).
 *
 * <p>Thread-safety: one writer (the dispatch thread) calls {@link #putUnit}; any number of readers call the
 * getters concurrently and without locks: a unit becomes visible when the queue's end (a volatile) moves past
 * it, which happens after its bytes are written. Every operation counts itself as a user while it runs, and a
 * queue is closed only with no user, so nobody ever reads an unmapped file. {@link #flush(int)} may run on a
 * flush thread and {@link #correctMinOffset(long)} on the clean-up thread. {@link #load()}, {@link #recover()}
 * and {@link #destroy()} run while no writer is active (start-up, recovery, topic deletion).
 */
public final class ConsumeQueue {

    private static final Logger log = LoggerFactory.getLogger(ConsumeQueue.class);

    /** No commit-log end to cut at when the queue opens. */
    private static final long NO_TRUNCATION = Long.MAX_VALUE;

    /** Disk blocks a consume-queue file is given at a time ahead of the writer (one page). */
    static final int RESERVE_STEP = 4096;

    private final String topic;
    private final int queueId;
    private final int mappedFileSize;
    private final QueueFiles handle;
    /** Owned by the writer: one reusable unit, so a put allocates nothing; made on the first put. */
    private ByteBuffer unitBuffer;
    /** Whether the fields below are exact (else the files are scanned when they open). */
    private volatile boolean endsKnown;
    /** First readable unit number. */
    private volatile long minOffset;
    /** Commit-log offset just past the last message unit; 0 while there is none. */
    private volatile long lastPhyEnd;
    /** Byte end of the written units in the queue's file space. */
    private volatile long endByte;
    /** Start of the first file, -1 when the queue has no file. */
    private volatile long firstFileByte = -1;
    /** Units pointing at or past this commit-log offset are dropped when the queue next opens. */
    private volatile long truncateAt = NO_TRUNCATION;

    /**
     * A queue used on its own, with no limit on mapped queues, whose files live in {@code queueDir}. Files
     * already there are found by {@link #load()}.
     *
     * @param mappedFileSize bytes per file, a positive multiple of {@link ConsumeQueueUnit#SIZE}
     */
    public ConsumeQueue(String topic, int queueId, Path queueDir, int mappedFileSize) {
        this(topic, queueId, queueDir, mappedFileSize, QueueMappings.UNLIMITED, false);
    }

    /**
     * @param onDisk whether files may already exist: their ends are then unknown until the queue opens (or a
     *               manifest tells them, {@link #restoreEnds})
     */
    ConsumeQueue(String topic, int queueId, Path queueDir, int mappedFileSize, QueueMappings mappings, boolean onDisk) {
        checkFileSize(mappedFileSize);
        this.topic = topic;
        this.queueId = queueId;
        this.mappedFileSize = mappedFileSize;
        this.handle = new QueueFiles(this, queueDir, mappedFileSize, mappings, this::prepare);
        this.endsKnown = !onDisk;
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

    /**
     * Takes the ends a manifest recorded. When {@code exact} (written at the clean stop this start follows) the
     * queue then opens without reading its files; otherwise they are lower bounds, kept only so the next
     * manifest still holds them, and the queue scans its files when it opens. Before the queue is first used.
     */
    void restoreEnds(long min, long firstFile, long end, long lastPhy, boolean exact) {
        this.minOffset = min;
        this.firstFileByte = firstFile;
        this.endByte = end;
        this.lastPhyEnd = lastPhy;
        this.endsKnown = exact;
    }

    /** The min offset as recorded, without opening (a lower bound while the ends are not known). */
    long minOffsetRaw() {
        return minOffset;
    }

    /** The last message's end as recorded, without opening. */
    long lastPhyEndRaw() {
        return lastPhyEnd;
    }

    /** Whether {@link #getMaxOffsetInQueue()} and friends are exact without opening. */
    boolean endsKnown() {
        return endsKnown;
    }

    long endByte() {
        return endByte;
    }

    long firstFileByte() {
        return firstFileByte;
    }

    /** Whether the files are mapped now. */
    boolean isMapped() {
        return handle.current() != null;
    }

    long lastUsed() {
        return handle.lastUsed();
    }

    /**
     * Opens the files now (rather than on first use), scanning them for their valid end; {@link #recover()}
     * is then a no-op. The files must have the configured size.
     *
     * @throws IOException when a file cannot be mapped or has another size
     */
    public void load() throws IOException {
        handle.reopen(() -> endsKnown = false);
    }

    /** Makes sure the queue's ends are known, opening (and so scanning) its files when they are not. */
    public void recover() {
        if (!endsKnown) {
            MappedFileQueue f = enter();
            if (f != null) {
                exit();
            }
        }
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
        MappedFileQueue f = enter();
        if (f == null) {
            return PutUnitStatus.FAILED;
        }
        try {
            return putUnit(f, cqOffset, phyOffset, size, tagsCode);
        } finally {
            exit();
        }
    }

    private PutUnitStatus putUnit(MappedFileQueue f, long cqOffset, long phyOffset, int size, long tagsCode) {
        boolean nothingReadable = f.isEmpty() || minOffset >= unitIndex(endByte);
        long next;
        if (f.isEmpty()) {
            MappedFile file = f.rollIfFull(byteOffset(cqOffset));
            if (file == null) {
                return PutUnitStatus.FAILED;
            }
            next = unitIndex(file.getFileFromOffset());
            firstFileByte = file.getFileFromOffset();
            endByte = file.getFileFromOffset();
        } else {
            next = unitIndex(endByte);
            if (cqOffset < next) {
                return PutUnitStatus.DUPLICATE;
            }
        }
        PutUnitStatus status = PutUnitStatus.APPENDED;
        if (cqOffset > next) {
            for (long i = next; i < cqOffset; i++) {
                if (!append(f, i, phyOffset, ConsumeQueueUnit.BLANK_SIZE, 0L)) {
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
        if (!append(f, cqOffset, phyOffset, size, tagsCode)) {
            return PutUnitStatus.FAILED;
        }
        lastPhyEnd = phyOffset + size;
        endByte = f.getMaxOffset();
        return status;
    }

    private boolean append(MappedFileQueue f, long index, long phyOffset, int size, long tagsCode) {
        MappedFile file = f.rollIfFull(byteOffset(index));
        if (file == null) {
            return false;
        }
        if (file.getFileFromOffset() + file.getWrotePosition() != byteOffset(index)) {
            throw new IllegalStateException("consume queue " + topic + "-" + queueId + " would write unit " + index
                    + " at byte " + (file.getFileFromOffset() + file.getWrotePosition()));
        }
        ByteBuffer unit = unitBuffer;
        if (unit == null) {
            unit = ByteBuffer.allocate(SIZE);
            unitBuffer = unit;
        }
        unit.clear();
        ConsumeQueueUnit.write(unit, phyOffset, size, tagsCode);
        unit.flip();
        return file.append(unit);
    }

    /** First readable unit number. */
    public long getMinOffsetInQueue() {
        if (!endsKnown) {
            recover();
        }
        return minOffset;
    }

    /** Next unit number to be written: the number of units counted from the queue's logical start. */
    public long getMaxOffsetInQueue() {
        if (!endsKnown) {
            recover();
        }
        return unitIndex(endByte);
    }

    /**
     * The queue's end as readers may see it: units pointing at or past {@code confirmedPhyOffset} (an atomic
     * batch whose last record is not dispatched yet) are not counted. They can only be at the end of the queue,
     * since units are written in commit-log order; usually the last message ends below the bound and the
     * answer needs no file at all.
     */
    public long getVisibleMaxOffset(long confirmedPhyOffset) {
        long max = getMaxOffsetInQueue();
        long last = lastPhyEnd;
        if (max <= minOffset || (last > 0 && last <= confirmedPhyOffset)) {
            return max;
        }
        MappedFileQueue f = enter();
        if (f == null) {
            return minOffset;
        }
        try {
            long first = Math.max(minOffset, unitIndex(Math.max(0, f.getMinOffset())));
            long end = Math.min(max, unitIndex(endByte));
            Unit unit = new Unit();
            while (end > first && QueueScan.read(f, end - 1, unit) && unit.phy >= confirmedPhyOffset) {
                end--;
            }
            return end;
        } finally {
            exit();
        }
    }

    /**
     * The units from {@code startIndex} to the end of the written part of the file holding it, without copying.
     * Blank units ({@link ConsumeQueueUnit#isBlank(int)}) may appear and must be skipped. The caller releases the
     * result (which keeps the file mapped until then, even if the queue closes meanwhile).
     *
     * @return null when {@code startIndex} is below the min offset or not written yet
     */
    public SelectMappedBufferResult getIndexBuffer(long startIndex) {
        if (startIndex < getMinOffsetInQueue() || startIndex > Long.MAX_VALUE / SIZE) {
            return null;
        }
        MappedFileQueue f = enter();
        if (f == null) {
            return null;
        }
        try {
            long pos = byteOffset(startIndex);
            MappedFile file = f.fileAt(pos);
            if (file == null) {
                return null;
            }
            return file.selectMappedBuffer((int) (pos - file.getFileFromOffset()));
        } finally {
            exit();
        }
    }

    /**
     * The first unit whose message was stored at or after {@code timestamp}, by binary search (store times grow
     * along a queue). A message already gone from the commit log counts as older than any timestamp.
     *
     * @param storeTimeOfPhyOffset the store time of the message at a commit-log offset, -1 when it is gone
     * @return a unit number in [min, max]; max when every message is older
     */
    public long getOffsetInQueueByTime(long timestamp, LongUnaryOperator storeTimeOfPhyOffset) {
        MappedFileQueue f = enter();
        if (f == null) {
            return minOffset;
        }
        try {
            long max = unitIndex(endByte);
            long found = QueueScan.searchFirst(f, minOffset, max, u -> {
                if (!u.readable) {
                    return false;
                }
                long storeTime = storeTimeOfPhyOffset.applyAsLong(u.phy);
                return storeTime >= 0 && storeTime >= timestamp;
            });
            return QueueScan.skipBlanks(f, found, max);
        } finally {
            exit();
        }
    }

    /** Commit-log offset just past the last message of this queue; 0 when it holds none. */
    public long getLastOffset() {
        if (!endsKnown) {
            recover();
        }
        return lastPhyEnd;
    }

    /** Commit-log offset of the first readable message, -1 when nothing is readable. */
    public long getMinPhysicalOffset() {
        MappedFileQueue f = enter();
        if (f == null) {
            return -1;
        }
        try {
            Unit unit = new Unit();
            long min = minOffset;
            if (min >= unitIndex(endByte) || !QueueScan.read(f, min, unit) || !unit.isMessage()) {
                return -1;
            }
            return unit.phy;
        } finally {
            exit();
        }
    }

    /** Forces written units when at least {@code leastPages} pages are dirty (0: any); a closed queue has none. */
    public void flush(int leastPages) {
        MappedFileQueue f = handle.current();
        if (f != null) {
            f.flush(leastPages);
        }
    }

    /** Forces everything written (shutdown). */
    void flushAll() {
        MappedFileQueue f = handle.current();
        if (f != null) {
            f.flushAll();
        }
    }

    /**
     * Drops the units that point at or past {@code phyOffset}, the commit log's valid end after an unclean
     * stop: they are a suffix of the queue since offsets grow along it. A closed queue whose ends are not
     * known yet does it when it opens.
     */
    public void truncateDirtyLogicFiles(long phyOffset) {
        if (!isMapped() && !endsKnown) {
            truncateAt = Math.min(truncateAt, phyOffset);
            return;
        }
        long last = lastPhyEnd;
        if (endsKnown && last > 0 && last <= phyOffset) {
            return; // every message ends below the cut (units grow along the queue): nothing to open for
        }
        MappedFileQueue f = enter();
        if (f == null) {
            return;
        }
        try {
            truncateBeyond(f, phyOffset);
        } finally {
            exit();
        }
    }

    private void truncateBeyond(MappedFileQueue f, long phyOffset) {
        if (f.isEmpty()) {
            return;
        }
        long max = unitIndex(f.getMaxOffset());
        long keepEnd = QueueScan.searchFirst(f, unitIndex(f.getMinOffset()), max, u -> u.readable
                && (ConsumeQueueUnit.isBlank(u.size) ? u.phy >= phyOffset : u.phy + u.size > phyOffset));
        if (keepEnd == max) {
            return;
        }
        f.truncateDirtyFiles(byteOffset(keepEnd));
        endByte = f.getMaxOffset();
        MappedFile cut = f.lastFile();
        if (cut != null) {
            cut.forceAll(); // dropped units must not reappear after a crash (a replica truncating its log)
        }
        if (minOffset > keepEnd) {
            minOffset = keepEnd;
        }
        lastPhyEnd = QueueScan.lastPhyEnd(f);
        log.info("Consume queue {}-{}: dropped units {} to {} beyond commit-log offset {}", topic, queueId, keepEnd,
                max - 1, phyOffset);
    }

    /**
     * Moves the min offset to the first message at or above {@code minPhyOffset}, the oldest offset the commit
     * log still holds; never moves it back.
     */
    public void correctMinOffset(long minPhyOffset) {
        MappedFileQueue f = enter();
        if (f == null) {
            return;
        }
        try {
            correctMinOffset(f, minPhyOffset);
        } finally {
            exit();
        }
    }

    private void correctMinOffset(MappedFileQueue f, long minPhyOffset) {
        long max = unitIndex(endByte);
        long from = Math.max(minOffset, unitIndex(Math.max(0, f.getMinOffset())));
        long found = QueueScan.skipBlanks(f,
                QueueScan.searchFirst(f, from, max, u -> u.readable && u.phy >= minPhyOffset), max);
        if (found > minOffset) {
            minOffset = found;
        }
    }

    /**
     * Deletes leading files (never the last) whose units all point below {@code minPhyOffset}, then corrects
     * the min offset. A closed queue with a single file is answered from its ends where they tell enough.
     *
     * @return how many files were deleted
     */
    int deleteExpiredFiles(long minPhyOffset) {
        if (!isMapped() && endsKnown && (firstFileByte < 0 || endByte - firstFileByte <= mappedFileSize)) {
            // one file, which is never deleted: only the min offset may move, often known without the file
            long max = unitIndex(endByte);
            if (minOffset >= max) {
                return 0;
            }
            long last = lastPhyEnd;
            if (last > 0 && last <= minPhyOffset) {
                minOffset = max;
                return 0;
            }
        }
        MappedFileQueue f = enter();
        if (f == null) {
            return 0;
        }
        try {
            // the last unit of a file has the highest offset in it; a blank carries the offset of a later message
            int deleted = f.deleteExpiredFileByOffset(minPhyOffset, SIZE);
            firstFileByte = f.isEmpty() ? -1 : f.getMinOffset();
            correctMinOffset(f, minPhyOffset);
            return deleted;
        } finally {
            exit();
        }
    }

    /** Number of files, for tests and metrics. */
    int fileCount() {
        MappedFileQueue f = enter();
        if (f == null) {
            return 0;
        }
        try {
            return f.fileCount();
        } finally {
            exit();
        }
    }

    Path directory() {
        return handle.directory();
    }

    /** Flushes and unmaps the files (shutdown); the queue opens again on its next use. */
    void shutdown() {
        handle.close();
    }

    /** Unmaps and deletes every file and the queue's directory. */
    void destroy() {
        handle.destroy(() -> {
            endByte = 0;
            firstFileByte = -1;
            minOffset = 0;
            lastPhyEnd = 0;
            endsKnown = true;
        });
    }

    /**
     * Closes the files when nobody uses the queue and its last use was before {@code usedBefore}.
     *
     * @return whether the queue was closed
     */
    boolean closeIfIdle(long usedBefore) {
        return handle.closeIfIdle(usedBefore);
    }

    private MappedFileQueue enter() {
        return handle.enter();
    }

    private void exit() {
        handle.exit();
    }

    /** Sets the positions of freshly mapped files from the known ends, or scans them for the ends. */
    private void prepare(MappedFileQueue f) {
        if (endsKnown) {
            applyKnownEnds(f);
        } else {
            long end = QueueScan.recoverEnd(f, topic, queueId);
            endByte = end;
            firstFileByte = f.isEmpty() ? -1 : f.getMinOffset();
            minOffset = QueueScan.skipBlanks(f, unitIndex(Math.max(0, f.getMinOffset())), unitIndex(end));
            lastPhyEnd = QueueScan.lastPhyEnd(f);
            endsKnown = true;
        }
        long cut = truncateAt;
        if (cut != NO_TRUNCATION) {
            truncateAt = NO_TRUNCATION;
            truncateBeyond(f, cut);
        }
    }

    private void applyKnownEnds(MappedFileQueue f) {
        long end = endByte;
        if (f.isEmpty()) {
            if (end > Math.max(0, firstFileByte)) {
                log.error("Consume queue {}-{}: its files are gone (expected units up to {}); it is empty until the"
                        + " store rebuilds it at the next start", topic, queueId, unitIndex(end));
            }
            endByte = 0;
            firstFileByte = -1;
            minOffset = 0;
            lastPhyEnd = 0;
            return;
        }
        if (end < f.getMinOffset() || end > f.getMaxOffset()) {
            throw new IllegalStateException("its files in " + directory() + " cover bytes [" + f.getMinOffset() + ", "
                    + f.getMaxOffset() + ") but the queue ends at byte " + end);
        }
        f.truncateAtCleanEnd(end);
        firstFileByte = f.getMinOffset();
    }

    @Override
    public String toString() {
        return "ConsumeQueue{" + topic + "-" + queueId + ", min=" + minOffset + ", max=" + unitIndex(endByte)
                + (isMapped() ? "" : ", closed") + "}";
    }
}

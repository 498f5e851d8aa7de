package dev.wharf.store.queue;

import static dev.wharf.store.queue.ConsumeQueueUnit.SIZE;
import static dev.wharf.store.queue.ConsumeQueueUnit.byteOffset;
import static dev.wharf.store.queue.ConsumeQueueUnit.unitIndex;

import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.MappedFileQueue;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads units of one queue's open files: binary searches, blank skipping, and the scan that finds where a
 * queue really ends after an unclean stop. The caller keeps the files open for the duration of a call.
 *
 * <p>Not thread-safe by itself: a {@link Unit} is reused across the probes of one search.
 */
final class QueueScan {

    private static final Logger log = LoggerFactory.getLogger(QueueScan.class);

    /**
     * The end scan re-validates only the last few files: older ones were complete and flushed long before the
     * stop, and a full scan of every queue would make opening proportional to the queue's length.
     */
    static final int RECOVER_FILES = 3;

    /**
     * Zero pages in a row that end the wipe of a torn tail: units are written in order, so what a crash left
     * behind the valid end is a contiguous run; writeback may reorder pages, so a little more than one page.
     */
    private static final int ZERO_PAGES_TO_STOP = 16;

    private QueueScan() {
    }

    /** A unit read for a search. */
    static final class Unit {
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

    /** Reads unit {@code index}; false (and the unit marked unreadable) when it is not there. */
    static boolean read(MappedFileQueue files, long index, Unit unit) {
        long pos = byteOffset(index);
        MappedFile file = files.fileAt(pos);
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

    /** First index in [lo, hi) whose unit matches, for a predicate false...false true...true along the queue. */
    static long searchFirst(MappedFileQueue files, long lo, long hi, Predicate<Unit> matches) {
        Unit unit = new Unit();
        long low = lo;
        long high = hi;
        while (low < high) {
            long mid = (low + high) >>> 1;
            read(files, mid, unit);
            if (matches.test(unit)) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    /** The first index at or after {@code index} that is not a blank unit ({@code max} when none). */
    static long skipBlanks(MappedFileQueue files, long index, long max) {
        Unit unit = new Unit();
        long i = index;
        while (i < max && read(files, i, unit) && ConsumeQueueUnit.isBlank(unit.size)) {
            i++;
        }
        return i;
    }

    /** Commit-log offset just past the last message unit, 0 when there is none. */
    static long lastPhyEnd(MappedFileQueue files) {
        Unit unit = new Unit();
        long first = unitIndex(Math.max(0, files.getMinOffset()));
        for (long i = unitIndex(files.getMaxOffset()) - 1; i >= first; i--) {
            if (read(files, i, unit) && unit.isMessage()) {
                return unit.phy + unit.size;
            }
        }
        return 0;
    }

    /**
     * Finds the valid end of freshly loaded files (all marked full) and cuts them there: scanning the last
     * {@value #RECOVER_FILES} files from their start, the valid part ends before the first unit that is zero
     * (never written) or not sane (negative size, offset going backwards: a torn write). What a crash left
     * behind it is zeroed up to the first run of zero pages, and later files are deleted. Cost: the valid units
     * of the last files plus the torn run, never the untouched rest of a file.
     *
     * @return the byte end of the valid part
     */
    static long recoverEnd(MappedFileQueue files, String topic, int queueId) {
        List<MappedFile> list = files.getMappedFiles();
        if (list.isEmpty()) {
            return 0;
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
        wipeTornTail(files, validEnd);
        files.truncateAtCleanEnd(validEnd);
        return validEnd;
    }

    /** Zeroes the bytes from {@code end} in its file up to the first run of zero pages (or the file's end). */
    private static void wipeTornTail(MappedFileQueue files, long end) {
        MappedFile file = files.fileAt(end);
        if (file == null) {
            return;
        }
        int fileSize = file.getFileSize();
        int pos = (int) (end - file.getFileFromOffset());
        boolean changed = false;
        int zeroPages = 0;
        while (pos < fileSize && zeroPages < ZERO_PAGES_TO_STOP) {
            int pageEnd = Math.min(fileSize, (pos / MappedFile.OS_PAGE_SIZE + 1) * MappedFile.OS_PAGE_SIZE);
            boolean pageWasZero = true;
            for (; pos < pageEnd; pos++) {
                if (pos % Long.BYTES == 0 && pos + Long.BYTES <= pageEnd) {
                    if (file.getLong(pos) != 0) {
                        file.putLong(pos, 0L);
                        pageWasZero = false;
                    }
                    pos += Long.BYTES - 1;
                } else if (zeroByte(file, pos)) {
                    pageWasZero = false;
                }
            }
            zeroPages = pageWasZero ? zeroPages + 1 : 0;
            changed |= !pageWasZero;
        }
        if (changed) {
            file.forceAll();
        }
    }

    private static boolean zeroByte(MappedFile file, int pos) {
        int word = pos & ~3;
        int shift = (3 - (pos - word)) * 8;
        int value = file.getInt(word);
        if (((value >>> shift) & 0xFF) == 0) {
            return false;
        }
        file.putInt(word, value & ~(0xFF << shift));
        return true;
    }
}

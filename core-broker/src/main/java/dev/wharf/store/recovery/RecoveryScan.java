package dev.wharf.store.recovery;

import dev.wharf.common.message.MessageRecord;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.store.commitlog.RecordResync;
import dev.wharf.store.commitlog.RecordValidator;
import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.SelectMappedBufferResult;
import dev.wharf.store.file.ShortFile;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates commit-log files record by record and decides, at each place where the records stop being intact,
 * whether that is the end of the log or damage in its middle:
 *
 * <ul>
 *   <li><b>Below the checkpoint</b> (the damaged bytes start below the checkpoint's safe offset, or the next
 *       intact record was stored before the checkpoint's last commit-log flush): the bytes were on disk
 *       once, so this is media corruption. The damaged range is skipped up to the next intact record (found
 *       byte by byte, see {@link RecordResync}) and listed as a {@link QuarantineEntry}; every intact record
 *       after it is kept.</li>
 *   <li><b>Above it</b>: a write torn by the crash. The log ends there.</li>
 * </ul>
 *
 * <p>Atomic batches: when the log ends inside a batch it ends at the batch's first record. A skipped range
 * inside a batch keeps the batch's intact records (what can be saved is saved) and says so in the log.
 *
 * <p>Not thread-safe: one scan at start-up.
 */
final class RecoveryScan {

    private static final Logger log = LoggerFactory.getLogger(RecoveryScan.class);

    /**
     * Past the safe offset, this many zero bytes in a row are the unwritten end of the log: the search for
     * intact records after it stops, so an unclean restart does not read the whole empty tail of a file.
     */
    static final int END_ZERO_RUN = 1 << 20;

    private final List<MappedFile> files;
    private final boolean checkCrc;
    private final long safeOffset;
    private final long flushedTimestamp;
    private final List<ShortFile> shortFiles;
    final List<QuarantineEntry> entries = new ArrayList<>();
    /** Offset of the damaged record that ended the log, or -1. */
    long invalidAt = -1;
    /** Offset of the incomplete atomic batch the log was cut back to, or -1. */
    long cutBatch = -1;
    /**
     * Start of the last intact record at or below the safe offset, or -1 when none was seen: every record before
     * it lies wholly below the safe offset, so its consume-queue and index entries are on disk and need no second
     * dispatch.
     */
    long lastRecordAtOrBelowSafe = -1;
    /** The checkpoint's own safe offset (not a clean-shutdown end): what {@link #lastRecordAtOrBelowSafe} uses. */
    private long dispatchedSafeOffset = -1;

    /**
     * @param files            the commit-log files, oldest first
     * @param safeOffset       below it everything was on disk (the checkpoint's safe offset or clean end); -1
     *                         when there is no valid checkpoint
     * @param flushedTimestamp store time of the last flushed commit-log write per the checkpoint (0: unknown)
     */
    RecoveryScan(List<MappedFile> files, boolean checkCrc, long safeOffset, long flushedTimestamp,
            List<ShortFile> shortFiles) {
        this.files = files;
        this.checkCrc = checkCrc;
        this.safeOffset = safeOffset;
        this.flushedTimestamp = flushedTimestamp;
        this.shortFiles = shortFiles;
    }

    /** Sets the checkpoint's safe offset below which consume queues and index are known to be on disk. */
    void trackDispatchedBelow(long checkpointSafeOffset) {
        this.dispatchedSafeOffset = checkpointSafeOffset;
    }

    /**
     * Validates file {@code index}.
     *
     * @return the offset where the log ends inside this file, or -1 when the whole file is good and the scan
     *         goes on with the next one
     */
    long scanFile(int index) {
        MappedFile file = files.get(index);
        SelectMappedBufferResult data = file.selectMappedBuffer(0);
        if (data == null) {
            return file.getFileFromOffset();
        }
        long from = file.getFileFromOffset();
        try {
            ByteBuffer buffer = data.byteBuffer();
            int limit = data.size();
            int pos = 0;
            long openBatchStart = -1;
            while (pos < limit) {
                int result = RecordValidator.check(buffer, pos, limit, from + pos, checkCrc);
                if (result > 0) {
                    if (from + pos <= dispatchedSafeOffset) {
                        lastRecordAtOrBelowSafe = from + pos;
                    }
                    boolean continues = MessageSysFlag.batchContinues(buffer.getInt(pos + MessageRecord.SYS_FLAG_OFFSET));
                    if (!continues) {
                        openBatchStart = -1;
                    } else if (openBatchStart < 0) {
                        openBatchStart = from + pos;
                    }
                    pos += result;
                    continue;
                }
                if (result == RecordValidator.BLANK) {
                    return endOfFile(openBatchStart, from + pos);
                }
                int next = resume(index, buffer, pos, limit, result);
                if (next == Integer.MIN_VALUE) {
                    return endLog(buffer, pos, limit, from, result, openBatchStart);
                }
                if (openBatchStart >= 0) {
                    log.warn("Commit log: damaged bytes at offset {} lie inside the atomic batch starting at {}; its"
                            + " intact records are kept", from + pos, openBatchStart);
                    openBatchStart = -1;
                }
                if (next < 0) {
                    return -1; // the rest of the file is skipped; the next file starts intact
                }
                pos = next;
            }
            return endOfFile(openBatchStart, from + limit);
        } finally {
            data.release();
        }
    }

    private long endOfFile(long openBatchStart, long at) {
        if (openBatchStart < 0) {
            return -1;
        }
        log.error("Commit log: the atomic batch starting at offset {} is not closed before the end of its file at {}",
                openBatchStart, at);
        cutBatch = openBatchStart;
        return openBatchStart;
    }

    /**
     * At damaged or unwritten bytes at {@code pos}: where intact records resume, if the damage lies below the
     * checkpoint.
     *
     * @return the position to go on from in this file, -1 to go on with the next file, or
     *         {@code Integer.MIN_VALUE} when the log ends here
     */
    private int resume(int index, ByteBuffer buffer, int pos, int limit, int result) {
        MappedFile file = files.get(index);
        long from = file.getFileFromOffset();
        long badAt = from + pos;
        int searchAtLeast = (int) Math.max(0, Math.min(limit, safeOffset - from));
        int next = RecordResync.findNext(buffer, pos, limit, from, searchAtLeast, END_ZERO_RUN);
        long resumeAt;
        long resumeTimestamp;
        if (next >= 0 && buffer.getInt(next + MessageRecord.MAGIC_CODE_OFFSET) == MessageRecord.MESSAGE_MAGIC_CODE) {
            resumeAt = from + next;
            resumeTimestamp = buffer.getLong(next + MessageRecord.STORE_TIMESTAMP_OFFSET);
        } else {
            // a blank file end, or nothing intact in this file: the next file's first record tells
            long nextFileTimestamp = firstRecordTimestamp(index + 1);
            if (next < 0 && nextFileTimestamp < 0) {
                return Integer.MIN_VALUE;
            }
            resumeAt = next >= 0 ? from + next : from + limit;
            resumeTimestamp = nextFileTimestamp;
        }
        boolean belowCheckpoint = badAt < safeOffset
                || (resumeTimestamp > 0 && resumeTimestamp < flushedTimestamp);
        if (!belowCheckpoint) {
            if (result == RecordValidator.INVALID) {
                log.warn("Commit log: damaged record at offset {} above the checkpoint (a write torn by the crash);"
                        + " intact records follow from offset {} but were not known to be on disk (stored at {}, last"
                        + " flush in the checkpoint at {}): the log is cut at {}", badAt, resumeAt, resumeTimestamp,
                        flushedTimestamp, badAt);
            }
            return Integer.MIN_VALUE;
        }
        long length = resumeAt - badAt;
        entries.add(QuarantineEntry.describe(buffer, pos, limit, badAt, length, file.getFileName(), pos,
                reason(file, pos, result, length), "recovery"));
        return next >= 0 ? next : -1;
    }

    /** Store time of the first record of file {@code index} when it is intact, else -1. */
    private long firstRecordTimestamp(int index) {
        if (index >= files.size()) {
            return -1;
        }
        MappedFile file = files.get(index);
        SelectMappedBufferResult data = file.selectMappedBuffer(0);
        if (data == null) {
            return -1;
        }
        try {
            int size = RecordValidator.check(data.byteBuffer(), 0, data.size(), file.getFileFromOffset(), true);
            return size > 0 ? data.byteBuffer().getLong(MessageRecord.STORE_TIMESTAMP_OFFSET) : -1;
        } finally {
            data.release();
        }
    }

    /** The log ends at {@code pos}: records what was lost when the bytes were below the checkpoint. */
    private long endLog(ByteBuffer buffer, int pos, int limit, long from, int result, long openBatchStart) {
        long badAt = from + pos;
        if (result == RecordValidator.INVALID) {
            invalidAt = badAt;
        }
        if (badAt < safeOffset) {
            long lostEnd = Math.min(safeOffset, from + limit);
            MappedFile file = files.get(indexOf(from));
            entries.add(new QuarantineEntry(badAt, lostEnd - badAt, file.getFileName(), pos,
                    reason(file, pos, result, lostEnd - badAt) + "; no intact record follows, the log ends here",
                    "recovery", null, -1, -1, null, true));
            log.error("Commit log: bytes [{}, {}) below the checkpoint are damaged and nothing intact follows; the log"
                    + " ends at {}", badAt, lostEnd, badAt);
        }
        if (openBatchStart >= 0) {
            cutBatch = openBatchStart;
            return openBatchStart;
        }
        return badAt;
    }

    private int indexOf(long fileFromOffset) {
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i).getFileFromOffset() == fileFromOffset) {
                return i;
            }
        }
        throw new IllegalStateException("no commit-log file at " + fileFromOffset);
    }

    private String reason(MappedFile file, int pos, int result, long length) {
        for (ShortFile s : shortFiles) {
            if (s.fileFromOffset() == file.getFileFromOffset() && pos + length > s.actualSize()) {
                return "file truncated to " + s.actualSize() + " bytes (expected " + s.expectedSize()
                        + "): records from position " + pos + " to the file end are lost";
            }
        }
        return result == RecordValidator.NO_RECORD ? "zeros where records were written (a hole in the file)"
                : "damaged record (magic code, sizes, physical offset or body CRC do not check out)";
    }
}

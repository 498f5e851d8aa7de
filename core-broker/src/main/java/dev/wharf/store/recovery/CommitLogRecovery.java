package dev.wharf.store.recovery;

import dev.wharf.common.message.MessageRecord;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.store.commitlog.CommitLog;
import dev.wharf.store.commitlog.RecordValidator;
import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.MappedFileQueue;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds where the commit log really ends after the files are mapped, and cuts it there.
 *
 * <ul>
 *   <li>Clean restart (no abort file, valid checkpoint with a clean-shutdown offset that lies in the last
 *       file and is followed by unwritten bytes): trusts the checkpoint; nothing is scanned, so a store of any
 *       size reopens in milliseconds.</li>
 *   <li>Otherwise: validates records (magic, sizes, physical offset, body CRC) from the start of the file
 *       holding the checkpoint's safe offset, and truncates at the first record that is not intact. Records
 *       below the safe offset were on disk together with their consume-queue and index entries when the
 *       checkpoint was written, so they are not scanned again.</li>
 *   <li>Atomic batches: when the valid part ends inside a batch (its closing record is missing or damaged),
 *       the log is cut at the batch's first record, so a batch is either all there or not at all.</li>
 * </ul>
 *
 * <p>Not thread-safe: runs once at start-up before any other service.
 */
public final class CommitLogRecovery {

    private static final Logger log = LoggerFactory.getLogger(CommitLogRecovery.class);

    /**
     * What recovery decided.
     *
     * @param maxPhyOffset end of the valid commit log
     * @param dispatchFrom where the dispatcher must resume (a record boundary; consume queues and index are
     *                     complete below it, and dispatchers skip what they already hold above it)
     * @param scanned      whether records were validated (false: trusted the clean-shutdown checkpoint)
     * @param truncated    whether an invalid record or an incomplete atomic batch was found and the log cut there
     */
    public record Result(long maxPhyOffset, long dispatchFrom, boolean scanned, boolean truncated) {
    }

    private CommitLogRecovery() {
    }

    public static Result recover(CommitLog commitLog, StoreCheckpoint checkpoint, boolean lastExitOk, boolean checkCrc) {
        MappedFileQueue files = commitLog.mappedFileQueue();
        if (files.isEmpty()) {
            return new Result(0, 0, false, false);
        }
        if (lastExitOk && checkpoint.wasLoadedValid()) {
            long clean = checkpoint.getCleanShutdownOffset();
            if (isPlausibleEnd(files, clean)) {
                files.truncateDirtyFiles(clean, false);
                log.info("Clean restart: commit log ends at {} (from the checkpoint)", clean);
                return new Result(clean, clean, false, false);
            }
            log.warn("Clean shutdown recorded but the checkpoint's end {} does not match the commit-log files; validating",
                    clean);
        }
        long minOffset = files.getMinOffset();
        long safe = checkpoint.wasLoadedValid() ? checkpoint.getSafeOffset() : minOffset;
        if (safe < minOffset) {
            safe = minOffset;
        }
        MappedFile startFile = files.findMappedFileByOffset(safe);
        if (startFile == null) {
            startFile = safe >= files.getMaxOffset() ? files.getLastMappedFile() : files.getFirstMappedFile();
        }
        ScanOutcome outcome = scan(files, startFile, checkCrc);
        files.truncateDirtyFiles(outcome.end);
        // the safe offset may sit inside a record; the file start is the nearest boundary below it
        long dispatchFrom = Math.min(startFile.getFileFromOffset(), outcome.end);
        if (outcome.invalidAt >= 0) {
            log.warn("Commit log: record at offset {} is not intact (torn or corrupt); truncated the log there", outcome.invalidAt);
        }
        if (outcome.cutBatch >= 0) {
            log.warn("Commit log: the atomic batch starting at offset {} did not reach the disk whole; dropped all of it",
                    outcome.cutBatch);
        }
        log.info("Recovered commit log from offset {}: ends at {}, dispatch resumes at {}", startFile.getFileFromOffset(),
                outcome.end, dispatchFrom);
        return new Result(outcome.end, dispatchFrom, true, outcome.invalidAt >= 0 || outcome.cutBatch >= 0);
    }

    private static boolean isPlausibleEnd(MappedFileQueue files, long offset) {
        MappedFile last = files.getLastMappedFile();
        long lastStart = last.getFileFromOffset();
        if (offset < lastStart || offset > lastStart + files.getMappedFileSize()) {
            return false;
        }
        int pos = (int) (offset - lastStart);
        if (pos + Long.BYTES > files.getMappedFileSize()) {
            return true;
        }
        // past the end nothing may be written: a record there means the checkpoint is stale
        return last.getLong(pos) == 0L;
    }

    /**
     * @param end       where the valid log ends
     * @param invalidAt offset of the damaged record that ended it, or -1
     * @param cutBatch  offset of the incomplete atomic batch the log was cut back to, or -1
     */
    private record ScanOutcome(long end, long invalidAt, long cutBatch) {

        static ScanOutcome endingAt(long end, long invalidAt, long openBatchStart) {
            return openBatchStart >= 0 ? new ScanOutcome(openBatchStart, invalidAt, openBatchStart)
                    : new ScanOutcome(end, invalidAt, -1);
        }
    }

    /**
     * Validates records from {@code startFile} on. A batch (records carrying INNER_BATCH_CONTINUES, closed by
     * one without it) counts only as a whole: when the log ends inside one, it ends at the batch's first record.
     * A batch never spans files, so a file start is always outside any batch.
     */
    private static ScanOutcome scan(MappedFileQueue files, MappedFile startFile, boolean checkCrc) {
        List<MappedFile> all = files.getMappedFiles();
        int index = all.indexOf(startFile);
        long end = startFile.getFileFromOffset();
        for (int i = index; i < all.size(); i++) {
            MappedFile file = all.get(i);
            SelectMappedBufferResult data = file.selectMappedBuffer(0);
            if (data == null) {
                return new ScanOutcome(file.getFileFromOffset(), -1, -1);
            }
            long openBatchStart = -1;
            try {
                int limit = data.size();
                int pos = 0;
                int result = RecordValidator.NO_RECORD;
                while (pos < limit) {
                    long recordOffset = file.getFileFromOffset() + pos;
                    result = RecordValidator.check(data.byteBuffer(), pos, limit, recordOffset, checkCrc);
                    if (result <= 0) {
                        break;
                    }
                    boolean continues = MessageSysFlag.batchContinues(
                            data.byteBuffer().getInt(pos + MessageRecord.SYS_FLAG_OFFSET));
                    if (!continues) {
                        openBatchStart = -1;
                    } else if (openBatchStart < 0) {
                        openBatchStart = recordOffset;
                    }
                    pos += result;
                }
                if ((result == RecordValidator.BLANK || pos >= limit) && openBatchStart < 0) {
                    end = file.getFileFromOffset() + file.getFileSize();
                    continue;
                }
                long stopAt = file.getFileFromOffset() + pos;
                return ScanOutcome.endingAt(stopAt, result == RecordValidator.INVALID ? stopAt : -1, openBatchStart);
            } finally {
                data.release();
            }
        }
        return new ScanOutcome(end, -1, -1);
    }
}

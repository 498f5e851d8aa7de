package dev.wharf.store.recovery;

import dev.wharf.store.commitlog.CommitLog;
import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.MappedFileQueue;
import dev.wharf.store.file.ShortFile;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds where the commit log really ends after the files are mapped, cuts it there, and lists what in its
 * middle is damaged.
 *
 * <ul>
 *   <li>Clean restart (no abort file, valid checkpoint with a clean-shutdown offset that lies in the last
 *       file and is followed by unwritten bytes, no truncated file): trusts the checkpoint; nothing is
 *       scanned, so a store of any size reopens in milliseconds.</li>
 *   <li>Otherwise: validates records (magic, sizes, physical offset, body CRC) from the start of the file
 *       holding the checkpoint's safe offset (and every truncated file before it). Damage below the
 *       checkpoint is skipped and reported ({@link RecoveryScan}); damage above it is a torn write and ends
 *       the log. Records below the safe offset were on disk together with their consume-queue and index
 *       entries when the checkpoint was written, so they are not scanned again: damage there is caught when
 *       the record is read. For the same reason dispatching resumes at the record holding the safe offset,
 *       not at its file's start: an unclean restart re-dispatches the tail that was not on disk yet, and its
 *       cost follows that tail, not the number of queues the file's records went to.</li>
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
     * @param quarantined  damaged ranges skipped in the middle of the log (and data lost at its end below the
     *                     checkpoint), in log order; empty when everything was intact
     */
    public record Result(long maxPhyOffset, long dispatchFrom, boolean scanned, boolean truncated,
            List<QuarantineEntry> quarantined) {

        public Result {
            quarantined = List.copyOf(quarantined);
        }
    }

    private CommitLogRecovery() {
    }

    public static Result recover(CommitLog commitLog, StoreCheckpoint checkpoint, boolean lastExitOk, boolean checkCrc) {
        MappedFileQueue files = commitLog.mappedFileQueue();
        if (files.isEmpty()) {
            return new Result(0, 0, false, false, List.of());
        }
        List<ShortFile> shortFiles = files.shortFiles();
        if (lastExitOk && checkpoint.wasLoadedValid() && shortFiles.isEmpty()) {
            long clean = checkpoint.getCleanShutdownOffset();
            if (isPlausibleEnd(files, clean)) {
                files.truncateAtCleanEnd(clean);
                log.info("Clean restart: commit log ends at {} (from the checkpoint)", clean);
                return new Result(clean, clean, false, false, List.of());
            }
            log.warn("Clean shutdown recorded but the checkpoint's end {} does not match the commit-log files; validating",
                    clean);
        }
        long minOffset = files.getMinOffset();
        long safe = checkpoint.wasLoadedValid() ? checkpoint.getSafeOffset() : minOffset;
        if (safe < minOffset) {
            safe = minOffset;
        }
        MappedFile startFile = files.fileAt(safe);
        if (startFile == null) {
            startFile = safe >= files.getMaxOffset() ? files.lastFile() : files.firstFile();
        }
        List<MappedFile> all = files.getMappedFiles();
        int startIndex = all.indexOf(startFile);
        RecoveryScan scan = new RecoveryScan(all, checkCrc, flushPoint(checkpoint),
                checkpoint.wasLoadedValid() ? checkpoint.getPhysicMsgTimestamp() : 0, shortFiles);
        if (checkpoint.wasLoadedValid()) {
            scan.trackDispatchedBelow(safe);
        }
        // a truncated file below the start is not otherwise looked at: its lost tail must be found and reported
        for (ShortFile s : shortFiles) {
            int index = indexOf(all, s.fileFromOffset());
            if (index >= 0 && index < startIndex) {
                long end = scan.scanFile(index);
                if (end >= 0) {
                    log.error("Commit log: truncated file {} ends inside an atomic batch at {}; its records after the"
                            + " cut are lost", s.path(), end);
                }
            }
        }
        long end = startFile.getFileFromOffset();
        for (int i = startIndex; i < all.size(); i++) {
            long stop = scan.scanFile(i);
            if (stop >= 0) {
                end = stop;
                break;
            }
            end = all.get(i).getFileFromOffset() + all.get(i).getFileSize();
        }
        files.truncateDirtyFiles(end);
        // the safe offset may sit inside a record: dispatch resumes at the start of that record (the scan saw it),
        // so an unclean restart re-dispatches only the tail that was not yet on disk, not the whole file (which
        // would open every queue written since the file began)
        long boundary = scan.lastRecordAtOrBelowSafe >= 0 ? scan.lastRecordAtOrBelowSafe
                : startFile.getFileFromOffset();
        long dispatchFrom = Math.min(boundary, end);
        if (scan.invalidAt >= 0) {
            log.warn("Commit log: record at offset {} is not intact (torn or corrupt); truncated the log there",
                    scan.invalidAt);
        }
        if (scan.cutBatch >= 0) {
            log.warn("Commit log: the atomic batch starting at offset {} did not reach the disk whole; dropped all of it",
                    scan.cutBatch);
        }
        for (ShortFile s : shortFiles) {
            log.warn("Commit-log file {} was truncated: {} bytes of {} expected; its records up to the cut at offset"
                    + " {} are kept (see the quarantine report for what was lost)", s.path(), s.actualSize(),
                    s.expectedSize(), s.dataEnd());
        }
        log.info("Recovered commit log from offset {}: ends at {}, dispatch resumes at {}, {} damaged range(s) skipped",
                startFile.getFileFromOffset(), end, dispatchFrom, scan.entries.size());
        return new Result(end, dispatchFrom, true, scan.invalidAt >= 0 || scan.cutBatch >= 0, scan.entries);
    }

    /** Below this offset the commit log was on disk when the checkpoint was written; -1 when unknown. */
    private static long flushPoint(StoreCheckpoint checkpoint) {
        if (!checkpoint.wasLoadedValid()) {
            return -1;
        }
        return Math.max(checkpoint.getSafeOffset(), checkpoint.getCleanShutdownOffset());
    }

    private static int indexOf(List<MappedFile> files, long fileFromOffset) {
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i).getFileFromOffset() == fileFromOffset) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isPlausibleEnd(MappedFileQueue files, long offset) {
        MappedFile last = files.lastFile();
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
}

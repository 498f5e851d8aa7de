package dev.wharf.store.cleanup;

import dev.wharf.store.commitlog.CommitLog;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalTime;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes commit-log files not modified for {@code fileReservedTime}: at the hours of {@code deleteWhen}, when
 * asked to ({@link #requestManualDelete()}), and at once, expired or not, when the disk holding the commit
 * log is fuller than {@code diskMaxUsedSpaceRatio} percent. The file being written is never deleted. A file
 * still read by someone is spared for {@code destroyIntervalForcibly} and retried.
 *
 * <p>Thread-safety: {@link #run()} runs on the store's scheduler thread only; {@link #requestManualDelete()}
 * from any thread.
 */
public final class CleanCommitLogService implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(CleanCommitLogService.class);
    /** Files deleted per round at most, so one round never stalls the disk for long. */
    private static final int MAX_DELETE_PER_ROUND = 10;

    private final CommitLog commitLog;
    private final long fileReservedMillis;
    private final DeleteWhen deleteWhen;
    private final int diskMaxUsedSpaceRatio;
    private final long destroyIntervalForcibly;
    private final long deleteFilesIntervalMillis;
    private final Clock clock;
    private final AtomicInteger manualRequests = new AtomicInteger();

    public CleanCommitLogService(CommitLog commitLog, long fileReservedMillis, DeleteWhen deleteWhen,
            int diskMaxUsedSpaceRatio, long destroyIntervalForcibly, long deleteFilesIntervalMillis, Clock clock) {
        this.commitLog = commitLog;
        this.fileReservedMillis = fileReservedMillis;
        this.deleteWhen = deleteWhen;
        this.diskMaxUsedSpaceRatio = diskMaxUsedSpaceRatio;
        this.destroyIntervalForcibly = destroyIntervalForcibly;
        this.deleteFilesIntervalMillis = deleteFilesIntervalMillis;
        this.clock = clock;
    }

    /** Makes the next round delete expired files whatever the hour. */
    public void requestManualDelete() {
        manualRequests.incrementAndGet();
    }

    @Override
    public void run() {
        try {
            deleteExpiredFiles();
            commitLog.retryDeleteFirstFile(destroyIntervalForcibly);
        } catch (RuntimeException e) {
            log.error("Commit-log clean-up failed; will retry next round", e);
        }
    }

    private void deleteExpiredFiles() {
        boolean timeUp = deleteWhen.matches(LocalTime.now(clock).getHour());
        boolean diskFull = isDiskFull();
        boolean manual = manualRequests.get() > 0;
        if (!timeUp && !diskFull && !manual) {
            return;
        }
        if (manual) {
            manualRequests.decrementAndGet();
        }
        int deleted = commitLog.deleteExpiredFile(fileReservedMillis, deleteFilesIntervalMillis,
                destroyIntervalForcibly, diskFull, MAX_DELETE_PER_ROUND);
        if (deleted > 0) {
            log.info("Deleted {} commit-log file(s) ({}); first offset now {}", deleted,
                    diskFull ? "disk above " + diskMaxUsedSpaceRatio + "%" : timeUp ? "deleteWhen " + deleteWhen : "on request",
                    commitLog.getMinOffset());
        }
    }

    private boolean isDiskFull() {
        double used = diskUsedPercent(commitLog.mappedFileQueue().getStorePath());
        if (used > diskMaxUsedSpaceRatio) {
            log.warn("Disk holding the commit log is {}% full (limit {}%); deleting old files at once",
                    Math.round(used), diskMaxUsedSpaceRatio);
            return true;
        }
        return false;
    }

    /** Percentage of the file system holding {@code path} in use, 0 when unknown. */
    static double diskUsedPercent(Path path) {
        try {
            Path existing = path;
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            if (existing == null) {
                return 0;
            }
            FileStore store = Files.getFileStore(existing);
            long total = store.getTotalSpace();
            if (total <= 0) {
                return 0;
            }
            return 100.0 * (total - store.getUsableSpace()) / total;
        } catch (IOException e) {
            return 0;
        }
    }
}

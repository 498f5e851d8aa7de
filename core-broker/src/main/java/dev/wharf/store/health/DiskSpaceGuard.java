package dev.wharf.store.health;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Decides whether the store's disk has room for writes. Two triggers mark the disk full in {@link StoreHealth}:
 * the file system being fuller than {@code diskSpaceWarningLevelRatio} percent (checked by {@link #check()}, which
 * the clean-up round calls), and the file system refusing blocks the store asked for ({@link #noRoom}, from a
 * commit-log reservation). While the disk is full, {@link #recheckIfDue()} (called by refused puts) looks again at
 * most every {@value #RECHECK_MILLIS} ms, so the store accepts writes again by itself soon after space returns.
 *
 * <p>Thread-safety: any thread; a check is one {@code statvfs} call.
 */
public final class DiskSpaceGuard {

    /** Least time between two checks triggered by refused puts. */
    static final long RECHECK_MILLIS = 100;

    private final Path storeDir;
    private final int warningLevelRatio;
    private final StoreHealth health;
    private final LongSupplier nanoClock;
    private final FreeSpace freeSpace;
    private volatile long lastCheckNanos;
    /** Bytes the last refused reservation asked for; 0 when the full mark came from the ratio. */
    private volatile long neededAtRefusal;

    /** Reads the total and usable bytes of a file system (a seam for tests). */
    @FunctionalInterface
    public interface FreeSpace {
        /** {@code {total, usable}} bytes of the file system holding {@code dir}. */
        long[] read(Path dir) throws IOException;
    }

    public DiskSpaceGuard(Path storeDir, int warningLevelRatio, StoreHealth health) {
        this(storeDir, warningLevelRatio, health, System::nanoTime, DiskSpaceGuard::fileStoreSpace);
    }

    public DiskSpaceGuard(Path storeDir, int warningLevelRatio, StoreHealth health, LongSupplier nanoClock,
            FreeSpace freeSpace) {
        this.storeDir = storeDir;
        this.warningLevelRatio = warningLevelRatio;
        this.health = health;
        this.nanoClock = nanoClock;
        this.freeSpace = freeSpace;
        this.lastCheckNanos = nanoClock.getAsLong();
    }

    /**
     * Looks at the file system: marks the disk full above the warning level or when a refused reservation still
     * would not fit, and clears the mark otherwise.
     */
    public void check() {
        lastCheckNanos = nanoClock.getAsLong();
        long[] space = space();
        if (space == null) {
            return;
        }
        long total = space[0];
        long usable = space[1];
        long ratioFree = total - total * warningLevelRatio / 100;
        if (total > 0 && usable < ratioFree) {
            health.diskFull(message(usable, ratioFree, "free space or raise diskSpaceWarningLevelRatio (now "
                    + warningLevelRatio + "%)"));
            return;
        }
        long needed = neededAtRefusal;
        if (needed > 0 && usable < needed) {
            health.diskFull(message(usable, needed, "free space on that file system"));
            return;
        }
        neededAtRefusal = 0;
        health.diskSpaceOk();
    }

    /** {@link #check()} when the disk is marked full and the last check is older than {@value #RECHECK_MILLIS} ms. */
    public void recheckIfDue() {
        if (health.isDiskFull()
                && nanoClock.getAsLong() - lastCheckNanos >= TimeUnit.MILLISECONDS.toNanos(RECHECK_MILLIS)) {
            check();
        }
    }

    /**
     * The file system refused {@code needed} bytes the store asked for: marks the disk full until a check finds at
     * least that much free.
     *
     * @return the sentence the refused put carries
     */
    public String noRoom(long needed, IOException cause) {
        neededAtRefusal = Math.max(needed, 1);
        long[] space = space();
        long usable = space == null ? 0 : space[1];
        String reason = message(usable, needed, "free space on that file system")
                + (cause == null ? "" : " (" + cause.getMessage() + ")");
        lastCheckNanos = nanoClock.getAsLong();
        health.diskFull(reason);
        return reason;
    }

    /** Bytes usable on the store's file system, or -1 when unknown. */
    public long usableBytes() {
        long[] space = space();
        return space == null ? -1 : space[1];
    }

    private String message(long usable, long needed, String advice) {
        return "disk full: store " + storeDir + " has " + usable + " bytes free, needs " + needed + "; " + advice;
    }

    private long[] space() {
        try {
            return freeSpace.read(storeDir);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code {total, usable}} of the file system holding {@code dir} (or its nearest existing parent). */
    public static long[] fileStoreSpace(Path dir) throws IOException {
        Path existing = dir.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw new IOException("no existing folder above " + dir);
        }
        FileStore store = Files.getFileStore(existing);
        return new long[] {store.getTotalSpace(), store.getUsableSpace()};
    }
}

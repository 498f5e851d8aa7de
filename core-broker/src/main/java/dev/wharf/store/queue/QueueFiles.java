package dev.wharf.store.queue;

import dev.wharf.store.file.MappedFile;
import dev.wharf.store.file.MappedFileQueue;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of one consume queue, mapped while the queue is in use and closed when its budget
 * ({@link QueueMappings}) needs the room or the queue stays idle.
 *
 * <p>Every operation on the files counts itself as a user between {@link #enter()} and {@link #exit()}; the
 * files are closed only with no user, so nobody reads an unmapped file. Closing clears the published files and
 * then checks the users again (a user counts itself before it reads them), giving them back if one came in.
 * Opening and closing are serialized by a lock that is never held while units are read or written, and a
 * closer only tries it, so two queues closing each other cannot deadlock.
 *
 * <p>Thread-safe.
 */
final class QueueFiles {

    /** Sets up freshly loaded files (positions from known ends, or a scan); runs under the open lock. */
    interface Preparer {
        void prepare(MappedFileQueue files);
    }

    private static final Logger log = LoggerFactory.getLogger(QueueFiles.class);

    private final ConsumeQueue owner;
    private final Path directory;
    private final int mappedFileSize;
    private final QueueMappings mappings;
    private final Preparer preparer;
    private final ReentrantLock openClose = new ReentrantLock();
    private final AtomicInteger users = new AtomicInteger();
    /** The mapped files while open, null while closed. */
    private volatile MappedFileQueue files;
    /** Time of the last use (epoch millis), for choosing whom to close. */
    private volatile long lastUsed;
    /** An open failure was logged; do not repeat it for every request. */
    private volatile boolean openFailureLogged;

    QueueFiles(ConsumeQueue owner, Path directory, int mappedFileSize, QueueMappings mappings, Preparer preparer) {
        this.owner = owner;
        this.directory = directory;
        this.mappedFileSize = mappedFileSize;
        this.mappings = mappings;
        this.preparer = preparer;
    }

    Path directory() {
        return directory;
    }

    /** The files if open now (no user count: for flushing, which tolerates a concurrent close). */
    MappedFileQueue current() {
        return files;
    }

    long lastUsed() {
        return lastUsed;
    }

    /**
     * Counts an operation in and returns the open files, opening them first when closed.
     *
     * @return null (and no count) when the files cannot be opened; the failure is logged once
     */
    MappedFileQueue enter() {
        users.incrementAndGet();
        lastUsed = System.currentTimeMillis();
        MappedFileQueue f = files;
        if (f != null) {
            return f;
        }
        boolean opened = false;
        openClose.lock();
        try {
            f = files;
            if (f == null) {
                f = openLocked();
                files = f;
                opened = true;
                openFailureLogged = false;
            }
        } catch (IOException | RuntimeException e) {
            users.decrementAndGet();
            if (!openFailureLogged) {
                openFailureLogged = true;
                log.error("Consume queue {}-{} cannot be opened: {}", owner.topic(), owner.queueId(), e.getMessage());
            }
            return null;
        } finally {
            openClose.unlock();
        }
        if (opened) {
            mappings.opened(owner);
        }
        return f;
    }

    void exit() {
        users.decrementAndGet();
    }

    /**
     * Closes the files if open, runs {@code beforeOpen}, and opens them again now.
     *
     * @throws IOException when a file cannot be mapped or has another size
     */
    void reopen(Runnable beforeOpen) throws IOException {
        openClose.lock();
        try {
            closeLocked(false);
            beforeOpen.run();
            files = openLocked();
        } finally {
            openClose.unlock();
        }
        mappings.opened(owner);
    }

    /** Flushes and closes the files (shutdown); they open again on the next use. */
    void close() {
        openClose.lock();
        try {
            closeLocked(true);
        } finally {
            openClose.unlock();
        }
    }

    private void closeLocked(boolean flush) {
        MappedFileQueue f = files;
        if (f != null) {
            files = null;
            if (flush) {
                f.flushAll();
            }
            f.shutdown(0);
            mappings.closed(List.of());
        }
    }

    /** Unmaps and deletes every file and the directory, mapped or not; {@code afterwards} runs under the lock. */
    void destroy(Runnable afterwards) {
        openClose.lock();
        try {
            MappedFileQueue f = files;
            if (f == null) {
                f = new MappedFileQueue(directory, mappedFileSize);
                try {
                    f.load();
                } catch (IOException e) {
                    log.debug("Deleting {} without mapping it: {}", directory, e.toString());
                }
            } else {
                files = null;
                mappings.closed(List.of());
            }
            f.destroy();
            afterwards.run();
        } finally {
            openClose.unlock();
        }
    }

    /**
     * Closes the files when nobody uses them and their last use was before {@code usedBefore}. Unflushed files
     * are handed to the budget, which forces them on the next complete flush.
     *
     * @return whether the files were closed
     */
    boolean closeIfIdle(long usedBefore) {
        if (!openClose.tryLock()) {
            return false;
        }
        try {
            MappedFileQueue f = files;
            if (f == null || lastUsed >= usedBefore || users.get() != 0) {
                return false;
            }
            files = null;
            // a user that read the files before they were cleared counted itself first: give them back
            if (users.get() != 0) {
                files = f;
                return false;
            }
            List<Path> unflushed = new ArrayList<>();
            for (MappedFile file : f.getMappedFiles()) {
                if (file.getFlushedPosition() < file.getWrotePosition()) {
                    unflushed.add(file.getPath());
                }
            }
            f.shutdown(0);
            mappings.closed(unflushed);
            return true;
        } finally {
            openClose.unlock();
        }
    }

    private MappedFileQueue openLocked() throws IOException {
        MappedFileQueue f = new MappedFileQueue(directory, mappedFileSize);
        // a page at a time: a queue with one message reserves no more than the block it takes anyway
        f.setReserveStep(ConsumeQueue.RESERVE_STEP, false);
        f.load();
        try {
            preparer.prepare(f);
            return f;
        } catch (RuntimeException e) {
            f.shutdown(0);
            throw e;
        }
    }
}

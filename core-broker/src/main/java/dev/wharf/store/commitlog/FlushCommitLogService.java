package dev.wharf.store.commitlog;

import dev.wharf.common.util.ServiceThread;
import dev.wharf.store.file.MappedFileQueue;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ASYNC_FLUSH: forces the commit log to disk in the background every {@code intervalMillis} when at least
 * {@code leastPages} pages are dirty, and completely every {@code thoroughIntervalMillis}. Puts never wait for
 * it. On shutdown it forces whatever is left.
 *
 * <p>Runs on its own thread; the counters are safe to read from any thread.
 */
public final class FlushCommitLogService extends ServiceThread {

    private static final Logger log = LoggerFactory.getLogger(FlushCommitLogService.class);

    private final MappedFileQueue commitLog;
    private final long intervalMillis;
    private final int leastPages;
    private final long thoroughIntervalMillis;
    private final LongAdder forces;
    private long lastThoroughFlush = System.currentTimeMillis();

    /**
     * @param forces incremented once per force that moved the flush point
     */
    public FlushCommitLogService(MappedFileQueue commitLog, long intervalMillis, int leastPages,
            long thoroughIntervalMillis, LongAdder forces) {
        this.commitLog = commitLog;
        this.intervalMillis = intervalMillis;
        this.leastPages = leastPages;
        this.thoroughIntervalMillis = thoroughIntervalMillis;
        this.forces = forces;
    }

    @Override
    public String getServiceName() {
        return "wharf-flush-commitlog";
    }

    @Override
    public void run() {
        while (!isStopped()) {
            waitForRunning(intervalMillis);
            int pages = leastPages;
            long now = System.currentTimeMillis();
            if (now - lastThoroughFlush >= thoroughIntervalMillis) {
                lastThoroughFlush = now;
                pages = 0;
            }
            try {
                // a full file and the next one can both be dirty: keep going while the point moves
                for (int i = 0; i < 4 && commitLog.flush(pages); i++) {
                    forces.increment();
                }
            } catch (RuntimeException e) {
                log.error("Commit-log flush failed; will retry", e);
            }
        }
        flushAll();
    }

    /** Forces everything written so far (shutdown). */
    public void flushAll() {
        int forced = commitLog.flushAll();
        forces.add(forced);
    }
}

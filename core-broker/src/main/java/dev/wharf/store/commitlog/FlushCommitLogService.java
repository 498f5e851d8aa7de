package dev.wharf.store.commitlog;

import dev.wharf.store.file.MappedFileQueue;
import dev.wharf.store.file.PeriodicFlushService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * ASYNC_FLUSH: forces the commit log to disk in the background every {@code intervalMillis} when at least
 * {@code leastPages} pages are dirty, and completely every {@code thoroughIntervalMillis}. Puts never wait for
 * it. On shutdown it forces whatever is left.
 *
 * <p>Runs on its own thread; the counters are safe to read from any thread.
 */
public final class FlushCommitLogService extends PeriodicFlushService {

    private final MappedFileQueue commitLog;
    private final LongAdder forces;
    /** Told how long each force took (metrics). */
    private volatile LongConsumer forceNanos = nanos -> { };

    /**
     * @param forces incremented once per force that moved the flush point
     */
    public FlushCommitLogService(MappedFileQueue commitLog, long intervalMillis, int leastPages,
            long thoroughIntervalMillis, LongAdder forces) {
        super(intervalMillis, leastPages, thoroughIntervalMillis);
        this.commitLog = commitLog;
        this.forces = forces;
    }

    @Override
    public String getServiceName() {
        return "wharf-flush-commitlog";
    }

    @Override
    protected void flush(int pages) {
        // a full file and the next one can both be dirty: keep going while the point moves
        long started = System.nanoTime();
        for (int i = 0; i < 4 && commitLog.flush(pages); i++) {
            long now = System.nanoTime();
            forceNanos.accept(now - started);
            started = now;
            forces.increment();
        }
    }

    /** Tells {@code listener} how long each force that moved the flush point took, in nanoseconds. */
    public void setForceListener(LongConsumer listener) {
        this.forceNanos = listener == null ? nanos -> { } : listener;
    }

    @Override
    protected void afterStop() {
        flushAll();
    }

    /** Forces everything written so far (shutdown). */
    public void flushAll() {
        int forced = commitLog.flushAll();
        forces.add(forced);
    }
}

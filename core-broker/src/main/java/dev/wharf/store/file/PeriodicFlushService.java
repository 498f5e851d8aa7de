package dev.wharf.store.file;

import dev.wharf.common.util.ServiceThread;
import dev.wharf.store.health.StoreHealth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A background flush on its own thread: every {@code intervalMillis} (or when woken) it flushes when at least
 * {@code leastPages} pages are dirty, and completely every {@code thoroughIntervalMillis} — so small writes are
 * batched into few forces, and nothing stays unflushed for long. A failed flush is logged and retried next round.
 */
public abstract class PeriodicFlushService extends ServiceThread {

    private static final Logger log = LoggerFactory.getLogger(PeriodicFlushService.class);

    private final long intervalMillis;
    private final int leastPages;
    private final long thoroughIntervalMillis;
    private long lastThoroughFlush = System.currentTimeMillis();
    private volatile StoreHealth health;

    protected PeriodicFlushService(long intervalMillis, int leastPages, long thoroughIntervalMillis) {
        this.intervalMillis = intervalMillis;
        this.leastPages = leastPages;
        this.thoroughIntervalMillis = thoroughIntervalMillis;
    }

    /**
     * Where a fault this thread cannot survive (an {@link Error}) is reported: the store then refuses writes. The
     * thread itself keeps flushing, since what is already acknowledged still needs the disk.
     */
    public void setHealth(StoreHealth health) {
        this.health = health;
    }

    /** Flushes when at least {@code pages} pages are dirty; 0 = everything written. */
    protected abstract void flush(int pages);

    /** Runs once after the service stopped (a last flush, for example). */
    protected void afterStop() {
    }

    @Override
    public final void run() {
        while (!isStopped()) {
            waitForRunning(intervalMillis);
            int pages = leastPages;
            long now = System.currentTimeMillis();
            if (now - lastThoroughFlush >= thoroughIntervalMillis) {
                lastThoroughFlush = now;
                pages = 0;
            }
            try {
                flush(pages);
            } catch (RuntimeException e) {
                log.error("{} failed; will retry", getServiceName(), e);
            } catch (Throwable t) {
                StoreHealth h = health;
                if (h != null) {
                    h.fail(getServiceName(), t);
                } else {
                    log.error("{} failed; will retry", getServiceName(), t);
                }
            }
        }
        afterStop();
    }
}

package dev.wharf.jms.engine;

import dev.wharf.common.util.NamedThreadFactory;
import jakarta.jms.JMSException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one connection's link to Wharf and reports a lost broker once per outage.
 *
 * <p>The link is probed every {@code intervalMillis} and at once when an operation failed without an answer
 * ({@link #suspect()}). The first failed probe after a healthy one calls {@link Listener#lost}; probes go on,
 * and the first one that succeeds again calls {@link Listener#recovered}. The connection itself is not closed:
 * the client reconnects by itself, so a connection outlives a broker restart (an application that prefers to
 * reconnect, like Spring's listener containers, does so from its exception listener).
 *
 * <p>Probes of all connections run on two shared daemon threads; a probe blocks at most the client's API timeout.
 * Thread-safe.
 */
public final class ConnectionMonitor {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionMonitor.class);
    private static final ScheduledExecutorService PROBES = probes();

    /** Something that throws when the link does not work. */
    @FunctionalInterface
    public interface Probe {
        void probe() throws JMSException;
    }

    /** Told about outages; called on a probe thread, one call at a time. */
    public interface Listener {
        void lost(JMSException cause);

        void recovered();
    }

    private final String name;
    private final Probe probe;
    private final Listener listener;
    private final long intervalMillis;
    private final AtomicBoolean probing = new AtomicBoolean();
    private volatile boolean lost;
    private volatile boolean stopped;
    private ScheduledFuture<?> schedule;

    /**
     * @param name           names the connection in logs
     * @param intervalMillis time between probes
     */
    public ConnectionMonitor(String name, Probe probe, Listener listener, long intervalMillis) {
        this.name = name;
        this.probe = probe;
        this.listener = listener;
        this.intervalMillis = intervalMillis;
    }

    private static ScheduledExecutorService probes() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2,
                new NamedThreadFactory("wharf-jms-monitor", true));
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    public synchronized void start() {
        if (schedule == null && !stopped) {
            schedule = PROBES.scheduleWithFixedDelay(this::check, intervalMillis, intervalMillis,
                    TimeUnit.MILLISECONDS);
        }
    }

    /** An operation failed without an answer from the broker: probe now instead of at the next interval. */
    public void suspect() {
        if (!stopped && !lost) {
            PROBES.execute(this::check);
        }
    }

    /** Whether the last probe failed. */
    public boolean isLost() {
        return lost;
    }

    /** Stops probing; a probe in progress finishes without calling the listener. */
    public synchronized void stop() {
        stopped = true;
        if (schedule != null) {
            schedule.cancel(false);
        }
    }

    private void check() {
        if (stopped || !probing.compareAndSet(false, true)) {
            return;
        }
        try {
            try {
                probe.probe();
            } catch (JMSException e) {
                if (!lost && !stopped) {
                    lost = true;
                    LOG.warn("Connection {} lost its broker: {}", name, e.getMessage());
                    notifyListener(() -> listener.lost(e));
                }
                return;
            }
            if (lost && !stopped) {
                lost = false;
                LOG.info("Connection {} reaches its broker again", name);
                notifyListener(listener::recovered);
            }
        } finally {
            probing.set(false);
        }
    }

    private void notifyListener(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            LOG.warn("The outage listener of connection {} failed: {}", name, e.toString());
        }
    }
}

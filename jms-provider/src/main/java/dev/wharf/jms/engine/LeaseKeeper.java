package dev.wharf.jms.engine;

import dev.wharf.client.ack.AckConsumer;
import dev.wharf.client.ack.PoppedMessage;
import dev.wharf.common.util.NamedThreadFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the leases of one connection's held messages alive and runs the sessions' periodic chores.
 *
 * <p>A popped message is leased for {@code leaseMillis}; once less than half of that is left and the message is
 * still held (waiting in a prefetch buffer, or delivered and not acknowledged yet), its lease is extended by
 * another {@code leaseMillis} (a lease change that does not count a delivery). So a message is redelivered to
 * another consumer only when its holder is gone: a closed connection returns its leases at once, a hung process
 * lets them run out. Every round (see {@link #period(long)}) each holder also gets a {@link Holder#tick()} (lazy
 * DUPS_OK acknowledgements).
 *
 * <p>The work of all connections runs on one shared daemon thread; the lease changes themselves are asynchronous.
 * Thread-safe.
 */
public final class LeaseKeeper {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);
    private static final ScheduledExecutorService TIMER = timer();
    private static final long TICK_MILLIS = 1_000;

    /** Something that holds leased messages: a session. */
    public interface Holder {
        /** Hands every held message to {@code sink}; called on the keeper's thread. */
        void forEachHeld(Consumer<Leased> sink);

        /** Periodic chores (called once per tick, on the keeper's thread). */
        void tick();
    }

    private final long leaseMillis;
    private final Set<Holder> holders = ConcurrentHashMap.newKeySet();
    private final ScheduledFuture<?> schedule;

    /** @param leaseMillis the lease every pop asks for, and the length of each renewal */
    public LeaseKeeper(long leaseMillis) {
        this.leaseMillis = leaseMillis;
        long period = period(leaseMillis);
        this.schedule = TIMER.scheduleWithFixedDelay(this::run, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * How often the keeper looks at its holders: every second, or four times per lease when leases are shorter
     * than two seconds. A lease is renewed once less than half of it is left, so a round must come at least once in
     * that half (with time for the renewal's round trip): with a 1 s lease and 1 s rounds, a round that fell just
     * before the half-way point saw too much left, and the next one came after the lease had ended.
     */
    static long period(long leaseMillis) {
        return Math.max(1, Math.min(TICK_MILLIS, leaseMillis / 4));
    }

    private static ScheduledExecutorService timer() {
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1,
                new NamedThreadFactory("wharf-jms-leases", true));
        t.setRemoveOnCancelPolicy(true);
        return t;
    }

    /** Runs a short task later on the keeper's thread (a consumer's retry after a failed fetch). */
    public static void later(Runnable task, long delayMillis) {
        TIMER.schedule(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.warn("A delayed task failed: {}", e.toString());
            }
        }, delayMillis, TimeUnit.MILLISECONDS);
    }

    public long leaseMillis() {
        return leaseMillis;
    }

    public void add(Holder holder) {
        holders.add(holder);
    }

    public void remove(Holder holder) {
        holders.remove(holder);
    }

    public void stop() {
        schedule.cancel(false);
        holders.clear();
    }

    private void run() {
        long renewBefore = System.nanoTime() + leaseMillis * 500_000L;
        Map<AckConsumer, List<Leased>> due = new HashMap<>();
        for (Holder h : holders) {
            try {
                h.tick();
                h.forEachHeld(l -> {
                    if (l.leaseEndsNanos() - renewBefore < 0) {
                        due.computeIfAbsent(l.group(), k -> new ArrayList<>()).add(l);
                    }
                });
            } catch (RuntimeException e) {
                LOG.warn("A session's periodic work failed: {}", e.toString());
            }
        }
        due.forEach(this::renew);
    }

    private void renew(AckConsumer group, List<Leased> leases) {
        List<PoppedMessage> messages = new ArrayList<>(leases.size());
        leases.forEach(l -> messages.add(l.message()));
        try {
            group.changeInvisibleTimeAsync(messages, leaseMillis, true).whenComplete((v, e) -> {
                if (e == null) {
                    leases.forEach(l -> l.renewed(leaseMillis));
                } else {
                    LOG.warn("Could not extend the leases of {} held message(s) of group {}: {}", leases.size(),
                            group.group(), e.getMessage());
                }
            });
        } catch (RuntimeException e) {
            // the group's consumer was shut down with its connection: nothing to keep
            LOG.debug("Lease renewal skipped for group {}: {}", group.group(), e.toString());
        }
    }
}

package dev.wharf.broker.ha;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fences a master that cannot renew its lease with the controller. The lease runs from the sending time of the last
 * heartbeat the controller accepted ({@code lastRenewalNanos}, {@link System#nanoTime()}) for {@code leaseMillis},
 * which must be shorter than the controller's heartbeat timeout: the controller counts the master alive from no
 * earlier than that sending time, so this master stops acknowledging writes before a new one can be elected, and
 * an isolated old master never acknowledges messages that a failover then truncates. Checked every
 * on every put by the put gate (a clock read, no lock), so a pause of this class's timer cannot let a put through;
 * the timer only logs when the lease lapses and when it is renewed.
 */
public final class MasterLease implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MasterLease.class);

    private final HaService ha;
    private final long leaseNanos;
    private final LongSupplier lastRenewalNanos;
    private final ScheduledExecutorService checker;
    private final Runnable onRenewed;
    /** Starts true: a master's first lease (after its election) counts as a renewal. */
    private volatile boolean fencedByLease = true;
    private volatile boolean logLapse;

    /**
     * @param leaseMillis      how long a renewal lets the master acknowledge writes
     * @param heartbeatTimeout the controller's controllerHeartBeatTimeoutMills (the lease must be shorter)
     */
    public MasterLease(HaService ha, long leaseMillis, long heartbeatTimeout, LongSupplier lastRenewalNanos) {
        this(ha, leaseMillis, heartbeatTimeout, lastRenewalNanos, () -> { });
    }

    /**
     * @param leaseMillis      how long a renewal lets the master acknowledge writes
     * @param heartbeatTimeout the controller's controllerHeartBeatTimeoutMills (the lease must be shorter)
     * @param onRenewed        runs (on the lease timer) when a master's lease is held again after it was not
     *                         (first taken after an election, or renewed after a lapse)
     */
    public MasterLease(HaService ha, long leaseMillis, long heartbeatTimeout, LongSupplier lastRenewalNanos,
                       Runnable onRenewed) {
        if (leaseMillis <= 0 || leaseMillis >= heartbeatTimeout) {
            throw new IllegalArgumentException("masterLeaseMillis is " + leaseMillis + " but must be above 0 and"
                    + " below controllerHeartBeatTimeoutMills (" + heartbeatTimeout + "), or a master cut off from the"
                    + " controller could acknowledge writes after a new master was elected");
        }
        this.ha = ha;
        this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
        this.lastRenewalNanos = lastRenewalNanos;
        this.onRenewed = onRenewed;
        this.checker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "wharf-master-lease");
            t.setDaemon(true);
            return t;
        });
        ha.setLease(this);
        long period = Math.max(1, Math.min(50, leaseMillis / 10));
        checker.scheduleWithFixedDelay(this::check, 0, period, TimeUnit.MILLISECONDS);
    }

    /** Whether the lease is held now (a renewal within the lease). */
    public boolean held() {
        long last = lastRenewalNanos.getAsLong();
        return last != 0 && System.nanoTime() - last < leaseNanos;
    }

    private void check() {
        try {
            if (!ha.role().isMaster()) {
                fencedByLease = true; // the next election's first lease counts as a renewal
                logLapse = false;
                return;
            }
            boolean held = held();
            if (!held && !fencedByLease) {
                fencedByLease = true;
                logLapse = true;
                log.warn("{}: {}", ha.brokerName(), lapsedReason());
            } else if (held && fencedByLease) {
                fencedByLease = false;
                if (logLapse) {
                    log.info("{}: master lease renewed; accepting writes again", ha.brokerName());
                }
                onRenewed.run();
            }
        } catch (RuntimeException e) {
            log.warn("Master lease check failed", e);
        }
    }

    /** Why puts are refused while the lease is not held. */
    String lapsedReason() {
        return "Broker " + ha.brokerName() + " could not renew its master lease with the controller within "
                + TimeUnit.NANOSECONDS.toMillis(leaseNanos) + " ms; it refuses writes until a heartbeat is accepted"
                + " again (another replica may be elected meanwhile): retry, the producer finds the current master"
                + " through the NameServer";
    }

    /** Whether the lease has lapsed (puts are refused). */
    public boolean lapsed() {
        return ha.role().isMaster() && !held();
    }

    @Override
    public void close() {
        ha.setLease(null);
        checker.shutdownNow();
    }
}

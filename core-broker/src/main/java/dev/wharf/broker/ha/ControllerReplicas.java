package dev.wharf.broker.ha;

import dev.wharf.controller.client.ControllerClient;
import dev.wharf.controller.client.ControllerClientConfig;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.store.ReplicableStore;
import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica in controller mode: registers with the controller through a {@link ControllerClient}, reports its last
 * epoch and max offset in heartbeats, and switches its {@link HaService} when the controller elects a master
 * (this replica: {@link HaService#changeToMaster}; another: {@link HaService#changeToSlave}). It starts fenced
 * (no writes until elected), holds a {@link MasterLease} renewed by accepted heartbeats, and as master reports its
 * sync-state set: a slave joins once its acks reached the master's end, and leaves when it disconnects or lags
 * more than {@code haMaxTimeSlaveNotCatchup}. Thread-safe.
 */
public final class ControllerReplicas implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ControllerReplicas.class);

    private final ControllerClientConfig clientConfig;
    private final long leaseMillis;
    private final HaService ha;
    private final ReplicableStore store;
    private final BrokerRole masterRole;
    private final Function<String, String> haAddressOf;
    private final ControllerClient client;
    private final ScheduledExecutorService syncCheck;
    private volatile MasterLease lease;
    private Runnable leaseRenewed = () -> { };
    private volatile RoleTaken roleTaken = (master, brokerId, masterAddress, epoch) -> { };
    /** The broker address of the master followed, until its HA address is known (it may still be starting). */
    private volatile String masterToResolve;

    /**
     * @param brokerId    the id this replica holds at the controller, or 0 to be assigned one
     * @param masterRole  ASYNC_MASTER or SYNC_MASTER, the role taken when elected
     * @param haAddressOf the HA address ("host:port") of a replica, from its broker address (the NameServer
     *                    registration tells it)
     */
    public ControllerReplicas(ControllerClientConfig clientConfig, long leaseMillis, String clusterName,
                              String brokerName, String brokerAddress, long brokerId, HaService ha,
                              ReplicableStore store, BrokerRole masterRole, Function<String, String> haAddressOf) {
        if (!masterRole.isMaster()) {
            throw new IllegalArgumentException("the role of an elected master must be ASYNC_MASTER or SYNC_MASTER, not "
                    + masterRole);
        }
        this.clientConfig = clientConfig;
        this.leaseMillis = leaseMillis;
        this.ha = ha;
        this.store = store;
        this.masterRole = masterRole;
        this.haAddressOf = haAddressOf;
        this.client = new ControllerClient(clientConfig, clusterName, brokerName, brokerAddress, brokerId,
                new dev.wharf.controller.client.ReplicaStatus() {
                    @Override
                    public int lastEpoch() {
                        return ha.epochs().lastEpoch();
                    }

                    @Override
                    public long maxOffset() {
                        return store.getMaxPhyOffset();
                    }

                    @Override
                    public long confirmOffset() {
                        return Math.max(0, ha.replicatedOffset());
                    }
                }, this::onRoleChanged);
        this.syncCheck = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "wharf-sync-state-set");
            t.setDaemon(true);
            return t;
        });
    }

    /** Told after this replica took the role the controller gave it (on the controller client's role thread). */
    @FunctionalInterface
    public interface RoleTaken {
        /**
         * @param master        whether this replica is now the master
         * @param brokerId      this replica's id at the controller
         * @param masterAddress the master's broker address (this replica's own when master)
         * @param epoch         the master epoch
         */
        void roleTaken(boolean master, long brokerId, String masterAddress, int epoch);
    }

    /** Sets who hears of role changes (the broker: services, registration); set it before {@link #start()}. */
    public void onRoleTaken(RoleTaken listener) {
        this.roleTaken = java.util.Objects.requireNonNull(listener, "listener");
    }

    /**
     * Sets what runs when this master's lease is taken or renewed after a lapse (it may acknowledge writes again:
     * the broker registers as master); set it before {@link #start()}.
     */
    public void onLeaseRenewed(Runnable listener) {
        this.leaseRenewed = java.util.Objects.requireNonNull(listener, "listener");
    }

    /** Registers and heartbeats; the role follows as the controller answers. */
    public void start() throws ControllerException, InterruptedException {
        ha.setFenced("Broker " + ha.brokerName() + " runs in controller mode and was not elected master yet;"
                + " send to the master the NameServer names");
        lease = new MasterLease(ha, leaseMillis, clientConfig.getControllerHeartBeatTimeoutMills(),
                client::lastAcceptedHeartbeatNanos, leaseRenewed);
        client.start();
        long period = Math.max(50, clientConfig.getBrokerHeartbeatInterval());
        syncCheck.scheduleWithFixedDelay(this::checkSyncStateSet, period, period, TimeUnit.MILLISECONDS);
    }

    public ControllerClient client() {
        return client;
    }

    /** Whether this replica is a master holding its lease now (it may acknowledge writes). */
    public boolean writableMaster() {
        MasterLease l = lease;
        return ha.role().isMaster() && ha.fencedReason() == null && l != null && l.held();
    }

    private void onRoleChanged(String brokerName, long masterId, String masterAddress, int epoch, Set<Long> set) {
        try {
            if (masterId == client.brokerId()) {
                ha.setSyncStateSet(Set.of()); // a new master's set is itself: slaves earn their way back in
                ha.changeToMaster(epoch, masterRole);
                roleTaken.roleTaken(true, masterId, masterAddress, epoch);
            } else if (masterId > 0 && masterAddress != null) {
                masterToResolve = masterAddress;
                ha.changeToSlave(haAddressOf.apply(masterAddress), client.brokerId());
                roleTaken.roleTaken(false, client.brokerId(), masterAddress, epoch);
            } else {
                log.warn("{} has no master at epoch {} (no in-sync replica alive)", brokerName, epoch);
            }
        } catch (IOException | RuntimeException e) {
            log.error("{} could not take its role at epoch {} (master {}); it stays fenced", brokerName, epoch,
                    masterId, e);
            ha.setFenced("Broker " + brokerName + " could not take its role at epoch " + epoch + ": " + e.getMessage());
        }
    }

    /** Master: adds slaves whose acks reached its end, drops those gone or lagging too long. */
    private void checkSyncStateSet() {
        try {
            String toResolve = masterToResolve;
            if (ha.role() == BrokerRole.SLAVE && toResolve != null) {
                SlaveStatus status = ha.slaveStatus();
                if (status != null && status.masterAddress() == null) {
                    ha.setMasterAddress(haAddressOf.apply(toResolve)); // the new master has bound its HA port now
                }
            }
            if (!client.isMaster() || !ha.role().isMaster()) {
                return;
            }
            Set<Long> current = client.syncStateSet();
            Set<Long> next = new TreeSet<>();
            next.add(client.brokerId());
            long now = System.currentTimeMillis();
            long max = store.getMaxPhyOffset();
            for (ReplicaStatus r : ha.replicas()) {
                boolean caughtUp = r.ackedOffset() >= max;
                boolean recent = now - r.caughtUpMillis() <= ha.config().getHaMaxTimeSlaveNotCatchup();
                if (caughtUp || current.contains(r.brokerId()) && recent) {
                    next.add(r.brokerId());
                }
            }
            if (!next.equals(current)) {
                // while the change is pending, acks count against both sets (a member may be elected from either)
                Set<Long> union = new TreeSet<>(current);
                union.addAll(next);
                ha.setSyncStateSet(withoutSelf(union));
                try {
                    client.alterSyncStateSet(next);
                    log.info("{}: sync-state set {} -> {}", ha.brokerName(), current, next);
                } finally {
                    ha.setSyncStateSet(withoutSelf(client.syncStateSet()));
                }
            } else {
                ha.setSyncStateSet(withoutSelf(current));
            }
        } catch (ControllerException e) {
            log.debug("Sync-state set change not accepted: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("Sync-state set check failed", e);
        }
    }

    private Set<Long> withoutSelf(Set<Long> set) {
        Set<Long> out = new TreeSet<>(set);
        out.remove(client.brokerId());
        return out;
    }

    @Override
    public void close() {
        syncCheck.shutdownNow();
        MasterLease l = lease;
        if (l != null) {
            l.close();
        }
        client.shutdown();
    }
}

package dev.wharf.broker.ha;

import dev.wharf.store.PutMessageResult;
import dev.wharf.store.PutMessageStatus;
import dev.wharf.store.PutReplication;
import dev.wharf.store.ReplicableStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replication for one broker, wired for its role. Build it before the store starts (it installs the put gate
 * and, for SYNC_MASTER, the confirm offset that limits what consumers see), start it after.
 * <ul>
 *   <li>master (both kinds): listens on the HA port and streams the commit log to every slave that connects;</li>
 *   <li>SYNC_MASTER: a put waits until {@code minInSyncReplicas - 1} slaves hold it ({@link ReplicaWaiters});
 *       with fewer slaves in sync it is answered SLAVE_NOT_AVAILABLE unless syncMasterDegradeToAsync is set;
 *       consumers see a message only once it is replicated;</li>
 *   <li>SLAVE: refuses every put with a clear error and copies its master ({@link HaClient}).</li>
 * </ul>
 * Thread-safe.
 */
public final class HaService {

    private static final Logger log = LoggerFactory.getLogger(HaService.class);
    /** How often an ASYNC_MASTER's transfer threads look for new data (nobody waits for them). */
    private static final long ASYNC_TRANSFER_INTERVAL_NANOS = 1_000_000;

    private final HaConfig config;
    private final String brokerName;
    private final long brokerId;
    private final ReplicableStore store;
    private final ReplicaTracker tracker;
    private final ReplicaWaiters waiters;
    private final HaServer server;
    private final HaClient client;
    private final EpochFile epochs;
    private volatile int haPort = -1;
    private volatile boolean degraded;

    /**
     * @param maxMessageSize the store's maxMessageSize (a slave must take frames holding one such record)
     */
    public HaService(HaConfig config, String brokerName, long brokerId, ReplicableStore store, int maxMessageSize) {
        config.validate(brokerId);
        this.config = config;
        this.brokerName = brokerName;
        this.brokerId = brokerId;
        this.store = store;
        try {
            this.epochs = EpochFile.open(store.config().rootPath());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the epoch history in " + store.config().rootPath()
                    + ": " + e.getMessage(), e);
        }
        BrokerRole role = config.getBrokerRole();
        this.tracker = new ReplicaTracker(role == BrokerRole.SYNC_MASTER ? config.requiredSlaveAcks() : 0,
                config.getHaMaxGapNotInSync(), store::getMaxPhyOffset);
        if (role.isMaster()) {
            boolean sync = role == BrokerRole.SYNC_MASTER;
            this.server = new HaServer(config, brokerName, store, tracker,
                    sync ? Long.MAX_VALUE : ASYNC_TRANSFER_INTERVAL_NANOS, epochs);
            this.client = null;
            if (sync) {
                store.addAppendListener(server::dataArrived); // a waiting send must not wait for a timer
            }
        } else {
            this.server = null;
            this.client = new HaClient(config, brokerName, brokerId, store, maxMessageSize, epochs);
        }
        if (role == BrokerRole.SYNC_MASTER) {
            this.waiters = new ReplicaWaiters(tracker::replicatedOffset, config.getSlaveTimeout());
            tracker.setOnAdvance(() -> {
                waiters.advanced();
                store.confirmOffsetMoved();
            });
            store.setConfirmOffsetSupplier(this::confirmOffset);
            store.setPutReplication(new SyncMasterGate());
        } else {
            this.waiters = null;
            if (role == BrokerRole.SLAVE) {
                store.setPutReplication(new SlaveGate());
            }
        }
    }

    /**
     * Starts listening (master) or replicating (slave); call once the store has started.
     *
     * @param bindAddress address the HA port binds (masters)
     * @param listenPort  the broker's client port (the HA port defaults to it + 1)
     */
    public void start(String bindAddress, int listenPort) throws IOException {
        tracker.startAt(store.getMaxPhyOffset());
        if (server != null) {
            haPort = server.start(bindAddress, config.effectiveHaListenPort(listenPort));
        }
        if (waiters != null) {
            waiters.start();
        }
        if (client != null) {
            if (config.getHaMasterAddress() == null) {
                log.warn("Slave {} id {} has no haMasterAddress; it replicates once it learns its master's address",
                        brokerName, brokerId);
            }
            client.start();
        }
        log.info("Replication of {} started: {} (brokerId {}){}", brokerName, config.getBrokerRole(), brokerId,
                server != null ? ", HA port " + haPort : ", master " + config.getHaMasterAddress());
    }

    public void shutdown() {
        if (client != null) {
            client.shutdown();
        }
        if (server != null) {
            server.shutdown();
        }
        if (waiters != null) {
            waiters.shutdown();
        }
    }

    /** The confirm offset of a SYNC_MASTER: replicated by enough slaves, or everything when degraded. */
    private long confirmOffset() {
        if (config.isSyncMasterDegradeToAsync() && tracker.inSyncCount() < tracker.requiredAcks()) {
            tracker.confirmWithoutSlaves(store.getMaxPhyOffset());
        }
        return tracker.replicatedOffset();
    }

    /** This replica's epoch history (empty in classic replication). */
    public EpochFile epochs() {
        return epochs;
    }

    public BrokerRole role() {
        return config.getBrokerRole();
    }

    public HaConfig config() {
        return config;
    }

    /** The HA port a master listens on (the one picked when haListenPort is 0); -1 for a slave or before start. */
    public int haPort() {
        return haPort;
    }

    /**
     * Every byte of the commit log below this offset is held by enough replicas (a SYNC_MASTER's confirm
     * offset); for an ASYNC_MASTER the highest offset any slave acked.
     */
    public long replicatedOffset() {
        if (config.getBrokerRole() == BrokerRole.ASYNC_MASTER) {
            long best = -1;
            for (ReplicaStatus r : tracker.snapshot()) {
                best = Math.max(best, r.ackedOffset());
            }
            return best;
        }
        return tracker.replicatedOffset();
    }

    /** A master's connected slaves with their acked offsets and lag; empty for a slave. */
    public List<ReplicaStatus> replicas() {
        return tracker.snapshot();
    }

    /** Slaves within haMaxGapNotInSync of this master's end. */
    public int inSyncReplicaCount() {
        return tracker.inSyncCount();
    }

    /** A slave's view of its master: address, whether connected, offsets; null for a master. */
    public SlaveStatus slaveStatus() {
        if (client == null) {
            return null;
        }
        return new SlaveStatus(client.masterAddress(), client.isConnected(), store.getMaxPhyOffset(),
                client.masterMaxOffset(), client.masterConfirmOffset(), client.lastTransferMillis(),
                client.lastRefusal());
    }

    /** Points a slave at its master's HA address (e.g. learnt from the NameServer registration). */
    public void setMasterAddress(String haAddress) {
        if (client != null && haAddress != null && !haAddress.isBlank()) {
            client.setMasterAddress(haAddress.trim());
        }
    }

    /** SYNC_MASTER: admit every put, then wait for the slaves. */
    private final class SyncMasterGate implements PutReplication {

        @Override
        public PutMessageResult admit() {
            return null;
        }

        @Override
        public CompletableFuture<PutMessageResult> replicate(long nextOffset) {
            int inSync = tracker.inSyncCount();
            if (inSync < tracker.requiredAcks()) {
                if (config.isSyncMasterDegradeToAsync()) {
                    if (!degraded) {
                        degraded = true;
                        log.warn("SYNC_MASTER {} has {} slave(s) in sync, {} needed: acknowledging sends without"
                                + " slaves (syncMasterDegradeToAsync=true)", brokerName, inSync, tracker.requiredAcks());
                    }
                    tracker.confirmWithoutSlaves(nextOffset);
                    return CompletableFuture.completedFuture(PutMessageResult.failure(PutMessageStatus.PUT_OK, null));
                }
                return CompletableFuture.completedFuture(PutMessageResult.failure(PutMessageStatus.SLAVE_NOT_AVAILABLE,
                        "The message is stored on the master of " + brokerName + " but only " + inSync
                                + " slave(s) are in sync and SYNC_MASTER needs " + tracker.requiredAcks()
                                + " (minInSyncReplicas=" + config.getMinInSyncReplicas() + "); start or reconnect a"
                                + " slave, or set syncMasterDegradeToAsync=true to accept sends without one."));
            }
            if (degraded) {
                degraded = false;
                log.info("SYNC_MASTER {} has {} slave(s) in sync again; sends wait for them", brokerName, inSync);
            }
            return waiters.await(nextOffset);
        }
    }

    /** SLAVE: nothing but replication writes to its store. */
    private final class SlaveGate implements PutReplication {

        @Override
        public PutMessageResult admit() {
            return PutMessageResult.failure(PutMessageStatus.SERVICE_NOT_AVAILABLE, "Broker " + brokerName
                    + " brokerId " + brokerId + " is a SLAVE: it copies its master and refuses writes; send to the"
                    + " master (brokerId 0) of " + brokerName + ".");
        }

        @Override
        public CompletableFuture<PutMessageResult> replicate(long nextOffset) {
            return CompletableFuture.completedFuture(PutMessageResult.failure(PutMessageStatus.PUT_OK, null));
        }
    }
}

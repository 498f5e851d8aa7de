package dev.wharf.broker.ha;

import dev.wharf.store.PutMessageResult;
import dev.wharf.store.PutMessageStatus;
import dev.wharf.store.PutReplication;
import dev.wharf.store.ReplicableStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
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
    /** How long a new master waits for its consume queues to hold the whole log. */
    private static final long DISPATCH_WAIT_MILLIS = 30_000;

    private final HaConfig config;
    private final String brokerName;
    private final ReplicableStore store;
    private final EpochFile epochs;
    private final int maxMessageSize;
    // the parts of the current role: replaced together (under this) when the role changes at runtime
    private volatile long brokerId;
    private volatile ReplicaTracker tracker;
    private volatile ReplicaWaiters waiters;
    private volatile HaServer server;
    private volatile HaClient client;
    private volatile HaSecurity security = HaSecurity.NONE;
    private volatile int haPort = -1;
    private volatile boolean degraded;
    private volatile boolean started;
    private String bindAddress;
    private int listenPort;
    /** Why puts are refused (a master whose lease with the controller lapsed), or null. */
    private volatile String fenced;
    /** Controller mode: the slaves that must ack (see {@link #setSyncStateSet}); null in classic replication. */
    private volatile Set<Long> syncSlaves;
    /** The master lease checked on every put (not only by its timer, which a pause could delay), or null. */
    private volatile MasterLease lease;
    /** The confirm offset last handed out while the lease was held (only the reput thread writes it). */
    private volatile long confirmedWhileLeased;

    /**
     * @param maxMessageSize the store's maxMessageSize (a slave must take frames holding one such record)
     */
    public HaService(HaConfig config, String brokerName, long brokerId, ReplicableStore store, int maxMessageSize) {
        config.validate(brokerId);
        this.config = config;
        this.brokerName = brokerName;
        this.brokerId = brokerId;
        this.store = store;
        this.maxMessageSize = maxMessageSize;
        try {
            this.epochs = EpochFile.open(store.config().rootPath());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the epoch history in " + store.config().rootPath()
                    + ": " + e.getMessage(), e);
        }
        // one listener for the store's life: a SYNC_MASTER's waiting sends must not wait for a timer
        store.addAppendListener(() -> {
            HaServer s = server;
            if (s != null && config.getBrokerRole() == BrokerRole.SYNC_MASTER) {
                s.dataArrived();
                if (config.isSyncMasterDegradeToAsync()) {
                    // a degraded master's confirm offset moves when the dispatcher asks (confirmOffset()), not
                    // by an ack, and the store wakes the dispatcher of a confirm-gated log only when told
                    store.confirmOffsetMoved();
                }
            }
        });
        store.setLogStartListener(this::pruneEpochs);
        buildParts(config.getBrokerRole());
    }

    /**
     * The commit log's oldest files were deleted: terms that ended before its new start say nothing about this
     * log any more; dropping them keeps the history (and each HA handshake) bounded.
     */
    private void pruneEpochs(long minOffset) {
        try {
            int dropped = epochs.pruneBefore(minOffset);
            if (dropped > 0) {
                log.info("{}: dropped {} epoch entr{} that ended before the commit log's start {}", brokerName,
                        dropped, dropped == 1 ? "y" : "ies", minOffset);
            }
        } catch (IOException e) {
            log.warn("{}: could not prune the epoch history below {} ({}); it stays longer than needed", brokerName,
                    minOffset, e.getMessage());
        }
    }

    /** Builds the tracker, server or client and the put gate of {@code role} (nothing is started). */
    private void buildParts(BrokerRole role) {
        ReplicaTracker t = new ReplicaTracker(role == BrokerRole.SYNC_MASTER ? config.requiredSlaveAcks() : 0,
                config.getHaMaxGapNotInSync(), store::getMaxPhyOffset);
        t.setVoters(syncSlaves);
        this.tracker = t;
        if (role.isMaster()) {
            boolean sync = role == BrokerRole.SYNC_MASTER;
            this.server = new HaServer(config, brokerName, store, t,
                    sync ? Long.MAX_VALUE : ASYNC_TRANSFER_INTERVAL_NANOS, epochs);
            this.server.setSecurity(security);
            this.client = null;
        } else {
            this.server = null;
            this.client = new HaClient(config, brokerName, brokerId, store, maxMessageSize, epochs);
            this.client.setSecurity(security);
        }
        if (role == BrokerRole.SYNC_MASTER) {
            ReplicaWaiters w = new ReplicaWaiters(t::replicatedOffset, config.getSlaveTimeout());
            this.waiters = w;
            t.setOnAdvance(() -> {
                w.advanced();
                store.confirmOffsetMoved();
            });
            store.setConfirmOffsetSupplier(this::confirmOffset);
            store.setPutReplication(new SyncMasterGate());
        } else {
            this.waiters = null;
            if (role == BrokerRole.SLAVE) {
                store.setConfirmOffsetSupplier(null);
                store.setPutReplication(new SlaveGate());
            } else {
                store.setConfirmOffsetSupplier(null);
                // a classic ASYNC_MASTER keeps the put path without a gate; a fence or controller mode needs one
                store.setPutReplication(syncSlaves == null && fenced == null && lease == null ? null
                        : new AsyncMasterGate());
            }
        }
    }

    /** TLS and authentication of the HA port and of the connection to a master (before {@link #start}). */
    public synchronized void setSecurity(HaSecurity security) {
        this.security = security;
        HaServer s = server;
        if (s != null) {
            s.setSecurity(security);
        }
        HaClient c = client;
        if (c != null) {
            c.setSecurity(security);
        }
    }

    /**
     * Starts listening (master) or replicating (slave); call once the store has started.
     *
     * @param bindAddress address the HA port binds (masters)
     * @param listenPort  the broker's client port (the HA port defaults to it + 1)
     */
    public synchronized void start(String bindAddress, int listenPort) throws IOException {
        this.bindAddress = bindAddress;
        this.listenPort = listenPort;
        startParts();
        started = true;
        log.info("Replication of {} started: {} (brokerId {}){}", brokerName, config.getBrokerRole(), brokerId,
                server != null ? ", HA port " + haPort : ", master " + config.getHaMasterAddress());
    }

    private void startParts() throws IOException {
        long end = store.getMaxPhyOffset();
        tracker.startAt(end);
        confirmedWhileLeased = end; // what a new term starts with was visible before (as a slave's or at start)
        HaServer s = server;
        if (s != null) {
            // a master that was a slave before keeps the HA port it first bound, so slaves find it again
            haPort = s.start(bindAddress, haPort > 0 ? haPort : config.effectiveHaListenPort(listenPort));
        }
        if (waiters != null) {
            waiters.start();
        }
        HaClient c = client;
        if (c != null) {
            if (config.getHaMasterAddress() == null) {
                log.warn("Slave {} id {} has no haMasterAddress; it replicates once it learns its master's address",
                        brokerName, brokerId);
            }
            c.start();
        }
    }

    private void stopParts() {
        stopParts("The broker is shutting down before the slaves confirmed the message; it is stored on the master"
                + " only.");
    }

    /** @param reason why sends still waiting for their slaves' acks fail (FLUSH_SLAVE_TIMEOUT) */
    private void stopParts(String reason) {
        HaClient c = client;
        if (c != null) {
            c.shutdown();
        }
        HaServer s = server;
        if (s != null) {
            s.shutdown(); // closes every slave connection
        }
        ReplicaWaiters w = waiters;
        if (w != null) {
            w.close(reason);
        }
    }

    public synchronized void shutdown() {
        stopParts();
        started = false;
    }

    /**
     * Makes this replica the master of term {@code epoch} (a controller elected it): stops copying, records the
     * term in the epoch history at the log's end (whole records only are ever appended, so there is no partial
     * tail to cut), waits until the consume queues hold the whole log, then serves slaves on its HA port.
     *
     * @param role ASYNC_MASTER or SYNC_MASTER
     * @throws IOException the epoch history could not be written (the replica stays fenced: puts refused)
     */
    public synchronized void changeToMaster(int epoch, BrokerRole role) throws IOException {
        if (!role.isMaster()) {
            throw new IllegalArgumentException("changeToMaster needs ASYNC_MASTER or SYNC_MASTER, not " + role);
        }
        fenced = "Broker " + brokerName + " is becoming the master of epoch " + epoch + "; retry in a moment.";
        stopParts("Broker " + brokerName + " is taking the master role of epoch " + epoch + " and its slaves had not"
                + " confirmed the message; it is stored on this broker only: send it again.");
        store.setPutReplication(new SlaveGate());
        long end = store.getMaxPhyOffset();
        epochs.truncateAfter(end);
        if (epoch > epochs.lastEpoch()) {
            epochs.append(epoch, end);
        }
        store.setConfirmOffsetSupplier(null);
        if (!store.prepareForPuts(DISPATCH_WAIT_MILLIS)) {
            throw new IOException(brokerName + " cannot take the master role of epoch " + epoch + ": its consume"
                    + " queues did not catch up with the commit log within " + DISPATCH_WAIT_MILLIS + " ms (see the"
                    + " store's health); it stays fenced");
        }
        brokerId = 0;
        config.setBrokerRole(role);
        buildParts(role);
        if (started) {
            startParts();
        }
        fenced = null;
        log.warn("{} is now {} of epoch {} at commit-log offset {} (HA port {})", brokerName, role, epoch, end, haPort);
    }

    /**
     * Makes this replica a slave (with id {@code slaveId}) of the master at {@code masterHaAddress}: closes its
     * slaves' connections, refuses puts, and copies from that master, cutting back a divergent tail first (see
     * {@link HaClient}).
     */
    public synchronized void changeToSlave(String masterHaAddress, long slaveId) throws IOException {
        if (slaveId <= 0) {
            throw new IllegalArgumentException("a slave needs a brokerId above 0, not " + slaveId);
        }
        stopParts("Broker " + brokerName + " stopped being the master (another replica was elected) before its"
                + " slaves confirmed the message; it is stored on this broker only and will be cut if the new master"
                + " does not hold it: send it again (the new master is in the NameServer's route).");
        brokerId = slaveId;
        config.setBrokerRole(BrokerRole.SLAVE);
        config.setHaMasterAddress(masterHaAddress);
        buildParts(BrokerRole.SLAVE);
        if (started) {
            startParts();
        }
        log.warn("{} is now a SLAVE (id {}) of master {}", brokerName, slaveId, masterHaAddress);
    }

    /**
     * Refuses (reason not null) or accepts again (null) puts on a master: a master that cannot renew its lease
     * with the controller must not acknowledge writes a newly elected master would not have.
     */
    public void setFenced(String reason) {
        if (reason != null && config.getBrokerRole() == BrokerRole.ASYNC_MASTER) {
            store.setPutReplication(new AsyncMasterGate());
        }
        if (!java.util.Objects.equals(reason, fenced)) {
            if (reason != null) {
                log.warn("{}: refusing writes: {}", brokerName, reason);
            } else {
                log.info("{}: accepting writes again", brokerName);
            }
        }
        fenced = reason;
    }

    /**
     * Controller mode: a SYNC_MASTER's send is acknowledged only once every one of these slaves holds it (the
     * sync-state set without this master; while a change is pending, the union of the old and the new set), and
     * refused while fewer than minInSyncReplicas - 1 of them are connected. Null returns to classic counting.
     */
    public void setSyncStateSet(Set<Long> slaveIds) {
        syncSlaves = slaveIds == null ? null : Set.copyOf(slaveIds);
        tracker.setVoters(syncSlaves);
    }

    /** Why writes are refused now, or null. */
    public String fencedReason() {
        return fenced;
    }

    /** Puts are refused whenever {@code lease} is not held (null: no lease, classic replication). */
    void setLease(MasterLease lease) {
        this.lease = lease;
        if (lease != null && config.getBrokerRole() == BrokerRole.ASYNC_MASTER) {
            store.setPutReplication(new AsyncMasterGate());
        }
    }

    private PutMessageResult fencedResult() {
        MasterLease l = lease;
        if (l != null && !l.held()) {
            return PutMessageResult.failure(PutMessageStatus.SERVICE_NOT_AVAILABLE, l.lapsedReason());
        }
        String reason = fenced;
        return reason == null ? null : PutMessageResult.failure(PutMessageStatus.SERVICE_NOT_AVAILABLE, reason);
    }

    /** The confirm offset of a SYNC_MASTER: replicated by enough slaves, or everything when degraded. */
    private long confirmOffset() {
        MasterLease l = lease;
        if (l != null && !l.held()) {
            // a master without a lease may have been replaced: what its slaves confirm now may be cut when it
            // rejoins, so readers keep seeing only what was confirmed while the lease was held
            return confirmedWhileLeased;
        }
        if (config.isSyncMasterDegradeToAsync() && tracker.inSyncCount() < tracker.requiredAcks()) {
            tracker.confirmWithoutSlaves(store.getMaxPhyOffset());
        }
        long confirmed = tracker.replicatedOffset();
        confirmedWhileLeased = confirmed;
        return confirmed;
    }

    /** This replica's epoch history (empty in classic replication). */
    public EpochFile epochs() {
        return epochs;
    }

    public String brokerName() {
        return brokerName;
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
        HaClient client = this.client;
        if (client == null) {
            return null;
        }
        return new SlaveStatus(client.masterAddress(), client.isConnected(), store.getMaxPhyOffset(),
                client.masterMaxOffset(), client.masterConfirmOffset(), client.lastTransferMillis(),
                client.lastRefusal());
    }

    /** Points a slave at its master's HA address (e.g. learnt from the NameServer registration). */
    public void setMasterAddress(String haAddress) {
        HaClient c = client;
        if (c != null && haAddress != null && !haAddress.isBlank()) {
            c.setMasterAddress(haAddress.trim());
        }
    }

    /** The answer of a gate that has nothing to wait for (shared: completed futures are never completed again). */
    private static final CompletableFuture<PutMessageResult> NOTHING_TO_WAIT_FOR =
            CompletableFuture.completedFuture(PutMessageResult.failure(PutMessageStatus.PUT_OK, null));

    /** ASYNC_MASTER: every put, unless fenced; nobody waits for slaves. */
    private final class AsyncMasterGate implements PutReplication {

        @Override
        public PutMessageResult admit() {
            return fencedResult();
        }

        @Override
        public CompletableFuture<PutMessageResult> replicate(long nextOffset) {
            return NOTHING_TO_WAIT_FOR;
        }
    }

    /**
     * SYNC_MASTER: admit every put (unless fenced), then wait for the slaves. In controller mode a put is refused
     * before it is stored while fewer members of the sync-state set than needed are connected (right after a
     * failover, until a replica has joined the new master): the sender can retry without storing it twice.
     */
    private final class SyncMasterGate implements PutReplication {

        @Override
        public PutMessageResult admit() {
            PutMessageResult fence = fencedResult();
            if (fence != null || syncSlaves == null || config.isSyncMasterDegradeToAsync()) {
                return fence;
            }
            ReplicaTracker t = tracker;
            int inSync = t.inSyncCount();
            if (inSync >= t.requiredAcks()) {
                return null;
            }
            return PutMessageResult.failure(PutMessageStatus.SERVICE_NOT_AVAILABLE, "Broker " + brokerName + " has "
                    + inSync + " replica(s) of its sync-state set connected and needs " + t.requiredAcks()
                    + " (minInSyncReplicas=" + config.getMinInSyncReplicas() + "); nothing was stored: send again in a"
                    + " moment (after a failover the other replicas join the new master within seconds)");
        }

        @Override
        public CompletableFuture<PutMessageResult> replicate(long nextOffset) {
            ReplicaTracker tracker = HaService.this.tracker;
            ReplicaWaiters waiters = HaService.this.waiters;
            if (waiters == null) {
                // stored but its replication is unknown: a timeout for the slaves, not a refusal (nothing stored)
                return CompletableFuture.completedFuture(PutMessageResult.failure(
                        PutMessageStatus.FLUSH_SLAVE_TIMEOUT, "Broker " + brokerName + " changed its role while"
                                + " the message was stored; it may or may not be replicated: send it again."));
            }
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
            return waiters.await(nextOffset).thenApply(this::unlessLeaseLapsed);
        }

        /**
         * A put replicated after the lease lapsed is not acknowledged: another replica may have been elected
         * meanwhile, and it may not hold the message (the sender retries; at least once).
         */
        private PutMessageResult unlessLeaseLapsed(PutMessageResult replicated) {
            MasterLease l = lease;
            if (l == null || replicated.status() != PutMessageStatus.PUT_OK || l.held()) {
                return replicated;
            }
            return PutMessageResult.failure(PutMessageStatus.FLUSH_SLAVE_TIMEOUT, "The master of " + brokerName
                    + " lost its lease with the controller while the message was replicated; another replica may"
                    + " have been elected: it may or may not be kept, send it again.");
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

package dev.wharf.controller.client;

import dev.wharf.common.util.NamedThreadFactory;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.protocol.body.ControllerData.BrokerGroups;
import dev.wharf.protocol.body.ControllerData.RegisterResult;
import dev.wharf.protocol.body.ControllerData.SyncStateSet;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.ControllerHeaders;
import dev.wharf.protocol.header.ControllerHeaders.AlterSyncStateSetRequest;
import dev.wharf.protocol.header.ControllerHeaders.ElectMasterRequest;
import dev.wharf.protocol.header.ControllerHeaders.HeartbeatRequest;
import dev.wharf.protocol.header.ControllerHeaders.MasterHeader;
import dev.wharf.protocol.header.ControllerHeaders.RegisterRequest;
import dev.wharf.protocol.header.ControllerHeaders.ReplicaInfoRequest;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker's link to the controller. {@link #start()} registers the broker (claiming an id, or confirming the one it
 * has), sends a first heartbeat, asks for an election if its group has no master, and from then on heartbeats every
 * {@code brokerHeartbeatInterval} to the leader (re-registering when the controller asks) and polls its group every
 * {@code syncBrokerMetadataPeriod}. The master of the group is learnt three ways: pushed notices
 * (NOTIFY_BROKER_ROLE_CHANGED), heartbeat answers (which carry the master epoch) and polls; each new master epoch is
 * handed to the {@link RoleChangeListener} once, in order. A master reports changes of its sync-state set with
 * {@link #alterSyncStateSet}. Thread-safe.
 */
public final class ControllerClient implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ControllerClient.class);

    private final ControllerClientConfig config;
    private final String clusterName;
    private final String brokerName;
    private final String brokerAddress;
    private final ReplicaStatus status;
    private final RoleChangeListener listener;
    private final String registerCheckCode;
    private NettyRemotingClient remoting;
    private ControllerInvoker invoker;
    private ScheduledExecutorService scheduler;
    /** Polls and group reads, apart from the heartbeats so that a slow read never delays a lease renewal. */
    private ScheduledExecutorService pollScheduler;
    private ExecutorService listenerThread;
    private ExecutorService noticeThread;
    private volatile long brokerId;
    /**
     * When the last heartbeat was sent ({@link System#nanoTime()}) whose answer named this broker the master; 0
     * before any.
     */
    private volatile long lastAcceptedHeartbeatNanos;
    private volatile boolean started;
    private volatile UnaryOperator<NettyRemotingClient> clientSetup = UnaryOperator.identity();

    // the group as last learnt; guarded by this
    private long masterBrokerId = ControllerHeaders.NO_BROKER;
    private String masterAddress;
    private int masterEpoch = -1;
    private Set<Long> syncStateSet = Set.of();
    private int syncStateSetEpoch;

    /**
     * @param brokerId the id this broker holds (&gt; 0), or 0 to have the controller assign one ({@link #brokerId()}
     *                 then tells it; the broker must keep it for its next start)
     * @param status   asked at every heartbeat for the broker's epoch and offsets
     */
    public ControllerClient(ControllerClientConfig config, String clusterName, String brokerName, String brokerAddress,
                            long brokerId, ReplicaStatus status, RoleChangeListener listener) {
        this.config = Objects.requireNonNull(config, "config");
        this.clusterName = Objects.requireNonNull(clusterName, "clusterName");
        this.brokerName = Objects.requireNonNull(brokerName, "brokerName");
        this.brokerAddress = Objects.requireNonNull(brokerAddress, "brokerAddress");
        this.status = Objects.requireNonNull(status, "status");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.brokerId = brokerId;
        this.registerCheckCode = brokerAddress + "#" + System.currentTimeMillis() + "#"
                + Long.toHexString(ThreadLocalRandom.current().nextLong());
    }

    /**
     * Sets what is applied to the remoting client when it is made (in {@link #start}): the broker's credentials,
     * which sign every request (a controller inside a NameServer with aclEnable refuses unsigned ones), and TLS.
     */
    public void setClientSetup(UnaryOperator<NettyRemotingClient> setup) {
        this.clientSetup = Objects.requireNonNull(setup, "setup");
    }

    /**
     * Registers, heartbeats once and starts the schedules.
     *
     * @throws ControllerException the controller refused the registration, or no leader answered in time
     * @throws IllegalArgumentException {@code controllerAddr} is empty or malformed
     */
    public synchronized void start() throws ControllerException, InterruptedException {
        if (started) {
            throw new IllegalStateException("the controller client of " + brokerName + " is already started");
        }
        List<String> addresses = ControllerInvoker.parseAddresses(config.getControllerAddr());
        NettyClientConfig nc = new NettyClientConfig();
        remoting = clientSetup.apply(new NettyRemotingClient(nc));
        noticeThread = Executors.newSingleThreadExecutor(new NamedThreadFactory("controller-notice-" + brokerName));
        remoting.registerProcessor(RequestCode.NOTIFY_BROKER_ROLE_CHANGED, (channel, request) -> {
            onNotice(request);
            return null;
        }, noticeThread);
        remoting.start();
        invoker = new ControllerInvoker(remoting, addresses, config.getControllerRequestTimeoutMillis());
        listenerThread = Executors.newSingleThreadExecutor(new NamedThreadFactory("controller-role-" + brokerName));
        scheduler = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("controller-beat-" + brokerName));
        pollScheduler = Executors.newSingleThreadScheduledExecutor(
                new NamedThreadFactory("controller-poll-" + brokerName));
        started = true;
        try {
            register();
            heartbeat();
            if (!hasMaster()) {
                requestElection();
            }
        } catch (ControllerException | InterruptedException | RuntimeException e) {
            shutdown();
            throw e;
        }
        scheduler.scheduleWithFixedDelay(this::heartbeatQuietly, config.getBrokerHeartbeatInterval(),
                config.getBrokerHeartbeatInterval(), TimeUnit.MILLISECONDS);
        pollScheduler.scheduleWithFixedDelay(this::pollQuietly, config.getSyncBrokerMetadataPeriod(),
                config.getSyncBrokerMetadataPeriod(), TimeUnit.MILLISECONDS);
    }

    /**
     * When the last heartbeat the controller leader accepted was <em>sent</em> ({@link System#nanoTime()}; 0 before
     * any): the leader counts this broker alive from no earlier than that, so a master lease measured from it ends
     * before the leader can declare the master dead, provided the lease is shorter than the heartbeat timeout.
     */
    public long lastAcceptedHeartbeatNanos() {
        return lastAcceptedHeartbeatNanos;
    }

    /** The broker's id at the controller (assigned at the first registration when 0 was given). */
    public long brokerId() {
        return brokerId;
    }

    public String brokerName() {
        return brokerName;
    }

    public synchronized long masterBrokerId() {
        return masterBrokerId;
    }

    public synchronized String masterAddress() {
        return masterAddress;
    }

    public synchronized int masterEpoch() {
        return masterEpoch;
    }

    public synchronized Set<Long> syncStateSet() {
        return syncStateSet;
    }

    public synchronized int syncStateSetEpoch() {
        return syncStateSetEpoch;
    }

    /** Whether this broker is its group's master as far as it knows. */
    public synchronized boolean isMaster() {
        return masterBrokerId == brokerId && brokerId > 0;
    }

    private synchronized boolean hasMaster() {
        return masterBrokerId != ControllerHeaders.NO_BROKER;
    }

    /** Registers again (also done by itself when the controller says the registration is missing). */
    public RegisterResult register() throws ControllerException, InterruptedException {
        RemotingCommand response = call(() -> RemotingCommand.createRequest(RequestCode.CONTROLLER_REGISTER_BROKER)
                .writeHeader(new RegisterRequest(clusterName, brokerName, brokerAddress, brokerId, registerCheckCode)));
        RegisterResult result = Json.decode(response.body(), RegisterResult.class);
        if (brokerId != result.brokerId()) {
            log.info("Broker {} at {} holds id {} at the controller", brokerName, brokerAddress, result.brokerId());
        }
        brokerId = result.brokerId();
        learn(result.group());
        return result;
    }

    /** The group's state at the controller leader (a linearizable read), also handed to the listener if newer. */
    public BrokerGroupInfo replicaInfo() throws ControllerException, InterruptedException {
        RemotingCommand response = call(() -> RemotingCommand.createRequest(RequestCode.CONTROLLER_GET_REPLICA_INFO)
                .writeHeader(new ReplicaInfoRequest(brokerName)));
        List<BrokerGroupInfo> groups = Json.decode(response.body(), BrokerGroups.class).groups();
        BrokerGroupInfo g = groups.isEmpty() ? null : groups.get(0);
        learn(g);
        return g;
    }

    /**
     * Asks the controller to elect a master for this group (this broker wins only if nothing can be lost by it: the
     * group never had a master, or it is an alive member of the sync-state set and the best one).
     *
     * @return the group afterwards; with CONTROLLER_MASTER_STILL_EXIST the master stays and that is not an error
     * @throws ControllerException CONTROLLER_ELECT_MASTER_FAILED when nobody may become master
     */
    public BrokerGroupInfo requestElection() throws ControllerException, InterruptedException {
        RemotingCommand response = invoker.invokeLeader(() -> RemotingCommand.createRequest(
                RequestCode.CONTROLLER_ELECT_MASTER).writeHeader(new ElectMasterRequest(brokerName, brokerId, false)));
        BrokerGroupInfo g = response.body() == null || response.body().length == 0 ? null
                : Json.decode(response.body(), BrokerGroupInfo.class);
        learn(g);
        if (response.code() != ResponseCode.SUCCESS && response.code() != ResponseCode.CONTROLLER_MASTER_STILL_EXIST) {
            throw new ControllerException(response.code(), response.remark());
        }
        return g;
    }

    /**
     * Reports a new sync-state set; only the master may, under the master and set epochs it knows. While the change is
     * pending the master should count acknowledgements against both the old and the new set.
     *
     * @return the set the controller recorded, with its new epoch (also kept here)
     * @throws ControllerException fenced epochs (another election or change came first: re-read with
     *                             {@link #replicaInfo()}), a member not alive or unknown, this broker not the master
     */
    public SyncStateSet alterSyncStateSet(Set<Long> newSet) throws ControllerException, InterruptedException {
        long master;
        int epoch;
        int setEpoch;
        synchronized (this) {
            master = masterBrokerId;
            epoch = masterEpoch;
            setEpoch = syncStateSetEpoch;
        }
        if (master != brokerId) {
            throw new ControllerException(ResponseCode.CONTROLLER_INVALID_MASTER, "broker " + brokerId + " of "
                    + brokerName + " is not the master (the master is " + master + "); only the master alters the "
                    + "sync-state set");
        }
        SyncStateSet body = new SyncStateSet(List.copyOf(new TreeSet<>(newSet)), setEpoch);
        RemotingCommand response = call(() -> RemotingCommand.createRequest(
                        RequestCode.CONTROLLER_ALTER_SYNC_STATE_SET)
                .writeHeader(new AlterSyncStateSetRequest(brokerName, master, epoch))
                .setBody(Json.encode(body)));
        SyncStateSet recorded = Json.decode(response.body(), SyncStateSet.class);
        synchronized (this) {
            if (masterEpoch == epoch && recorded.epoch() > syncStateSetEpoch) {
                syncStateSet = Set.copyOf(recorded.members());
                syncStateSetEpoch = recorded.epoch();
            }
        }
        return recorded;
    }

    /** Sends one heartbeat now (the schedule sends them anyway); a newer group state is read before it returns. */
    public void heartbeat() throws ControllerException, InterruptedException {
        if (sendHeartbeat()) {
            replicaInfo(); // the heartbeat answer has no set members: fetch the whole group
        }
    }

    /**
     * One heartbeat, retried at other controllers at once when the leader is gone or silent (one attempt waits at
     * most {@link #heartbeatAttemptMillis()}), so that the lease is renewed at a new leader as soon as it is ready.
     *
     * @return whether the answer carries a newer master or set epoch than known (the group should be read)
     */
    private boolean sendHeartbeat() throws ControllerException, InterruptedException {
        ControllerInvoker.LeaderAnswer answer = invoker.invokeLeader(() -> RemotingCommand.createRequest(
                RequestCode.CONTROLLER_BROKER_HEARTBEAT).writeHeader(new HeartbeatRequest(clusterName, brokerName,
                brokerAddress, brokerId, status.lastEpoch(), status.maxOffset(), status.confirmOffset(),
                config.getBrokerElectionPriority(), config.getControllerHeartBeatTimeoutMills())),
                heartbeatAttemptMillis());
        RemotingCommand response = answer.response();
        // the attempt that was answered, not the first one: the leader saw the heartbeat no earlier than that
        long sentAt = answer.sentAtNanos();
        if (response.code() == ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED) {
            log.info("The controller asks broker {} of {} to register again: {}", brokerId, brokerName,
                    response.remark());
            register();
            return false;
        }
        if (response.code() != ResponseCode.SUCCESS) {
            throw new ControllerException(response.code(), response.remark());
        }
        MasterHeader m = response.readHeader(MasterHeader.class);
        if (m.masterBrokerId() == brokerId) {
            // only an answer naming this broker the master renews its lease: a master that was paused or cut off
            // while another replica was elected hears of it in this answer and must not acknowledge another write
            lastAcceptedHeartbeatNanos = sentAt;
        }
        synchronized (this) {
            return m.masterEpoch() > masterEpoch
                    || m.masterEpoch() == masterEpoch && m.syncStateSetEpoch() > syncStateSetEpoch;
        }
    }

    /**
     * How long one heartbeat attempt at one controller may wait: twice the heartbeat interval (a healthy leader
     * answers from memory in milliseconds), so a silent old leader costs at most that before the others are asked.
     */
    private long heartbeatAttemptMillis() {
        return Math.min(config.getControllerRequestTimeoutMillis(),
                Math.max(200, 2 * config.getBrokerHeartbeatInterval()));
    }

    private void heartbeatQuietly() {
        try {
            if (sendHeartbeat()) {
                pollScheduler.execute(this::pollQuietly);
            }
        } catch (java.util.concurrent.RejectedExecutionException e) {
            log.debug("Heartbeat answer of {} arrived after shutdown", brokerName);
        } catch (ControllerException e) {
            log.warn("Heartbeat of broker {} of {} to the controller failed: {}", brokerId, brokerName,
                    e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("Heartbeat of broker {} of {} failed", brokerId, brokerName, e);
        }
    }

    private void pollQuietly() {
        try {
            replicaInfo();
        } catch (ControllerException e) {
            log.debug("Polling the controller for {} failed: {}", brokerName, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("Polling the controller for {} failed", brokerName, e);
        }
    }

    private void onNotice(RemotingCommand request) {
        MasterHeader m = request.readHeader(MasterHeader.class);
        if (!brokerName.equals(m.brokerName())) {
            return;
        }
        SyncStateSet set = request.body() == null || request.body().length == 0 ? null
                : Json.decode(request.body(), SyncStateSet.class);
        learn(m.masterBrokerId(), m.masterAddress(), m.masterEpoch(),
                set == null ? Set.of() : Set.copyOf(set.members()), m.syncStateSetEpoch());
    }

    private void learn(BrokerGroupInfo g) {
        if (g == null || !brokerName.equals(g.brokerName())) {
            return;
        }
        learn(g.masterBrokerId(), g.masterAddress(), g.masterEpoch(), Set.copyOf(g.syncStateSet()),
                g.syncStateSetEpoch());
    }

    /** Takes what is newer than what is known; a new master epoch goes to the listener, in order. */
    private synchronized void learn(long master, String address, int epoch, Set<Long> set, int setEpoch) {
        if (epoch > masterEpoch) {
            masterBrokerId = master;
            masterAddress = address;
            masterEpoch = epoch;
            syncStateSet = set;
            syncStateSetEpoch = setEpoch;
            if (epoch > 0 || master != ControllerHeaders.NO_BROKER) {
                try {
                    listenerThread.execute(() -> tell(master, address, epoch, set));
                    if (master == brokerId) {
                        // an elected master holds no lease until a heartbeat answer names it: ask for one now
                        scheduler.execute(this::heartbeatQuietly);
                    }
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    log.debug("Role change of {} at epoch {} arrived after shutdown", brokerName, epoch);
                }
            }
        } else if (epoch == masterEpoch && setEpoch > syncStateSetEpoch) {
            syncStateSet = set;
            syncStateSetEpoch = setEpoch;
        }
    }

    private void tell(long master, String address, int epoch, Set<Long> set) {
        try {
            listener.onRoleChanged(brokerName, master, address, epoch, set);
        } catch (RuntimeException e) {
            log.error("The role change listener of {} failed on epoch {}", brokerName, epoch, e);
        }
    }

    private RemotingCommand call(java.util.function.Supplier<RemotingCommand> request)
            throws ControllerException, InterruptedException {
        RemotingCommand response = invoker.invokeLeader(request);
        if (response.code() != ResponseCode.SUCCESS) {
            throw new ControllerException(response.code(), response.remark());
        }
        return response;
    }

    /** Stops heartbeating and closes the connections; the controller notices the closed connection at once. */
    public synchronized void shutdown() {
        started = false;
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        if (pollScheduler != null) {
            pollScheduler.shutdownNow();
        }
        if (remoting != null) {
            remoting.shutdown();
        }
        if (listenerThread != null) {
            listenerThread.shutdown();
        }
        if (noticeThread != null) {
            noticeThread.shutdownNow();
        }
    }

    @Override
    public void close() {
        shutdown();
    }
}

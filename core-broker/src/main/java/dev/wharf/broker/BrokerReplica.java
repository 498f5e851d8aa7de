package dev.wharf.broker;

import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.broker.processor.BrokerRuntimeProcessor;
import dev.wharf.broker.processor.ConsumerOffsetProcessor;
import dev.wharf.broker.processor.ReadSuggestion;
import dev.wharf.broker.registry.NameServerRegistrar;
import dev.wharf.broker.slave.MetadataExportProcessor;
import dev.wharf.broker.slave.SlaveCommittedOffsets;
import dev.wharf.broker.slave.SlaveOffsetCommitProcessor;
import dev.wharf.broker.slave.SlaveSynchronizer;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.body.BrokerRuntime;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.NettyRemotingServer;
import dev.wharf.remoting.RemotingExecutors;
import dev.wharf.store.MessageStore;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's part in its group's replication, around the replication stream itself: the HA address a master
 * publishes in its registration, the master a slave learns from the NameServers, the slave's metadata sync and the
 * offsets committed to it, the pull answers' read suggestion, and the runtime figures tools compare to show a
 * slave's lag. The replication service plugs in through {@link #setHaServerAddress} and
 * {@link #setSlaveReadEnable}. Thread-safe.
 */
public final class BrokerReplica {

    private static final Logger log = LoggerFactory.getLogger(BrokerReplica.class);

    private final BrokerConfig config;
    private final MessageStore store;
    private final BrokerParts parts;
    private final Path storeRoot;
    private final Supplier<NameServerRegistrar> registrar;
    private final Supplier<String> address;
    private final SlaveCommittedOffsets committed = new SlaveCommittedOffsets();
    private volatile BooleanSupplier slaveReadEnable = () -> false;
    private volatile String haServerAddr;
    private volatile String masterAddrOverride;
    private volatile SlaveSynchronizer synchronizer;
    private volatile long lastStoreTimestamp;
    private volatile long bootTimestamp;
    private volatile String role;
    private volatile int requiredSlaves;
    private volatile IntSupplier inSyncSlaves = () -> -1;
    private NettyRemotingClient syncClient;
    private ScheduledExecutorService syncScheduler;
    private volatile RuntimeFigures figures;
    private java.util.function.UnaryOperator<NettyRemotingClient> clientSetup = c -> c;

    BrokerReplica(BrokerConfig config, MessageStore store, BrokerParts parts, Path storeRoot,
                  Supplier<NameServerRegistrar> registrar, Supplier<String> address) {
        this.config = config;
        this.store = store;
        this.parts = parts;
        this.storeRoot = storeRoot;
        this.registrar = registrar;
        this.address = address;
    }

    /** Which broker of the group a pull answer suggests for the next pull. */
    ReadSuggestion readSuggestion() {
        return new ReadSuggestion(config.getBrokerId(), config.slaves().getWhichBrokerWhenConsumeSlowly(),
                config.slaves().getAccessMessageInMemoryMaxRatio(), () -> slaveReadEnable.getAsBoolean(),
                store::getMaxPhyOffset);
    }

    /** What masters and slaves of a group ask each other, and what tools ask about replication. */
    void registerProcessors(NettyRemotingServer server, BrokerExecutors executors) {
        MetadataExportProcessor export = new MetadataExportProcessor(parts.offsets, parts.subscriptionGroups,
                storeRoot);
        for (int code : new int[] {RequestCode.GET_ALL_CONSUMER_OFFSET, RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG,
                RequestCode.GET_ALL_DELAY_OFFSET, RequestCode.GET_PROGRESS_DOCUMENT}) {
            server.registerProcessor(code, export, executors.admin);
        }
        figures = new RuntimeFigures(this::runtime, store, executors, parts.topics, storeRoot,
                System::currentTimeMillis);
        server.registerProcessor(RequestCode.GET_BROKER_RUNTIME_INFO, new BrokerRuntimeProcessor(this::runtime,
                figures::rocketMqTable), executors.admin);
        if (config.isSlave()) {
            server.registerProcessor(RequestCode.UPDATE_CONSUMER_OFFSET, new SlaveOffsetCommitProcessor(
                    new ConsumerOffsetProcessor(parts.offsets, store), committed), executors.clientManage);
        }
    }

    /** A message became readable (called by the store's single dispatch thread). */
    void messageArrived(long storeTimestamp) {
        if (storeTimestamp > lastStoreTimestamp) {
            lastStoreTimestamp = storeTimestamp;
        }
    }

    /** The store and the managers are loaded: note the newest stored message (one look per queue). */
    void loaded(long now) {
        bootTimestamp = now;
        long newest = 0;
        for (TopicConfig t : parts.topics.all().values()) {
            for (int q = 0; q < t.writeQueueNums(); q++) {
                long max = store.getMaxOffsetInQueue(t.topicName(), q);
                if (max > 0) {
                    newest = Math.max(newest, store.getMessageStoreTimestamp(t.topicName(), q, max - 1));
                }
            }
        }
        messageArrived(newest);
    }

    /** Credentials and TLS for the slave's metadata client (set before {@link #startSync}). */
    void setClientSetup(java.util.function.UnaryOperator<NettyRemotingClient> setup) {
        this.clientSetup = setup;
    }

    /**
     * On a slave: starts copying the master's metadata every slaveSynchronizeInterval, on a thread of its own: a
     * round blocks on calls to the master for up to registerBrokerTimeoutMills, and while the master is paused or
     * cut off that must not hold up the broker's other scheduled work (a failover's NameServer registration above
     * all, which would otherwise wait for the round's timeout).
     */
    void startSync() {
        if (!config.isSlave()) {
            return;
        }
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
                RemotingExecutors.threadFactory("wharf-metadata-sync"));
        syncScheduler = scheduler;
        syncClient = clientSetup.apply(new NettyRemotingClient(new NettyClientConfig()));
        syncClient.start();
        SlaveSynchronizer sync = new SlaveSynchronizer(syncClient, this::masterAddress, parts.topics,
                parts.subscriptionGroups, parts.offsets, committed, storeRoot,
                config.registration().getRegisterBrokerTimeoutMills(),
                this::askForMaster);
        synchronizer = sync;
        long interval = config.slaves().getSlaveSynchronizeInterval();
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                sync.syncOnce();
            } catch (RuntimeException e) {
                log.warn("Metadata sync failed: {}", e.toString());
            }
        }, Math.min(interval, 1_000), interval, TimeUnit.MILLISECONDS);
    }

    /** A registration: its answer names the group's master. */
    private void askForMaster() {
        NameServerRegistrar r = registrar.get();
        if (r != null) {
            r.requestRegistration();
        }
    }

    /** Stops the sync's rounds and connections. */
    void shutdown() {
        if (syncScheduler != null) {
            syncScheduler.shutdownNow();
            syncScheduler = null;
        }
        if (syncClient != null) {
            syncClient.shutdown();
            syncClient = null;
        }
    }

    /**
     * Sets the HA address ("host:haListenPort") a master publishes in its NameServer registration (header field
     * {@code haServerAddr}); the NameServers hand it to the group's slaves in their registration answers. Set by
     * the replication service once its port is bound; null (the default) publishes none.
     */
    public void setHaServerAddress(String haServerAddr) {
        this.haServerAddr = haServerAddr;
        askForMaster();
    }

    /** The HA address this broker publishes, or null. */
    public String haServerAddress() {
        return haServerAddr;
    }

    /**
     * Whether this broker suggests slave reads to lagging consumers (RocketMQ's slaveReadEnable); the
     * replication configuration provides it. Off by default: every pull answer suggests the master.
     */
    public void setSlaveReadEnable(BooleanSupplier slaveReadEnable) {
        this.slaveReadEnable = Objects.requireNonNull(slaveReadEnable, "slaveReadEnable");
    }

    /**
     * The replication role and the in-sync figures the runtime answer carries, so tools can tell a SYNC_MASTER
     * that has too few slaves in sync (its sends are not acknowledged as configured).
     */
    public void setReplication(String role, int requiredSlaves, IntSupplier inSyncSlaves) {
        this.role = role;
        this.requiredSlaves = requiredSlaves;
        this.inSyncSlaves = Objects.requireNonNull(inSyncSlaves, "inSyncSlaves");
    }

    /**
     * Overrides the master client address a slave syncs its metadata from (else the NameServers' answer to its
     * registration); null removes the override.
     */
    public void setMasterAddress(String masterAddr) {
        this.masterAddrOverride = masterAddr;
    }

    /** For a slave: its master's client address (the override, else the NameServers' last answer), else null. */
    public String masterAddress() {
        if (!config.isSlave()) {
            return null;
        }
        String override = masterAddrOverride;
        if (override != null) {
            return override;
        }
        NameServerRegistrar r = registrar.get();
        return r == null ? null : r.master().masterAddr();
    }

    /** For a slave: the master's HA address as the NameServers last answered, else null. */
    public String masterHaAddress() {
        NameServerRegistrar r = registrar.get();
        return !config.isSlave() || r == null ? null : r.master().haServerAddr();
    }

    /** A slave's metadata sync (null on a master or before start). */
    public SlaveSynchronizer synchronizer() {
        return synchronizer;
    }

    /** Offsets committed to this slave that the master has not reached yet. */
    public SlaveCommittedOffsets committedOffsets() {
        return committed;
    }

    /** Samples the traffic counters behind the runtime table's rates (every RuntimeFigures.SAMPLE_MILLIS). */
    void sampleFigures() {
        RuntimeFigures f = figures;
        if (f != null) {
            f.sample();
        }
    }

    /** The broker's identity and commit-log figures, as GET_BROKER_RUNTIME_INFO answers them. */
    public BrokerRuntime runtime() {
        return new BrokerRuntime(config.getBrokerClusterName(), config.getBrokerName(), config.getBrokerId(),
                address.get(), store.getMinPhyOffset(), store.getMaxPhyOffset(), lastStoreTimestamp,
                store.dispatchBehindBytes(), masterAddress(), bootTimestamp, role,
                config.isSlave() ? -1 : inSyncSlaves.getAsInt(), requiredSlaves);
    }
}

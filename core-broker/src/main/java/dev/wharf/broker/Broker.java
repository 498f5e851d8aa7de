package dev.wharf.broker;

import dev.wharf.broker.ack.AckService;
import dev.wharf.broker.ack.AckSettings;
import dev.wharf.broker.ack.persist.AckStateDocument;
import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.broker.config.PopConfig;
import dev.wharf.broker.group.ClientHousekeepingService;
import dev.wharf.broker.group.ConsumerManager;
import dev.wharf.broker.group.ProducerManager;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.ha.BrokerRole;
import dev.wharf.broker.ha.HaService;
import dev.wharf.broker.lock.RebalanceLockManager;
import dev.wharf.broker.longpolling.PullRequestHoldService;
import dev.wharf.broker.offset.ConsumerOffsetManager;
import dev.wharf.broker.processor.BrokerStatusProcessor;
import dev.wharf.broker.processor.PutMessageHook;
import dev.wharf.broker.registry.NameServerRegistrar;
import dev.wharf.broker.schedule.ScheduleService;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.broker.transaction.DelayRouter;
import dev.wharf.broker.transaction.TransactionSupport;
import dev.wharf.common.message.Message;
import dev.wharf.store.MessageToStore;
import dev.wharf.common.message.HostAddress;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.body.RouteData.RegisterBrokerBody;
import dev.wharf.protocol.header.RouteHeaders.RegisterBrokerRequest;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.NettyRemotingServer;
import dev.wharf.remoting.RemotingExecutors;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.remoting.auth.ServerSecurity;
import dev.wharf.store.DefaultMessageStore;
import dev.wharf.store.MessageStore;
import dev.wharf.store.ReplicableStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker: the store, the managers of topics, offsets and groups, the request processors on bounded
 * executors, long polling, housekeeping and NameServer registration, wired together. The parts do the work;
 * this class only builds them, starts them in order and stops them in reverse.
 *
 * <p>Extension points for features built on top: {@link #addPutMessageHook} (runs on every sent message
 * before it is stored), {@link #registerProcessor} (serve more request codes), {@link #addService} (a service
 * that lives with the broker) and {@link #scheduler()} (short periodic tasks).
 *
 * <p>Lifecycle: {@link #start()} once, {@link #shutdown()} once (idempotent); thread-safe.
 */
public final class Broker {

    private static final Logger log = LoggerFactory.getLogger(Broker.class);
    /** How often held pulls are checked when no message wakes them. */
    private static final long HOLD_CHECK_INTERVAL_MILLIS = 5_000;
    private static final long EXECUTOR_SHUTDOWN_WAIT_MILLIS = 3_000;

    private enum State { NEW, STARTING, STARTED, STOPPED }

    private final BrokerSettings settings;
    private final BrokerConfig config;
    private final MessageStore store;
    private final LongSupplier clock = System::currentTimeMillis;
    private final BrokerParts parts;
    private final PullRequestHoldService holdService;
    private final AckService ack;
    private final ClientHousekeepingService housekeeping;
    private final ScheduleService schedule;
    private final List<PutMessageHook> hooks = new CopyOnWriteArrayList<>();
    private final List<BrokerService> services = new CopyOnWriteArrayList<>();
    private final List<BrokerService> startedServices = new ArrayList<>();
    private final BrokerExecutors executors;
    private final ScheduledExecutorService scheduler;
    private final NettyRemotingServer server;
    private final TransactionSupport transactions;
    private final HaService ha;
    /** Services that write to the store on their own (delivery, check-back, lease expiry): masters only. */
    private final List<BrokerService> masterOnly = new ArrayList<>();
    private final BrokerReplica replica;
    /** Controller mode: the controllers decide the role; null otherwise. */
    private final ControllerMode controllerMode;
    private final InnerClients innerClients;
    private final ServerSecurity security;
    private NettyRemotingClient namesrvClient;
    private volatile NameServerRegistrar registrar;
    private volatile long storeHost;
    private volatile String address;
    private State state = State.NEW;

    /** A broker on a {@link DefaultMessageStore} in {@code storePathRootDir}. */
    public Broker(BrokerSettings settings) {
        this(settings, new DefaultMessageStore(validated(settings).store()));
    }

    /** A broker on the given store (started and shut down by the broker). */
    public Broker(BrokerSettings settings, MessageStore store) {
        this.settings = validated(settings);
        this.config = settings.broker();
        this.store = Objects.requireNonNull(store, "store");
        this.controllerMode = settings.controller().isEnableControllerMode() ? new ControllerMode(settings) : null;
        this.parts = new BrokerParts(config, settings.store().rootPath(), store, clock);
        this.replica = new BrokerReplica(config, store, parts, settings.store().rootPath(), () -> registrar,
                () -> address);
        this.housekeeping = new ClientHousekeepingService(parts.consumers, parts.producers,
                config.getChannelExpiredTimeout(), clock);
        this.holdService = new PullRequestHoldService(store, HOLD_CHECK_INTERVAL_MILLIS, clock);
        this.executors = new BrokerExecutors(config.executors());
        this.scheduler = Executors.newSingleThreadScheduledExecutor(RemotingExecutors.threadFactory("wharf-broker-scheduler"));
        this.server = new NettyRemotingServer(settings.netty());
        this.innerClients = InnerClients.from(config.innerClient());
        replica.setClientSetup(innerClients::apply);
        if (controllerMode != null) {
            controllerMode.setClientSetup(innerClients::apply);
        }
        this.security = ServerSecurity.install(server, settings.netty(),
                settings.store().rootPath().resolve("config").resolve("acl.json"), "broker");
        this.schedule = new ScheduleService(config.schedule(), store, parts.topics, settings.store().rootPath(),
                settings.store().getFileReservedTime(), clock);
        hooks.add(schedule.hook());
        this.ha = replication(settings, store);
        if (ha != null) {
            HaService replication = ha;
            replication.setSecurity(innerClients.haSecurity(settings.netty(), security,
                    config.getBrokerClusterName(), controllerMode != null || replication.role() == BrokerRole.SLAVE));
            replica.setReplication(replication.role().name(), replication.role() == BrokerRole.SYNC_MASTER
                    ? settings.ha().requiredSlaveAcks() : 0, replication::inSyncReplicaCount);
        }
        replica.setSlaveReadEnable(() -> settings.ha().isSlaveReadEnable());
        services.add(masterOnly(new BrokerService() {
            @Override
            public String name() {
                return "scheduled delivery";
            }

            @Override
            public void start() throws Exception {
                schedule.start();
            }

            @Override
            public void shutdown() {
                schedule.shutdown();
            }
        }));
        parts.topics.addListener(() -> {
            NameServerRegistrar r = registrar;
            if (r != null) {
                r.requestRegistration();
            }
        });
        PopConfig pop = config.pop();
        this.ack = new AckService(new AckSettings(pop.getPopScanUnitsPerQueue(),
                settings.store().getMaxTransferBytesOnMessageInMemory(), pop.getPopLeaseScanInterval(),
                pop.getAckStateSnapshotInterval(), pop.isForceDeliveryCounts()), store, parts.topics, parts.subscriptionGroups,
                JsonConfigFile.inConfigDir(settings.store().rootPath(), "ackState.json", AckStateDocument.class),
                (topic, queueId, tagsCode) -> holdService.notifyMessageArriving(topic, queueId, Long.MAX_VALUE,
                        tagsCode),
                clock);
        housekeeping.addChannelCloseListener(ack::channelClosed);
        housekeeping.addChannelCloseListener(parts.claims::channelClosed);
        services.add(masterOnly(new BrokerService() {
            @Override
            public String name() {
                return "acknowledgement state";
            }

            @Override
            public void start() throws IOException {
                ack.start();
            }

            @Override
            public void shutdown() {
                ack.shutdown();
            }
        }));
        BrokerProcessors.registerAll(server, executors, config, store, parts, holdService, hooks, () -> storeHost, clock,
                ack, replica.readSuggestion());
        replica.registerProcessors(server, executors);
        this.transactions = new TransactionSupport(config, store, parts.producers, settings.store().rootPath(),
                () -> storeHost, clock, new DelayRouter() {
                    @Override
                    public String check(Message msg) {
                        return schedule.hook().check(msg);
                    }

                    @Override
                    public String route(MessageToStore msg) {
                        return schedule.hook().route(msg);
                    }
                });
        // first: a half message is stored in the half topic as sent (its delay applies when it commits)
        hooks.add(0, transactions.halfMessageHook());
        server.registerProcessor(RequestCode.END_TRANSACTION, transactions.endTransactionProcessor(),
                transactions.endTransactionExecutor());
        BrokerStatusReport statusReport = new BrokerStatusReport(store, settings.store(), schedule, transactions,
                () -> replica.runtime().bootTimestamp());
        server.registerProcessor(RequestCode.GET_BROKER_STATUS,
                new BrokerStatusProcessor(statusReport::status), executors.admin);
        services.add(masterOnly(new BrokerService() {
            @Override
            public String name() {
                return "transaction check-back";
            }

            @Override
            public void start() throws IOException {
                transactions.start();
            }

            @Override
            public void shutdown() {
                transactions.shutdown();
            }
        }));
        if (controllerMode != null) {
            controllerMode.wire(ha, (ReplicableStore) store, replica, schedule, transactions, ack, () -> registrar,
                    this::startRegistration);
        }
    }

    private BrokerService masterOnly(BrokerService service) {
        masterOnly.add(service);
        return service;
    }

    /** Replication for the configured role; it hooks into the store before the store starts. */
    private HaService replication(BrokerSettings settings, MessageStore store) {
        if (!(store instanceof ReplicableStore replicable)) {
            if (settings.ha().getBrokerRole() != BrokerRole.ASYNC_MASTER) {
                throw new IllegalArgumentException("brokerRole=" + settings.ha().getBrokerRole() + " needs a store"
                        + " that can replicate (DefaultMessageStore); " + store.getClass().getName() + " cannot.");
            }
            return null;
        }
        long replicaId = controllerMode != null ? controllerMode.provisionalReplicaId() : config.getBrokerId();
        HaService service = new HaService(settings.ha(), config.getBrokerName(), replicaId, replicable,
                settings.store().getMaxMessageSize());
        services.add(new BrokerService() {
            @Override
            public String name() {
                return "replication (" + settings.ha().getBrokerRole() + ")";
            }

            @Override
            public void start() throws IOException {
                service.start(settings.netty().getBindAddress(), settings.netty().getListenPort());
            }

            @Override
            public void shutdown() {
                service.shutdown();
            }
        });
        return service;
    }

    private static BrokerSettings validated(BrokerSettings settings) {
        Objects.requireNonNull(settings, "settings");
        settings.validate();
        return settings;
    }

    // ------------------------------------------------------------------ extension points

    /** Adds a step the send path runs on every message before storing it (see {@link PutMessageHook}). */
    public void addPutMessageHook(PutMessageHook hook) {
        hooks.add(Objects.requireNonNull(hook, "hook"));
    }

    /**
     * Serves a request code with a processor on an executor (make it bounded: {@link RemotingExecutors#bounded};
     * the caller shuts it down). Replaces the broker's own processor of that code, if any.
     */
    public void registerProcessor(int code, RequestProcessor processor, ExecutorService executor) {
        server.registerProcessor(code, processor, executor);
    }

    /** Serves a request code on the broker's administration executor. */
    public void registerProcessor(int code, RequestProcessor processor) {
        server.registerProcessor(code, processor, executors.admin);
    }

    /** Adds a service that starts and stops with the broker; add it before {@link #start()}. */
    public synchronized void addService(BrokerService service) {
        if (state != State.NEW) {
            throw new IllegalStateException("add services before start(); the broker is " + state);
        }
        services.add(Objects.requireNonNull(service, "service"));
    }

    /** Authentication and TLS of the broker's port. */
    public ServerSecurity security() {
        return security;
    }

    /** The broker's scheduler thread, for short periodic tasks (never block on it). */
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Starts the store, loads the managers, starts the services, listens and registers with the NameServers.
     * On failure everything started is stopped again.
     *
     * @throws IOException           the store or a state file cannot be loaded
     * @throws IllegalStateException the port cannot be bound, or the broker was started before
     */
    public synchronized void start() throws IOException {
        if (state != State.NEW) {
            throw new IllegalStateException("a broker can be started once; this one is " + state);
        }
        state = State.STARTING;
        try {
            int port = settings.netty().getListenPort();
            if (port > 0) {
                settings.store().setStoreHost(config.getBrokerIP1() + ":" + port);
            }
            store.setMessageArrivingListener((topic, queueId, logicOffset, tagsCode, storeTimestamp, properties) -> {
                replica.messageArrived(storeTimestamp);
                holdService.notifyMessageArriving(topic, queueId, logicOffset + 1, tagsCode);
                schedule.messageArrived(topic, queueId, tagsCode);
            });
            store.start();
            parts.load();
            replica.loaded(clock.getAsLong());
            holdService.start();
            for (BrokerService service : services) {
                if ((config.isSlave() || controllerMode != null) && masterOnly.contains(service)) {
                    log.info("Not starting {}: this broker is a slave (brokerId={})", service.name(),
                            config.getBrokerId());
                    continue;
                }
                log.info("Starting {}", service.name());
                service.start();
                startedServices.add(service);
            }
            server.setChannelEventListener(housekeeping);
            server.start();
            address = config.getBrokerIP1() + ":" + server.localPort();
            storeHost = HostAddress.pack(address);
            settings.store().setStoreHost(address);
            scheduleTasks();
            if (controllerMode != null) {
                controllerMode.start(address); // registers with the NameServers once the controllers gave an id
            } else {
                startRegistration();
                followMasterHaAddress();
            }
            state = State.STARTED;
            log.info("Broker {} of cluster {} started on {} (store {}, {})", config.getBrokerName(),
                    config.getBrokerClusterName(), address, settings.store().getStorePathRootDir(),
                    security.describe());
        } catch (IOException | RuntimeException e) {
            stopEverything(false);
            state = State.STOPPED;
            IOException diskFull = diskFullAtStart(e);
            log.error("Broker {} failed to start: {}", config.getBrokerName(),
                    diskFull != null ? diskFull.getMessage() : e.getMessage());
            if (diskFull != null) {
                throw diskFull;
            }
            throw e;
        } catch (Exception e) {
            stopEverything(false);
            state = State.STOPPED;
            throw new IllegalStateException("Broker " + config.getBrokerName() + " failed to start: " + e.getMessage(), e);
        }
    }

    /**
     * A start that failed because the store's disk is full, told as such (where, how much is free, what to do), or
     * null for any other failure.
     */
    private IOException diskFullAtStart(Exception e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof IOException && String.valueOf(c.getMessage()).contains("No space left on device")) {
                java.nio.file.Path root = settings.store().rootPath();
                long free = -1;
                try {
                    free = java.nio.file.Files.getFileStore(root).getUsableSpace();
                } catch (IOException | RuntimeException ignored) {
                    // the figure is a courtesy
                }
                return new IOException("the disk holding the store " + root + " is full" + (free >= 0 ? " (" + free
                        + " bytes free)" : "") + ": " + e.getMessage() + ". Free space on it and start again.", e);
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }

    private void scheduleTasks() {
        replica.sampleFigures();
        scheduler.scheduleAtFixedRate(replica::sampleFigures, RuntimeFigures.SAMPLE_MILLIS,
                RuntimeFigures.SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
        scheduler.scheduleAtFixedRate(this::persistOffsetsQuietly, config.getFlushConsumerOffsetInterval(),
                config.getFlushConsumerOffsetInterval(), TimeUnit.MILLISECONDS);
        scheduler.scheduleAtFixedRate(() -> {
            try {
                housekeeping.scanExpired();
            } catch (RuntimeException e) {
                log.warn("Client housekeeping failed: {}", e.toString());
            } catch (Throwable t) {
                // a scheduled task that throws is never run again; an Error means the broker cannot be trusted
                store.health().fail("client housekeeping", t);
            }
        }, config.getClientHousekeepingInterval(), config.getClientHousekeepingInterval(), TimeUnit.MILLISECONDS);
    }

    private void startRegistration() {
        replica.startSync();
        List<String> namesrvs = config.namesrvAddrList();
        if (namesrvs.isEmpty()) {
            return;
        }
        NettyClientConfig clientConfig = new NettyClientConfig();
        namesrvClient = innerClients.apply(new NettyRemotingClient(clientConfig));
        namesrvClient.start();
        registrar = new NameServerRegistrar(namesrvClient, namesrvs, this::registrationHeader, this::registrationBody,
                config.registration().getRegisterBrokerTimeoutMills(), scheduler);
        registrar.registerAll();
        long period = config.registration().getRegisterNameServerPeriod();
        scheduler.scheduleAtFixedRate(() -> {
            try {
                registrar.registerAll();
            } catch (RuntimeException e) {
                log.warn("NameServer registration failed: {}", e.toString());
            } catch (Throwable t) {
                store.health().fail("NameServer registration", t);
            }
        }, period, period, TimeUnit.MILLISECONDS);
    }

    /** A slave without haMasterAddress follows the master's HA address as the NameServers answer its registration. */
    private void followMasterHaAddress() {
        HaService replication = ha;
        String configured = settings.ha().getHaMasterAddress();
        if (!config.isSlave() || replication == null || (configured != null && !configured.isBlank())) {
            return;
        }
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                replication.setMasterAddress(replica.masterHaAddress());
            } catch (RuntimeException e) {
                log.warn("Could not hand the master's HA address to replication: {}", e.toString());
            }
        }, 0, 1_000, TimeUnit.MILLISECONDS);
    }

    private RegisterBrokerRequest registrationHeader() {
        String published = replica.haServerAddress();
        return new RegisterBrokerRequest(config.getBrokerName(), address, config.getBrokerClusterName(),
                controllerMode != null ? controllerMode.registrationId() : config.getBrokerId(),
                published != null ? published : haAddress(),
                controllerMode != null ? controllerMode.registrationEpoch() : null);
    }

    private RegisterBrokerBody registrationBody() {
        return new RegisterBrokerBody(parts.topics.all(), parts.topics.dataVersion());
    }

    /**
     * Registers with every NameServer now; the future completes when each answered or failed (never
     * exceptionally). Completed at once when no NameServer is configured.
     */
    public CompletableFuture<Void> registerWithNameServers() {
        NameServerRegistrar r = registrar;
        return r == null ? CompletableFuture.completedFuture(null) : r.registerAll();
    }

    private void persistOffsetsQuietly() {
        try {
            parts.offsets.persist();
        } catch (IOException | RuntimeException e) {
            log.warn("Could not persist consumer offsets: {}", e.getMessage());
        } catch (Throwable t) {
            // a scheduled task that throws is never run again; an Error means the broker cannot be trusted
            store.health().fail("the consumer-offset persister", t);
        }
    }

    /**
     * Stops gracefully: unregisters from the NameServers, stops accepting and closes connections, stops the
     * services, persists offsets, topics and groups, and shuts the store down. Idempotent.
     */
    public synchronized void shutdown() {
        if (state == State.STOPPED || state == State.NEW) {
            if (state == State.NEW) {
                executors.shutdown(0);
                transactions.endTransactionExecutor().shutdownNow();
                scheduler.shutdownNow();
            }
            state = State.STOPPED;
            return;
        }
        stopEverything(true);
        state = State.STOPPED;
        log.info("Broker {} stopped", config.getBrokerName());
    }

    private void stopEverything(boolean persist) {
        if (controllerMode != null) {
            controllerMode.shutdown();
        }
        if (registrar != null) {
            registrar.unregisterAll();
            registrar = null;
        }
        scheduler.shutdownNow();
        server.shutdown();
        holdService.shutdown(2_000);
        executors.shutdown(EXECUTOR_SHUTDOWN_WAIT_MILLIS);
        for (int i = startedServices.size() - 1; i >= 0; i--) {
            BrokerService service = startedServices.get(i);
            try {
                service.shutdown();
            } catch (RuntimeException e) {
                log.warn("{} failed to stop: {}", service.name(), e.toString());
            }
        }
        startedServices.clear();
        transactions.endTransactionExecutor().shutdownNow(); // already stopped by its service unless start failed early
        if (persist) {
            try {
                parts.persist();
            } catch (IOException | RuntimeException e) {
                log.warn("Could not persist broker state: {}", e.getMessage());
            }
        }
        store.shutdown();
        replica.shutdown();
        if (namesrvClient != null) {
            namesrvClient.shutdown();
            namesrvClient = null;
        }
    }

    // ------------------------------------------------------------------ replication

    /** Whether this broker is a slave of its group (brokerId above 0). */
    public boolean isSlave() {
        return config.isSlave();
    }

    /** The broker's part in its group's replication: published and learnt addresses, slave sync, runtime figures. */
    public BrokerReplica replica() {
        return replica;
    }

    // ------------------------------------------------------------------ accessors

    /** Replication of this broker (role, HA port, replicas and offsets); null only on a store that cannot replicate. */
    public HaService ha() {
        return ha;
    }

    /** "brokerIP1:haPort" of a started master, as published to the NameServers; null for a slave. */
    public String haAddress() {
        return ha == null || ha.haPort() <= 0 ? null : config.getBrokerIP1() + ":" + ha.haPort();
    }

    /** The port listened on (the one picked when listenPort is 0). */
    public int port() {
        return server.localPort();
    }

    /** "brokerIP1:port", as registered with the NameServers and stored in message ids. */
    public String address() {
        String a = address;
        if (a == null) {
            throw new IllegalStateException("the broker is not started; its address is known once it listens");
        }
        return a;
    }

    public synchronized boolean isStarted() {
        return state == State.STARTED;
    }

    public BrokerConfig config() {
        return config;
    }

    public BrokerSettings settings() {
        return settings;
    }

    public MessageStore store() {
        return store;
    }

    public TopicConfigManager topics() {
        return parts.topics;
    }

    public ConsumerOffsetManager offsets() {
        return parts.offsets;
    }

    public SubscriptionGroupManager subscriptionGroups() {
        return parts.subscriptionGroups;
    }

    public ConsumerManager consumers() {
        return parts.consumers;
    }

    public ProducerManager producers() {
        return parts.producers;
    }

    public RebalanceLockManager locks() {
        return parts.locks;
    }

    /** Half-message transactions: open count and check progress. */
    public TransactionSupport transactions() {
        return transactions;
    }

    /** Scheduled delivery (delay levels and arbitrary delivery times). */
    public ScheduleService schedule() {
        return schedule;
    }

    /** Acknowledgement-based consumption (pop, ack, peek) and its state. */
    public AckService ack() {
        return ack;
    }

    /** Pulls held by long polling now. */
    public int heldPullCount() {
        return holdService.heldCount();
    }

    /** Client connections open now (producers, consumers, admin tools, slaves' request connections). */
    public int connectionCount() {
        return server.connectionCount();
    }

    /** Tells {@code observer} of every request answered (metrics); null observes nothing. */
    public void setRequestObserver(dev.wharf.remoting.RequestObserver observer) {
        server.setRequestObserver(observer);
    }
}

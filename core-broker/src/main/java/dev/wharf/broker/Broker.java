package dev.wharf.broker;

import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.broker.filter.SubscriptionCache;
import dev.wharf.broker.group.ClientHousekeepingService;
import dev.wharf.broker.group.ConsumerManager;
import dev.wharf.broker.group.ConsumerNotifier;
import dev.wharf.broker.group.ProducerManager;
import dev.wharf.broker.group.SubscriptionGroupConfig;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.lock.RebalanceLockManager;
import dev.wharf.broker.longpolling.PullRequestHoldService;
import dev.wharf.broker.offset.ConsumerOffsetManager;
import dev.wharf.broker.offset.PullTracker;
import dev.wharf.broker.processor.ClientManageProcessor;
import dev.wharf.broker.processor.ConsumerAdminProcessor;
import dev.wharf.broker.processor.ConsumerOffsetProcessor;
import dev.wharf.broker.processor.PullMessageProcessor;
import dev.wharf.broker.processor.PutMessageHook;
import dev.wharf.broker.processor.QueryMessageProcessor;
import dev.wharf.broker.processor.QueueLockProcessor;
import dev.wharf.broker.processor.SendMessageProcessor;
import dev.wharf.broker.processor.TopicAdminProcessor;
import dev.wharf.broker.registry.NameServerRegistrar;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.message.HostAddress;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.body.RouteData.RegisterBrokerBody;
import dev.wharf.protocol.header.RouteHeaders.RegisterBrokerRequest;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.NettyRemotingServer;
import dev.wharf.remoting.RemotingExecutors;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.DefaultMessageStore;
import dev.wharf.store.MessageStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
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
    private final TopicConfigManager topics;
    private final ConsumerOffsetManager offsets;
    private final SubscriptionGroupManager subscriptionGroups;
    private final ConsumerManager consumers;
    private final ProducerManager producers;
    private final RebalanceLockManager locks;
    private final PullTracker pullTracker = new PullTracker();
    private final SubscriptionCache subscriptionCache = new SubscriptionCache();
    private final ConsumerNotifier notifier;
    private final PullRequestHoldService holdService;
    private final ClientHousekeepingService housekeeping;
    private final List<PutMessageHook> hooks = new CopyOnWriteArrayList<>();
    private final List<BrokerService> services = new CopyOnWriteArrayList<>();
    private final List<BrokerService> startedServices = new ArrayList<>();
    private final BrokerExecutors executors;
    private final ScheduledExecutorService scheduler;
    private final NettyRemotingServer server;
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
        Path root = settings.store().rootPath();
        this.topics = new TopicConfigManager(
                JsonConfigFile.inConfigDir(root, "topics.json", TopicConfigManager.TopicsDocument.class),
                config.getDefaultTopicQueueNums(), config.isAutoCreateTopicEnable(), config.delayLevelCount());
        this.offsets = new ConsumerOffsetManager(
                JsonConfigFile.inConfigDir(root, "consumerOffset.json", ConsumerOffsetManager.OffsetsDocument.class),
                config.getOffsetResetGuardMillis());
        this.subscriptionGroups = new SubscriptionGroupManager(
                JsonConfigFile.inConfigDir(root, "subscriptionGroup.json", SubscriptionGroupManager.GroupsDocument.class),
                config.isAutoCreateSubscriptionGroup(), config.getMaxReconsumeTimes());
        this.locks = new RebalanceLockManager(config.getRebalanceLockMaxLiveTime(), clock);
        this.notifier = new ConsumerNotifier(group -> {
            SubscriptionGroupConfig groupConfig = subscriptionGroups.find(group);
            return groupConfig == null || groupConfig.notifyConsumerIdsChangedEnable();
        });
        this.consumers = new ConsumerManager((group, members, left) -> {
            if (left != null) {
                locks.unlockAll(group, left.clientId());
            }
            notifier.membersChanged(group, members, left);
        });
        this.producers = new ProducerManager();
        this.housekeeping = new ClientHousekeepingService(consumers, producers, config.getChannelExpiredTimeout(), clock);
        this.holdService = new PullRequestHoldService(store, HOLD_CHECK_INTERVAL_MILLIS, clock);
        this.executors = new BrokerExecutors(config);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(RemotingExecutors.threadFactory("wharf-broker-scheduler"));
        this.server = new NettyRemotingServer(settings.netty());
        topics.addListener(new TopicConfigManager.Listener() {
            @Override
            public void topicsChanged() {
                NameServerRegistrar r = registrar;
                if (r != null) {
                    r.requestRegistration();
                }
            }

            @Override
            public void topicDeleted(String topic) {
                store.deleteTopics(Set.of(topic));
                offsets.removeTopic(topic);
                pullTracker.removeTopic(topic);
                subscriptionCache.removeTopic(topic);
            }
        });
        registerProcessors();
    }

    private static BrokerSettings validated(BrokerSettings settings) {
        Objects.requireNonNull(settings, "settings");
        settings.validate();
        return settings;
    }

    private void registerProcessors() {
        SendMessageProcessor send = new SendMessageProcessor(config.getBrokerName(), store, topics, hooks,
                () -> storeHost);
        server.registerProcessor(RequestCode.SEND_MESSAGE, send, executors.send);
        server.registerProcessor(RequestCode.SEND_MESSAGE_V2, send, executors.send);
        server.registerProcessor(RequestCode.SEND_BATCH_MESSAGE, send, executors.send);

        PullMessageProcessor pull = new PullMessageProcessor(config, store, topics, consumers, subscriptionGroups,
                offsets, pullTracker, subscriptionCache, holdService, executors.pull, clock);
        server.registerProcessor(RequestCode.PULL_MESSAGE, pull, executors.pull);

        QueryMessageProcessor query = new QueryMessageProcessor(store, config.getBrokerName());
        server.registerProcessor(RequestCode.QUERY_MESSAGE, query, executors.query);
        server.registerProcessor(RequestCode.VIEW_MESSAGE_BY_ID, query, executors.query);

        ClientManageProcessor clients = new ClientManageProcessor(consumers, producers, subscriptionGroups, topics, clock);
        server.registerProcessor(RequestCode.HEART_BEAT, clients, executors.clientManage);
        server.registerProcessor(RequestCode.UNREGISTER_CLIENT, clients, executors.clientManage);
        server.registerProcessor(RequestCode.GET_CONSUMER_LIST_BY_GROUP, clients, executors.clientManage);

        QueueLockProcessor lockProcessor = new QueueLockProcessor(locks, config.getBrokerName());
        server.registerProcessor(RequestCode.LOCK_BATCH_MQ, lockProcessor, executors.clientManage);
        server.registerProcessor(RequestCode.UNLOCK_BATCH_MQ, lockProcessor, executors.clientManage);

        ConsumerOffsetProcessor offsetProcessor = new ConsumerOffsetProcessor(offsets, store);
        for (int code : new int[] {RequestCode.QUERY_CONSUMER_OFFSET, RequestCode.UPDATE_CONSUMER_OFFSET,
                RequestCode.GET_MAX_OFFSET, RequestCode.GET_MIN_OFFSET, RequestCode.SEARCH_OFFSET_BY_TIMESTAMP,
                RequestCode.GET_EARLIEST_MSG_STORETIME}) {
            server.registerProcessor(code, offsetProcessor, executors.clientManage);
        }

        TopicAdminProcessor topicAdmin = new TopicAdminProcessor(topics, store, config.getBrokerName());
        for (int code : new int[] {RequestCode.UPDATE_AND_CREATE_TOPIC, RequestCode.DELETE_TOPIC_IN_BROKER,
                RequestCode.GET_ALL_TOPIC_CONFIG, RequestCode.GET_TOPIC_STATS_INFO}) {
            server.registerProcessor(code, topicAdmin, executors.admin);
        }
        ConsumerAdminProcessor consumerAdmin = new ConsumerAdminProcessor(topics, offsets, consumers,
                subscriptionGroups, pullTracker, notifier, store, config.getBrokerName(), clock);
        server.registerProcessor(RequestCode.GET_CONSUME_STATS, consumerAdmin, executors.admin);
        server.registerProcessor(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET, consumerAdmin, executors.admin);
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
            store.setMessageArrivingListener((topic, queueId, logicOffset, tagsCode, storeTimestamp, properties) ->
                    holdService.notifyMessageArriving(topic, queueId, logicOffset + 1, tagsCode));
            store.start();
            topics.load();
            offsets.load();
            subscriptionGroups.load();
            holdService.start();
            for (BrokerService service : services) {
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
            startRegistration();
            state = State.STARTED;
            log.info("Broker {} of cluster {} started on {} (store {})", config.getBrokerName(),
                    config.getBrokerClusterName(), address, settings.store().getStorePathRootDir());
        } catch (IOException | RuntimeException e) {
            log.error("Broker {} failed to start: {}", config.getBrokerName(), e.getMessage());
            stopEverything(false);
            state = State.STOPPED;
            throw e;
        } catch (Exception e) {
            stopEverything(false);
            state = State.STOPPED;
            throw new IllegalStateException("Broker " + config.getBrokerName() + " failed to start: " + e.getMessage(), e);
        }
    }

    private void scheduleTasks() {
        scheduler.scheduleAtFixedRate(this::persistOffsetsQuietly, config.getFlushConsumerOffsetInterval(),
                config.getFlushConsumerOffsetInterval(), TimeUnit.MILLISECONDS);
        scheduler.scheduleAtFixedRate(() -> {
            try {
                housekeeping.scanExpired();
            } catch (RuntimeException e) {
                log.warn("Client housekeeping failed: {}", e.toString());
            }
        }, config.getClientHousekeepingInterval(), config.getClientHousekeepingInterval(), TimeUnit.MILLISECONDS);
    }

    private void startRegistration() {
        List<String> namesrvs = config.namesrvAddrList();
        if (namesrvs.isEmpty()) {
            return;
        }
        NettyClientConfig clientConfig = new NettyClientConfig();
        namesrvClient = new NettyRemotingClient(clientConfig);
        namesrvClient.start();
        registrar = new NameServerRegistrar(namesrvClient, namesrvs, this::registrationHeader, this::registrationBody,
                config.getRegisterBrokerTimeoutMills(), scheduler);
        registrar.registerAll();
        scheduler.scheduleAtFixedRate(() -> {
            try {
                registrar.registerAll();
            } catch (RuntimeException e) {
                log.warn("NameServer registration failed: {}", e.toString());
            }
        }, config.getRegisterNameServerPeriod(), config.getRegisterNameServerPeriod(), TimeUnit.MILLISECONDS);
    }

    private RegisterBrokerRequest registrationHeader() {
        return new RegisterBrokerRequest(config.getBrokerName(), address, config.getBrokerClusterName(),
                config.getBrokerId(), null);
    }

    private RegisterBrokerBody registrationBody() {
        return new RegisterBrokerBody(topics.all(), topics.dataVersion());
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
            offsets.persist();
        } catch (IOException | RuntimeException e) {
            log.warn("Could not persist consumer offsets: {}", e.getMessage());
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
        if (persist) {
            persistOffsetsQuietly();
            try {
                topics.persist();
                subscriptionGroups.persist();
            } catch (IOException | RuntimeException e) {
                log.warn("Could not persist broker state: {}", e.getMessage());
            }
        }
        store.shutdown();
        if (namesrvClient != null) {
            namesrvClient.shutdown();
            namesrvClient = null;
        }
    }

    // ------------------------------------------------------------------ accessors

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
        return topics;
    }

    public ConsumerOffsetManager offsets() {
        return offsets;
    }

    public SubscriptionGroupManager subscriptionGroups() {
        return subscriptionGroups;
    }

    public ConsumerManager consumers() {
        return consumers;
    }

    public ProducerManager producers() {
        return producers;
    }

    public RebalanceLockManager locks() {
        return locks;
    }

    /** Pulls held by long polling now. */
    public int heldPullCount() {
        return holdService.heldCount();
    }
}

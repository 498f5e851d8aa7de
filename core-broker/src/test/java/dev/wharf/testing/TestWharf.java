package dev.wharf.testing;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.common.config.BeanBinder;
import dev.wharf.embedded.EmbeddedServer;
import dev.wharf.namesrv.NameServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.awaitility.Awaitility;

/**
 * NameServers and brokers in this JVM on 127.0.0.1 (free ports), each broker storing in a folder of the test's,
 * every one registered with every NameServer. Brokers can be stopped and started again on the same store (and, if
 * asked, the same port). Closing stops the tracked clients, then the brokers, then the NameServers.
 */
public final class TestWharf implements AutoCloseable {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final Builder spec;
    private final List<EmbeddedServer> nameServers = new ArrayList<>();
    /** Kept apart from the servers: a test may stop a NameServer and still hand out every address. */
    private final List<String> nameServerAddresses = new ArrayList<>();
    private final Map<String, EmbeddedServer> brokers = new LinkedHashMap<>();
    private final Map<String, Integer> ports = new HashMap<>();
    private final List<AutoCloseable> clients = new ArrayList<>();

    private TestWharf(Builder spec) {
        this.spec = spec;
    }

    /** Brokers store under {@code root}, each in a folder of its name unless {@link Builder#storeDir} says else. */
    public static Builder builder(Path root) {
        return new Builder(root);
    }

    /** {@code nameServers} NameServers and the named brokers, each storing in a folder of its name under root. */
    public static TestWharf cluster(Path root, int nameServers, String... brokers) {
        return builder(root).nameServers(nameServers).brokers(brokers).start();
    }

    /** As {@link #cluster(Path, int, String...)}, each broker's settings adjusted after the harness's defaults. */
    public static TestWharf cluster(Path root, int nameServers, Consumer<BrokerSettings> adjust, String... brokers) {
        return builder(root).nameServers(nameServers).settings(adjust).brokers(brokers).start();
    }

    /**
     * The "standalone server on loopback" of the JMS tests: one NameServer and a broker {@code loopback} storing
     * in {@code store}, listening on the port of its first start when started again.
     */
    public static TestWharf loopback(Path store) {
        return loopback(store, Map.of());
    }

    /** As {@link #loopback(Path)}, with broker settings by their RocketMQ key names. */
    public static TestWharf loopback(Path store, Map<String, String> settings) {
        return builder(store).brokers("loopback").storeDir(name -> store).samePortOnRestart().settings(s -> {
            s.store().setMappedFileSizeCommitLog(16 * 1024 * 1024);
            s.store().setMappedFileSizeConsumeQueue(20 * 50_000);
            s.store().setMaxHashSlotNum(5_000);
        }).settings(settings).start();
    }

    /**
     * The small, fast settings of a test broker: small store files and pools, port 0, four queues a topic and
     * retry delays of a few hundred milliseconds instead of seconds.
     */
    public static BrokerSettings settings(Path storeDir, String name, String namesrvAddr) {
        BrokerSettings s = smallBroker(storeDir);
        s.store().setMappedFileSizeCommitLog(8 * 1024 * 1024);
        s.store().setMappedFileSizeConsumeQueue(20 * 20_000);
        s.store().setMaxHashSlotNum(2_000);
        s.store().setMaxIndexNum(20_000);
        s.broker().setBrokerName(name);
        s.broker().setNamesrvAddr(namesrvAddr);
        // retries wait 300 ms, 400 ms, ... instead of 10 s, 30 s, ...
        s.broker().schedule().setMessageDelayLevel("100ms 200ms 300ms 400ms 500ms 600ms 700ms 800ms 900ms 1s 1s 1s 1s 1s 1s 1s 1s 1s");
        return s;
    }

    /**
     * A broker on port 0 storing in {@code storeDir} with the small thread pools of a test and four queues a topic;
     * store file sizes and delays stay at their defaults for the caller to choose.
     */
    public static BrokerSettings smallBroker(Path storeDir) {
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(storeDir.toString());
        s.netty().setListenPort(0);
        s.netty().setSelectorThreads(1);
        s.broker().executors().setSendMessageThreadPoolNums(2);
        s.broker().executors().setPullMessageThreadPoolNums(4);
        s.broker().executors().setQueryMessageThreadPoolNums(1);
        s.broker().executors().setAdminBrokerThreadPoolNums(1);
        s.broker().executors().setClientManageThreadPoolNums(2);
        s.broker().setDefaultTopicQueueNums(4);
        return s;
    }

    /** The NameServer addresses, {@code ;}-separated. */
    public String namesrvAddr() {
        return String.join(";", nameServerAddresses);
    }

    /** {@code wharf://} and the NameServer addresses: the URL JMS clients connect with. */
    public String url() {
        return "wharf://" + String.join(",", nameServerAddresses);
    }

    public NameServer nameServer(int index) {
        return nameServers.get(index).nameServer();
    }

    /** A running broker, or {@code null} when it is stopped. */
    public synchronized Broker broker(String name) {
        EmbeddedServer server = brokers.get(name);
        return server == null ? null : server.broker();
    }

    /** The only broker (of a harness started with one). */
    public synchronized Broker broker() {
        if (spec.brokerNames.size() != 1) {
            throw new IllegalStateException("This harness runs brokers " + spec.brokerNames + "; name one");
        }
        return broker(spec.brokerNames.get(0));
    }

    /** Starts a broker (again), registered with every NameServer. */
    public synchronized Broker startBroker(String name) {
        BrokerSettings s = settings(spec.storeDir.apply(name), name, namesrvAddr());
        spec.settings.accept(s);
        List<String> unknown = BeanBinder.bind(spec.keys, s.broker(), s.store(), s.netty());
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("Unknown broker settings " + unknown);
        }
        if (spec.samePortOnRestart && ports.containsKey(name)) {
            s.netty().setListenPort(ports.get(name));
        }
        EmbeddedServer server = EmbeddedServer.builder().broker(s).start();
        ports.put(name, server.broker().port());
        brokers.put(name, server);
        return server.broker();
    }

    /** The only broker, started again. */
    public synchronized Broker startBroker() {
        broker();
        return startBroker(spec.brokerNames.get(0));
    }

    public synchronized void stopBroker(String name) {
        EmbeddedServer server = brokers.remove(name);
        if (server != null) {
            server.close();
        }
    }

    /** The only broker, stopped. */
    public synchronized void stopBroker() {
        broker();
        stopBroker(spec.brokerNames.get(0));
    }

    /** A client configuration of its own (own instance name) with short intervals. */
    public ClientConfig clientConfig() {
        return clientConfig(namesrvAddr());
    }

    /** A client configuration of its own (own instance name) with short intervals, for these NameServers. */
    public static ClientConfig clientConfig(String namesrvAddr) {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(namesrvAddr);
        config.setInstanceName("it-" + INSTANCES.incrementAndGet());
        config.setPollNameServerInterval(500);
        config.setHeartbeatBrokerInterval(1_000);
        config.setPersistConsumerOffsetInterval(500);
        config.setMqClientApiTimeout(3_000);
        config.setClientCallbackExecutorThreads(2);
        return config;
    }

    /** Creates the topic on every broker and waits until the NameServers route it to all of them. */
    public void createTopic(String topic, int queuesPerBroker) throws Exception {
        AdminClient admin = new AdminClient(clientConfig());
        admin.start();
        try {
            admin.createTopic(topic, queuesPerBroker);
            List<Broker> running;
            synchronized (this) {
                running = brokers.values().stream().map(EmbeddedServer::broker).toList();
            }
            for (Broker b : running) {
                b.registerWithNameServers().join();
            }
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
                try {
                    return admin.route(topic).queueDatas().size() == running.size();
                } catch (Exception e) {
                    return false;
                }
            });
        } finally {
            admin.shutdown();
        }
    }

    /** Closed with the harness, in reverse order of registration, before the brokers stop. */
    public <T extends AutoCloseable> T track(T client) {
        synchronized (clients) {
            clients.add(client);
        }
        return client;
    }

    @Override
    public void close() {
        synchronized (clients) {
            for (int i = clients.size() - 1; i >= 0; i--) {
                try {
                    clients.get(i).close();
                } catch (Exception e) {
                    // best effort: the next ones still need closing
                }
            }
            clients.clear();
        }
        synchronized (this) {
            new ArrayList<>(brokers.keySet()).forEach(this::stopBroker);
        }
        nameServers.forEach(EmbeddedServer::close);
    }

    /** What to start. */
    public static final class Builder {

        private final Path root;
        private int nameServerCount = 1;
        private final List<String> brokerNames = new ArrayList<>();
        private Consumer<BrokerSettings> settings = s -> { };
        private Map<String, String> keys = Map.of();
        private Function<String, Path> storeDir;
        private boolean samePortOnRestart;

        private Builder(Path root) {
            this.root = Objects.requireNonNull(root, "root");
            this.storeDir = root::resolve;
        }

        public Builder nameServers(int count) {
            this.nameServerCount = count;
            return this;
        }

        public Builder brokers(String... names) {
            brokerNames.addAll(List.of(names));
            return this;
        }

        /** Adjusts each broker's settings after the harness's defaults. */
        public Builder settings(Consumer<BrokerSettings> adjust) {
            this.settings = Objects.requireNonNull(adjust, "adjust");
            return this;
        }

        /** Broker settings by their RocketMQ key names, applied last. */
        public Builder settings(Map<String, String> byKey) {
            this.keys = Map.copyOf(byKey);
            return this;
        }

        /** Where each broker stores (default: a folder of its name under the root). */
        public Builder storeDir(Function<String, Path> byName) {
            this.storeDir = Objects.requireNonNull(byName, "byName");
            return this;
        }

        /** A broker started again listens on the port of its first start (connection-loss tests). */
        public Builder samePortOnRestart() {
            this.samePortOnRestart = true;
            return this;
        }

        /** Starts the NameServers, then the brokers; on a failure stops what started and rethrows. */
        public TestWharf start() {
            TestWharf wharf = new TestWharf(this);
            try {
                for (int i = 0; i < nameServerCount; i++) {
                    EmbeddedServer nameServer = EmbeddedServer.builder().nameServerOnPort(0).start();
                    wharf.nameServers.add(nameServer);
                    wharf.nameServerAddresses.add(nameServer.namesrvAddr());
                }
                for (String name : brokerNames) {
                    wharf.startBroker(name);
                }
                return wharf;
            } catch (RuntimeException e) {
                wharf.close();
                throw e;
            }
        }
    }
}

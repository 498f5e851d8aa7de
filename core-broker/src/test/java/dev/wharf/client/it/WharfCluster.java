package dev.wharf.client.it;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.namesrv.NameServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Real NameServers and brokers in this JVM on 127.0.0.1 (port 0), stores under a test's temporary folder; small
 * files and short client intervals so that tests run in seconds.
 */
final class WharfCluster implements AutoCloseable {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final Path root;
    private final List<NameServer> nameServers = new ArrayList<>();
    private final List<String> nameServerAddresses = new ArrayList<>();
    private final Map<String, Broker> brokers = new LinkedHashMap<>();
    private final List<AutoCloseable> clients = new ArrayList<>();
    private final Consumer<BrokerSettings> brokerSettings;

    WharfCluster(Path root, int nameServerCount, String... brokerNames) throws IOException {
        this(root, nameServerCount, s -> { }, brokerNames);
    }

    /** @param brokerSettings adjusts each broker's settings after the cluster's defaults */
    WharfCluster(Path root, int nameServerCount, Consumer<BrokerSettings> brokerSettings, String... brokerNames)
            throws IOException {
        this.root = root;
        this.brokerSettings = brokerSettings;
        for (int i = 0; i < nameServerCount; i++) {
            NameServer ns = NameServer.onPort(0);
            ns.start();
            nameServers.add(ns);
            nameServerAddresses.add(ns.address());
        }
        for (String name : brokerNames) {
            startBroker(name);
        }
    }

    String namesrvAddr() {
        return String.join(";", nameServerAddresses);
    }

    NameServer nameServer(int index) {
        return nameServers.get(index);
    }

    Broker broker(String name) {
        return brokers.get(name);
    }

    Broker startBroker(String name) throws IOException {
        BrokerSettings s = settings(root, name, namesrvAddr());
        brokerSettings.accept(s);
        Broker broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();
        brokers.put(name, broker);
        return broker;
    }

    /** The cluster's settings of a broker (also used by brokers in child processes). */
    static BrokerSettings settings(Path root, String name, String namesrvAddr) {
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(root.resolve(name).toString());
        s.store().setMappedFileSizeCommitLog(8 * 1024 * 1024);
        s.store().setMappedFileSizeConsumeQueue(20 * 20_000);
        s.store().setMaxHashSlotNum(2_000);
        s.store().setMaxIndexNum(20_000);
        s.netty().setListenPort(0);
        s.netty().setSelectorThreads(1);
        s.broker().setBrokerName(name);
        s.broker().setNamesrvAddr(namesrvAddr);
        s.broker().setSendMessageThreadPoolNums(2);
        s.broker().setPullMessageThreadPoolNums(4);
        s.broker().setQueryMessageThreadPoolNums(1);
        s.broker().setAdminBrokerThreadPoolNums(1);
        s.broker().setClientManageThreadPoolNums(2);
        s.broker().setDefaultTopicQueueNums(4);
        // retries wait 300 ms, 400 ms, ... instead of 10 s, 30 s, ...
        s.broker().setMessageDelayLevel("100ms 200ms 300ms 400ms 500ms 600ms 700ms 800ms 900ms 1s 1s 1s 1s 1s 1s 1s 1s 1s");
        return s;
    }

    void stopBroker(String name) {
        Broker broker = brokers.remove(name);
        if (broker != null) {
            broker.shutdown();
        }
    }

    /** A client configuration of its own (own instance name) with short intervals. */
    ClientConfig clientConfig() {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(namesrvAddr());
        config.setInstanceName("it-" + INSTANCES.incrementAndGet());
        config.setPollNameServerInterval(500);
        config.setHeartbeatBrokerInterval(1_000);
        config.setPersistConsumerOffsetInterval(500);
        config.setMqClientApiTimeout(3_000);
        config.setClientCallbackExecutorThreads(2);
        return config;
    }

    /** Creates the topic on every broker and waits until the NameServers route it to all of them. */
    void createTopic(String topic, int queuesPerBroker) throws Exception {
        AdminClient admin = new AdminClient(clientConfig());
        admin.start();
        try {
            admin.createTopic(topic, queuesPerBroker);
            for (Broker b : brokers.values()) {
                b.registerWithNameServers().join();
            }
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> {
                try {
                    return admin.route(topic).queueDatas().size() == brokers.size();
                } catch (Exception e) {
                    return false;
                }
            });
        } finally {
            admin.shutdown();
        }
    }

    /** Shut down with the cluster (reverse order of registration). */
    <T extends AutoCloseable> T track(T client) {
        clients.add(client);
        return client;
    }

    @Override
    public void close() {
        for (int i = clients.size() - 1; i >= 0; i--) {
            try {
                clients.get(i).close();
            } catch (Exception e) {
                // best effort: the next ones still need closing
            }
        }
        new ArrayList<>(brokers.keySet()).forEach(this::stopBroker);
        nameServers.forEach(NameServer::shutdown);
    }
}

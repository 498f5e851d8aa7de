package dev.wharf.txchecker;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.namesrv.NameServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;

/**
 * A NameServer and a broker in this JVM on 127.0.0.1 (free ports), storing under a test's folder, with small files and
 * check-backs every few hundred milliseconds so that transaction tests run in seconds.
 */
final class LocalWharf implements AutoCloseable {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final NameServer nameServer;
    private final Broker broker;
    private final List<AutoCloseable> clients = new ArrayList<>();

    LocalWharf(Path dir) throws Exception {
        nameServer = NameServer.onPort(0);
        nameServer.start();
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(dir.resolve("broker").toString());
        s.store().setMappedFileSizeCommitLog(8 * 1024 * 1024);
        s.store().setMappedFileSizeConsumeQueue(20 * 20_000);
        s.store().setMaxHashSlotNum(2_000);
        s.store().setMaxIndexNum(20_000);
        s.netty().setListenPort(0);
        s.netty().setSelectorThreads(1);
        s.broker().setNamesrvAddr(nameServer.address());
        s.broker().setSendMessageThreadPoolNums(2);
        s.broker().setPullMessageThreadPoolNums(2);
        s.broker().setQueryMessageThreadPoolNums(1);
        s.broker().setAdminBrokerThreadPoolNums(1);
        s.broker().setClientManageThreadPoolNums(2);
        s.broker().setDefaultTopicQueueNums(2);
        s.broker().setTransactionCheckInterval(300);
        s.broker().setTransactionTimeOut(200);
        broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();
    }

    ClientConfig clientConfig() {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(nameServer.address());
        config.setInstanceName("txchecker-it-" + INSTANCES.incrementAndGet());
        config.setPollNameServerInterval(500);
        config.setHeartbeatBrokerInterval(1_000);
        config.setPersistConsumerOffsetInterval(500);
        config.setClientCallbackExecutorThreads(2);
        return config;
    }

    void createTopic(String topic) throws Exception {
        AdminClient admin = new AdminClient(clientConfig());
        admin.start();
        try {
            admin.createTopic(topic, 2);
            broker.registerWithNameServers().join();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> admin.topics().contains(topic));
        } finally {
            admin.shutdown();
        }
    }

    /** Closed with the broker, in reverse order of registration. */
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
                // a client that fails to stop must not keep the broker running
            }
        }
        broker.shutdown();
        nameServer.shutdown();
    }
}

package dev.wharf.jms.it;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.namesrv.NameServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A NameServer and a broker in this JVM on 127.0.0.1, each on a free port, with the store in a test's folder:
 * the "standalone server on loopback" of the tests, reached through {@code wharf://127.0.0.1:port}. The broker
 * can be stopped and started again on the same store and port (connection-loss tests).
 */
public final class LoopbackWharf implements AutoCloseable {

    private final Path store;
    private final Map<String, String> settings;
    private final NameServer nameServer;
    private Broker broker;
    private int brokerPort;

    public LoopbackWharf(Path store) throws IOException {
        this(store, Map.of());
    }

    /** @param settings broker settings (RocketMQ key names) on top of the test defaults */
    public LoopbackWharf(Path store, Map<String, String> settings) throws IOException {
        this.store = store;
        this.settings = settings;
        this.nameServer = NameServer.onPort(0);
        nameServer.start();
        startBroker();
    }

    /** {@code wharf://127.0.0.1:port} of the NameServer. */
    public String url() {
        return "wharf://" + nameServer.address();
    }

    public String namesrvAddr() {
        return nameServer.address();
    }

    public Broker broker() {
        return broker;
    }

    /** Starts the broker (again), on the same store and, after the first start, the same port. */
    public synchronized void startBroker() throws IOException {
        BrokerSettings s = BrokerSettings.from(settings, "the test's broker settings");
        s.store().setStorePathRootDir(store.toString());
        if (!settings.containsKey("mappedFileSizeCommitLog")) {
            s.store().setMappedFileSizeCommitLog(16 * 1024 * 1024);
        }
        s.store().setMappedFileSizeConsumeQueue(20 * 50_000);
        s.store().setMaxHashSlotNum(5_000);
        s.store().setMaxIndexNum(20_000);
        s.netty().setListenPort(brokerPort);
        s.netty().setSelectorThreads(1);
        s.broker().setBrokerName("loopback");
        s.broker().setNamesrvAddr(nameServer.address());
        s.broker().setSendMessageThreadPoolNums(2);
        s.broker().setPullMessageThreadPoolNums(4);
        s.broker().setQueryMessageThreadPoolNums(1);
        s.broker().setAdminBrokerThreadPoolNums(1);
        s.broker().setClientManageThreadPoolNums(2);
        s.broker().setDefaultTopicQueueNums(4);
        Broker b = new Broker(s);
        b.start();
        b.registerWithNameServers().join();
        brokerPort = b.port();
        broker = b;
    }

    public synchronized void stopBroker() {
        if (broker != null) {
            broker.shutdown();
            broker = null;
        }
    }

    @Override
    public void close() {
        stopBroker();
        nameServer.shutdown();
    }
}

package dev.wharf.broker.ha;

import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.namesrv.NameServer;
import dev.wharf.testing.TestWharf;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A NameServer and the brokers of one replica group in this JVM on 127.0.0.1 (every port 0), with small files.
 * Only masters register with the NameServer, so clients always send to the master.
 */
final class HaCluster implements AutoCloseable {

    static final String NAME = "broker-ha";

    private final NameServer nameServer;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    HaCluster() {
        nameServer = NameServer.onPort(0);
        nameServer.start();
    }

    String namesrvAddr() {
        return nameServer.address();
    }

    /** Small, fast settings of one member of the group. */
    static BrokerSettings settings(Path store, BrokerRole role, long brokerId) {
        BrokerSettings s = TestWharf.settings(store, NAME, "");
        s.store().setMappedFileSizeCommitLog(1024 * 1024);
        s.store().setMaxMessageSize(64 * 1024);
        s.store().setMaxIndexNum(40_000);
        s.broker().setBrokerId(brokerId);
        s.broker().executors().setSendMessageThreadPoolNums(4);
        s.ha().setBrokerRole(role);
        s.ha().setHaListenPort(0);
        s.ha().setHaSendHeartbeatInterval(500);
        s.ha().setHaHousekeepingInterval(5_000);
        s.ha().setHaReconnectInterval(50);
        s.ha().setHaReconnectMaxInterval(500);
        return s;
    }

    Broker startMaster(Path store, BrokerRole role, Consumer<BrokerSettings> customize) throws IOException {
        BrokerSettings s = settings(store, role, 0);
        s.broker().setNamesrvAddr(namesrvAddr());
        customize.accept(s);
        Broker broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();
        closeables.add(broker::shutdown);
        return broker;
    }

    Broker startSlave(Path store, long brokerId, String haMasterAddress, Consumer<BrokerSettings> customize)
            throws IOException {
        BrokerSettings s = settings(store, BrokerRole.SLAVE, brokerId);
        s.ha().setHaMasterAddress(haMasterAddress);
        customize.accept(s);
        Broker broker = new Broker(s);
        broker.start();
        closeables.add(broker::shutdown);
        return broker;
    }

    ClientConfig clientConfig() {
        return TestWharf.clientConfig(namesrvAddr());
    }

    void createTopic(String topic, int queues) throws Exception {
        AdminClient admin = new AdminClient(clientConfig());
        admin.start();
        try {
            admin.createTopic(topic, queues);
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                    .until(() -> !admin.route(topic).queueDatas().isEmpty());
        } finally {
            admin.shutdown();
        }
    }

    <T extends AutoCloseable> T track(T closeable) {
        closeables.add(closeable);
        return closeable;
    }

    @Override
    public void close() {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            try {
                closeables.get(i).close();
            } catch (Exception e) {
                // best effort: the others still need closing
            }
        }
        nameServer.shutdown();
    }
}

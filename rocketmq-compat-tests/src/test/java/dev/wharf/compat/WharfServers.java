package dev.wharf.compat;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.namesrv.NameServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A Wharf name server and one broker in this JVM, on free loopback ports, with a store in a temporary folder:
 * what a RocketMQ application would reach through its {@code namesrvAddr}.
 */
final class WharfServers implements AutoCloseable {

    private final NameServer nameServer;
    private final Broker broker;

    private WharfServers(NameServer nameServer, Broker broker) {
        this.nameServer = nameServer;
        this.broker = broker;
    }

    static WharfServers start(Path storeDir) throws IOException {
        return start(storeDir, s -> { });
    }

    static WharfServers start(Path storeDir, Consumer<BrokerSettings> customize) throws IOException {
        NameServer nameServer = NameServer.onPort(0);
        nameServer.start();
        try {
            BrokerSettings s = BrokerSettings.defaults();
            s.store().setStorePathRootDir(storeDir.toString());
            s.store().setMappedFileSizeCommitLog(16 * 1024 * 1024);
            s.store().setMappedFileSizeConsumeQueue(20 * 4_000);
            s.store().setMaxHashSlotNum(1_000);
            s.store().setMaxIndexNum(4_000);
            s.netty().setListenPort(0);
            s.netty().setSelectorThreads(1);
            s.broker().setBrokerName("wharf-a");
            s.broker().setNamesrvAddr(nameServer.address());
            s.broker().executors().setSendMessageThreadPoolNums(2);
            s.broker().executors().setPullMessageThreadPoolNums(4);
            s.broker().executors().setQueryMessageThreadPoolNums(1);
            s.broker().executors().setAdminBrokerThreadPoolNums(1);
            s.broker().executors().setClientManageThreadPoolNums(2);
            s.broker().setDefaultTopicQueueNums(4);
            customize.accept(s);
            Broker broker = new Broker(s);
            broker.start();
            broker.registerWithNameServers().join();
            return new WharfServers(nameServer, broker);
        } catch (IOException | RuntimeException e) {
            nameServer.shutdown();
            throw e;
        }
    }

    /** The value for a RocketMQ client's {@code setNamesrvAddr}. */
    String namesrvAddr() {
        return nameServer.address();
    }

    Broker broker() {
        return broker;
    }

    @Override
    public void close() {
        broker.shutdown();
        nameServer.shutdown();
    }
}

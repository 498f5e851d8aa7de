package dev.wharf.broker;

import dev.wharf.broker.config.BrokerSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Small, fast broker settings for tests: a store in a temp folder, port 0, small files. */
final class BrokerFixture {

    private BrokerFixture() {
    }

    static BrokerSettings settings(Path storeDir) {
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(storeDir.toString());
        s.store().setMappedFileSizeCommitLog(4 * 1024 * 1024);
        s.store().setMappedFileSizeConsumeQueue(20 * 4_000);
        s.store().setMaxMessageSize(256 * 1024);
        s.store().setMaxHashSlotNum(1_000);
        s.store().setMaxIndexNum(4_000);
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

    static Broker start(Path storeDir) throws IOException {
        return start(storeDir, s -> { });
    }

    static Broker start(Path storeDir, Consumer<BrokerSettings> customize) throws IOException {
        BrokerSettings s = settings(storeDir);
        customize.accept(s);
        Broker broker = new Broker(s);
        broker.start();
        return broker;
    }
}

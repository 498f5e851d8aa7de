package dev.wharf.broker;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.testing.TestWharf;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/** The test harness's small broker without a NameServer, with smaller files and a 256 KiB message limit. */
final class BrokerFixture {

    private BrokerFixture() {
    }

    static BrokerSettings settings(Path storeDir) {
        BrokerSettings s = TestWharf.smallBroker(storeDir);
        s.store().setMappedFileSizeCommitLog(4 * 1024 * 1024);
        s.store().setMappedFileSizeConsumeQueue(20 * 4_000);
        s.store().setMaxMessageSize(256 * 1024);
        s.store().setMaxHashSlotNum(1_000);
        s.store().setMaxIndexNum(4_000);
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

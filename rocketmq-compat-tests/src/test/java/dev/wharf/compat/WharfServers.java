package dev.wharf.compat;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.testing.TestWharf;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * What a RocketMQ application reaches through its {@code namesrvAddr}: the shared test harness with one NameServer
 * and one broker, {@code wharf-a}, storing in the given folder (commit-log files large enough for the throughput
 * runs).
 */
final class WharfServers {

    private WharfServers() {
    }

    static TestWharf start(Path storeDir) {
        return start(storeDir, s -> { });
    }

    static TestWharf start(Path storeDir, Consumer<BrokerSettings> customize) {
        return TestWharf.builder(storeDir).brokers("wharf-a").storeDir(name -> storeDir).settings(s -> {
            s.store().setMappedFileSizeCommitLog(16 * 1024 * 1024);
            customize.accept(s);
        }).start();
    }
}

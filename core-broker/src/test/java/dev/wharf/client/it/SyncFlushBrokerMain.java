package dev.wharf.client.it;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.store.FlushDiskType;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A SYNC_FLUSH broker in its own process, for tests that kill it: starts with the settings of {@link TestWharf}
 * on {@code root/name}, registers with the NameServer, writes its address to the ready file and runs until the
 * process is destroyed. Arguments: root brokerName namesrvAddr readyFile.
 */
public final class SyncFlushBrokerMain {

    private SyncFlushBrokerMain() {
    }

    public static void main(String[] args) throws Exception {
        BrokerSettings s = TestWharf.settings(Path.of(args[0]).resolve(args[1]), args[1], args[2]);
        s.store().setFlushDiskType(FlushDiskType.SYNC_FLUSH);
        Broker broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();
        Path file = Path.of(args[3]);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, broker.address(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        Thread.currentThread().join();
    }
}

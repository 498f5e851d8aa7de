package dev.wharf.broker.ha;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A master in its own process, for tests that kill it: starts on a store folder with every port 0, registers
 * with the given NameServer, writes "brokerAddress haAddress" to the given file once it listens, and runs
 * until the process is destroyed. Arguments: storeDir addressFile role namesrvAddr.
 */
public final class ChildMasterMain {

    private ChildMasterMain() {
    }

    public static void main(String[] args) throws Exception {
        BrokerSettings s = HaCluster.settings(Path.of(args[0]), BrokerRole.valueOf(args[2]), 0);
        s.broker().setNamesrvAddr(args[3]);
        s.broker().executors().setSendMessageThreadPoolNums(4);
        Broker broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();
        Path file = Path.of(args[1]);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, broker.address() + " " + broker.haAddress(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        Thread.currentThread().join();
    }
}

package dev.wharf.broker.ha;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A replica in controller mode in its own process, for tests that kill or pause it: SYNC_MASTER when elected,
 * minInSyncReplicas=2, every port 0, its controller id assigned at the first start and kept in the store folder.
 * Writes its broker address to the given file once it listens and runs until the process is destroyed.
 * Arguments: storeDir addressFile namesrvAddr controllerAddr; with controllerAddr "-" a classic replica instead:
 * ... - brokerId masterHaAddress [minInSyncReplicas, default 2] (a master writes "brokerAddress haAddress").
 */
public final class ChildReplicaMain {

    private ChildReplicaMain() {
    }

    public static void main(String[] args) throws Exception {
        BrokerSettings s;
        if ("-".equals(args[3])) {
            // the same group without a controller (for comparisons): args[4] brokerId, args[5] the master's HA address
            long id = Long.parseLong(args[4]);
            s = HaCluster.settings(Path.of(args[0]), id == 0 ? BrokerRole.SYNC_MASTER : BrokerRole.SLAVE, id);
            s.broker().setNamesrvAddr(args[2]);
            s.broker().slaves().setSlaveSynchronizeInterval(500);
            s.ha().setMinInSyncReplicas(args.length > 6 ? Integer.parseInt(args[6]) : 2);
            if (id > 0) {
                s.ha().setHaMasterAddress(args[5]);
            }
        } else {
            s = settings(Path.of(args[0]), args[2], args[3]);
        }
        Broker broker = new Broker(s);
        broker.start();
        Path file = Path.of(args[1]);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, broker.address() + (broker.haAddress() != null && "-".equals(args[3])
                ? " " + broker.haAddress() : ""), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Thread.currentThread().join();
    }

    /** The settings of one replica (also used by in-JVM replicas of the same tests). */
    static BrokerSettings settings(Path store, String namesrvAddr, String controllerAddr) {
        BrokerSettings s = HaCluster.settings(store, BrokerRole.SYNC_MASTER, 0);
        s.broker().setNamesrvAddr(namesrvAddr);
        s.broker().slaves().setSlaveSynchronizeInterval(500);
        s.ha().setMinInSyncReplicas(2);
        s.controller().setEnableControllerMode(true);
        s.controller().setControllerAddr(controllerAddr);
        s.controller().setControllerRequestTimeoutMillis(10_000);
        s.validate();
        return s;
    }
}

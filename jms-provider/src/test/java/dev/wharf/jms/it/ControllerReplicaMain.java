package dev.wharf.jms.it;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.broker.ha.BrokerRole;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A broker replica in controller mode in its own process (SYNC_MASTER when elected, minInSyncReplicas=2, small
 * files, every port 0), for the JMS failover test that kills it. Writes its broker address to the given file once it
 * listens. Arguments: storeDir addressFile namesrvAddr controllerAddr.
 */
public final class ControllerReplicaMain {

    private ControllerReplicaMain() {
    }

    public static void main(String[] args) throws Exception {
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(args[0]);
        s.store().setMappedFileSizeCommitLog(4 * 1024 * 1024);
        s.store().setMaxMessageSize(256 * 1024);
        s.store().setMappedFileSizeConsumeQueue(20 * 4_000);
        s.store().setMaxHashSlotNum(1_000);
        s.store().setMaxIndexNum(4_000);
        s.netty().setListenPort(0);
        s.netty().setSelectorThreads(1);
        s.broker().setBrokerName("jms-failover");
        s.broker().setNamesrvAddr(args[2]);
        s.broker().executors().setAdminBrokerThreadPoolNums(1);
        s.broker().slaves().setSlaveSynchronizeInterval(300);
        s.broker().setDefaultTopicQueueNums(2);
        s.ha().setBrokerRole(BrokerRole.SYNC_MASTER);
        s.ha().setMinInSyncReplicas(2);
        s.ha().setHaListenPort(0);
        s.ha().setHaSendHeartbeatInterval(500);
        s.ha().setHaReconnectInterval(50);
        s.ha().setHaReconnectMaxInterval(500);
        s.controller().setEnableControllerMode(true);
        s.controller().setControllerAddr(args[3]);
        s.controller().setControllerRequestTimeoutMillis(10_000);
        Broker broker = new Broker(s);
        broker.start();
        Path file = Path.of(args[1]);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, broker.address(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Thread.currentThread().join();
    }
}

package dev.wharf.client.it;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.broker.ha.BrokerRole;
import dev.wharf.client.producer.SendResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.awaitility.Awaitility;

/**
 * Brokers of a master/slave group for tests: in this JVM, or in a child process that a test kills with
 * SIGKILL. Masters (brokerId 0, ASYNC_MASTER) accept slaves on a free HA port that they publish in their
 * registration; slaves (brokerId above 0, SLAVE) learn it from the NameServer and replicate the commit log
 * ({@link #awaitReplicated} waits until a slave holds and has dispatched what its master holds).
 */
final class Replicas {

    private Replicas() {
    }

    static BrokerSettings settings(Path dir, String namesrv, String name, long id) {
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(dir.toString());
        s.store().setMappedFileSizeCommitLog(4 * 1024 * 1024);
        s.store().setMaxMessageSize(256 * 1024);
        s.store().setMappedFileSizeConsumeQueue(20 * 4_000);
        s.store().setMaxHashSlotNum(1_000);
        s.store().setMaxIndexNum(4_000);
        s.netty().setListenPort(0);
        s.netty().setSelectorThreads(1);
        s.broker().setBrokerName(name);
        s.broker().setBrokerId(id);
        s.ha().setBrokerRole(id == 0 ? BrokerRole.ASYNC_MASTER : BrokerRole.SLAVE);
        s.ha().setHaListenPort(0);
        s.ha().setHaSendHeartbeatInterval(500); // a slave reports its end soon after it caught up
        s.ha().setHaHousekeepingInterval(5_000);
        s.ha().setHaReconnectMaxInterval(500); // a slave finds a returning master quickly
        s.broker().setNamesrvAddr(namesrv);
        s.broker().executors().setSendMessageThreadPoolNums(2);
        s.broker().executors().setPullMessageThreadPoolNums(4);
        s.broker().executors().setQueryMessageThreadPoolNums(1);
        s.broker().executors().setAdminBrokerThreadPoolNums(1);
        s.broker().executors().setClientManageThreadPoolNums(2);
        s.broker().setDefaultTopicQueueNums(2);
        s.broker().slaves().setSlaveSynchronizeInterval(200);
        return s;
    }

    static Broker start(Path dir, String namesrv, String name, long id) throws IOException {
        return start(dir, namesrv, name, id, s -> { });
    }

    static Broker start(Path dir, String namesrv, String name, long id, Consumer<BrokerSettings> customize)
            throws IOException {
        BrokerSettings s = settings(dir, namesrv, name, id);
        customize.accept(s);
        Broker broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();
        return broker;
    }

    /** Waits until the slave holds the commit log up to {@code masterMaxOffset} and has built its queues from it. */
    static void awaitReplicated(Broker slave, long masterMaxOffset) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> slave.store().getMaxPhyOffset() >= masterMaxOffset
                        && slave.store().dispatchBehindBytes() == 0);
    }

    /** Waits until the slave holds and has dispatched everything its (living) master holds now. */
    static void awaitReplicated(Broker master, Broker slave) {
        awaitReplicated(slave, master.store().getMaxPhyOffset());
    }

    /** Waits until every sent message is in the slave's queues (for a master in another process). */
    static void awaitReplicated(Broker slave, List<SendResult> sent) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
            if (slave.store().dispatchBehindBytes() != 0) {
                return false;
            }
            for (SendResult r : sent) {
                if (slave.store().getMaxOffsetInQueue(r.messageQueue().topic(), r.messageQueue().queueId())
                        <= r.queueOffset()) {
                    return false;
                }
            }
            return true;
        });
    }

    /** A broker in a child process. */
    static final class Child implements AutoCloseable {
        final Process process;
        final String address;

        private Child(Process process, String address) {
            this.process = process;
            this.address = address;
        }

        /** SIGKILL, and wait for the process to be gone. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the child broker did not die");
            }
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                kill();
            }
        }
    }

    static Child startChild(Path dir, String namesrv, String name, long id) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path addressFile = dir.resolve("address-" + System.nanoTime());
        Process process = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), ReplicaBrokerMain.class.getName(), dir.toString(),
                addressFile.toString(), namesrv, name, Long.toString(id))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(dir.resolveSibling(dir.getFileName() + "-child.err").toFile())
                .start();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> Files.exists(addressFile) || !process.isAlive());
        } catch (RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
        if (!process.isAlive()) {
            throw new IllegalStateException("the child broker exited with " + process.exitValue() + "; see "
                    + dir.resolveSibling(dir.getFileName() + "-child.err"));
        }
        return new Child(process, Files.readString(addressFile, StandardCharsets.UTF_8).trim());
    }
}

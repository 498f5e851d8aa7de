package dev.wharf.client.it;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.message.HostAddress;
import dev.wharf.store.MessageExtBrokerInner;
import dev.wharf.store.PutMessageResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.awaitility.Awaitility;

/**
 * Brokers of a master/slave group for tests: in this JVM, or in a child process that a test kills with
 * SIGKILL. Without the replication stream a slave's commit log does not get its master's messages; tests put
 * the same messages in the same queue order into the slave's store ({@link #mirror}), so queue offsets match as
 * replication would make them.
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
        s.broker().setNamesrvAddr(namesrv);
        s.broker().setSendMessageThreadPoolNums(2);
        s.broker().setPullMessageThreadPoolNums(4);
        s.broker().setQueryMessageThreadPoolNums(1);
        s.broker().setAdminBrokerThreadPoolNums(1);
        s.broker().setClientManageThreadPoolNums(2);
        s.broker().setDefaultTopicQueueNums(2);
        s.broker().setSlaveSynchronizeInterval(200);
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

    /** Puts the sent messages into the slave's store in their queues' order (bodies as sent). */
    static void mirror(Broker slave, List<SendResult> sent, Map<String, String> bodyByMsgId) {
        List<SendResult> ordered = new ArrayList<>(sent);
        ordered.sort(Comparator.comparingInt((SendResult r) -> r.messageQueue().queueId())
                .thenComparingLong(SendResult::queueOffset));
        for (SendResult r : ordered) {
            MessageExtBrokerInner msg = new MessageExtBrokerInner();
            msg.setTopic(r.messageQueue().topic());
            msg.setQueueId(r.messageQueue().queueId());
            msg.setBody(bodyByMsgId.get(r.msgId()).getBytes(StandardCharsets.UTF_8));
            msg.setPropertiesString("");
            msg.setBornTimestamp(System.currentTimeMillis());
            msg.setBornHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 5555));
            msg.setStoreHost(HostAddress.pack(slave.address()));
            PutMessageResult put = slave.store().putMessage(msg);
            if (!put.isOk()) {
                throw new IllegalStateException("mirroring into the slave failed: " + put);
            }
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> slave.store().dispatchBehindBytes() == 0);
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

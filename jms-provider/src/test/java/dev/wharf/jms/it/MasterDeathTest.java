package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.broker.ha.BrokerRole;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.namesrv.NameServer;
import dev.wharf.protocol.body.AckStats;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two broker groups, the first with a master and a slave: a JMS queue consumer keeps receiving while the first
 * master is dead (what it had left is read from its slave), the producer keeps sending (to the other group), and
 * the exception listener stays silent because something can still serve.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MasterDeathTest {

    private static final Logger log = LoggerFactory.getLogger(MasterDeathTest.class);
    private static final String QUEUE = "ha-jms-queue";

    @TempDir
    Path root;

    private NameServer nameServer;
    private Broker masterA;
    private Broker slaveA;
    private Broker masterB;

    private Broker start(String dir, String name, long id) throws IOException {
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(root.resolve(dir).toString());
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
        s.ha().setHaListenPort(0); // published in the registration; the slave learns it from the NameServer
        s.ha().setHaSendHeartbeatInterval(500);
        s.ha().setHaHousekeepingInterval(5_000);
        s.ha().setHaReconnectMaxInterval(500); // the slave finds its returning master quickly
        s.broker().setNamesrvAddr(nameServer.address());
        s.broker().executors().setAdminBrokerThreadPoolNums(1);
        s.broker().slaves().setSlaveSynchronizeInterval(200);
        s.broker().pop().setAckStateSnapshotInterval(200);
        Broker b = new Broker(s);
        b.start();
        b.registerWithNameServers().join();
        return b;
    }

    @BeforeEach
    void start() throws Exception {
        nameServer = NameServer.onPort(0);
        nameServer.start();
        masterA = start("a-0", "ha-a", 0);
        slaveA = start("a-1", "ha-a", 1);
        masterB = start("b-0", "ha-b", 0);
    }

    @AfterEach
    void stop() {
        for (Broker b : new Broker[] {slaveA, masterB, masterA}) {
            if (b != null) {
                b.shutdown();
            }
        }
        nameServer.shutdown();
    }

    /** Waits until the slave holds and has dispatched everything its master holds now (the replication stream). */
    private static void awaitReplicated(Broker master, Broker slave) {
        long end = master.store().getMaxPhyOffset();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> slave.store().getMaxPhyOffset() >= end && slave.store().dispatchBehindBytes() == 0);
    }

    @Test
    void aQueueConsumerReadsTheSlaveWhileTheMasterIsDeadAndTheProducerSendsToTheOtherGroup() throws Exception {
        ClientConfig adminConfig = new ClientConfig();
        adminConfig.setNamesrvAddr(nameServer.address());
        adminConfig.setInstanceName("ha-jms-admin");
        AdminClient admin = new AdminClient(adminConfig);
        admin.start();
        try {
            admin.createTopic(QUEUE, 2);
        } finally {
            admin.shutdown();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> slaveA.topics().find(QUEUE) != null);

        WharfConnectionFactory f = new WharfConnectionFactory("wharf://" + nameServer.address()
                + "?heartbeatBrokerInterval=300&pollNameServerInterval=300&sendTimeout=2000");
        try (Connection c = f.createConnection()) {
            List<JMSException> reported = Collections.synchronizedList(new ArrayList<>());
            c.setExceptionListener(reported::add);
            Map<String, Integer> received = new ConcurrentHashMap<>();
            jakarta.jms.MessageListener listener = m -> {
                try {
                    received.merge(((TextMessage) m).getText(), 1, Integer::sum);
                } catch (JMSException e) {
                    throw new RuntimeException(e);
                }
            };
            Session listening = c.createSession();
            Queue q = listening.createQueue(QUEUE);
            listening.createConsumer(q).setMessageListener(listener);
            Session sending = c.createSession();
            MessageProducer p = sending.createProducer(q);
            c.start();
            for (int i = 0; i < 20; i++) {
                p.send(sending.createTextMessage("before-" + i));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> received.size() == 20);

            // messages wait on both groups while nobody consumes (a consumer would have them prefetched); the slave
            // replicates what its master has
            listening.close();
            for (int i = 0; i < 20; i++) {
                TextMessage m = sending.createTextMessage("waiting-" + i);
                m.setStringProperty("JMSXGroupID", "spread-" + i); // a session keeps to one queue; groups spread
                p.send(m);
            }
            // the master's consume queues are built by its dispatcher after the sends return: count once it caught up
            await().atMost(Duration.ofSeconds(20)).until(() -> masterA.store().dispatchBehindBytes() == 0);
            long onA = masterA.store().getMaxOffsetInQueue(QUEUE, 0) + masterA.store().getMaxOffsetInQueue(QUEUE, 1);
            assertThat(onA).as("messages of group ha-a").isGreaterThan(3);
            masterA.ack().snapshotNow();
            awaitReplicated(masterA, slaveA);
            assertThat(slaveA.store().getMaxOffsetInQueue(QUEUE, 0) + slaveA.store().getMaxOffsetInQueue(QUEUE, 1))
                    .as("messages of group ha-a on its slave").isEqualTo(onA);
            long synced = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(10)).until(() -> slaveA.replica().synchronizer().lastSuccessMillis() > synced);

            // the master dies; what it had is only on its slave now
            masterA.shutdown();
            masterA = null;
            Session again = c.createSession();
            again.createConsumer(q).setMessageListener(listener);
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (int i = 0; i < 20; i++) {
                    if (!received.containsKey("waiting-" + i)) {
                        return false;
                    }
                }
                return true;
            });
            log.info("All waiting messages received, those of ha-a from its slave");
            // the producer keeps sending: the group without a master is skipped
            for (int i = 0; i < 10; i++) {
                TextMessage m = sending.createTextMessage("down-" + i);
                m.setStringProperty("JMSXGroupID", "spread-" + i);
                p.send(m);
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> received.keySet().containsAll(
                    java.util.stream.IntStream.range(0, 10).mapToObj(i -> "down-" + i).toList()));
            log.info("All messages sent while the master was dead received");
            assertThat(reported).as("a slave and another group could serve: no exception listener call").isEmpty();

            // the master returns: the acknowledgements made while reading its slave are handed to it
            masterA = start("a-0", "ha-a", 0);
            for (int i = 0; i < 10; i++) {
                p.send(sending.createTextMessage("after-" + i));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> received.keySet().containsAll(
                    java.util.stream.IntStream.range(0, 10).mapToObj(i -> "after-" + i).toList()));
            Broker back = masterA;
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                AckStats stats = back.ack().stats(QUEUE, QUEUE);
                return !stats.queues().isEmpty() && stats.queues().stream().allMatch(s -> s.backlog() == 0);
            });
            int duplicates = received.values().stream().mapToInt(n -> n - 1).sum();
            log.info("JMS consumer through a master death: {} distinct messages, {} duplicates", received.size(),
                    duplicates);
            assertThat(received).hasSize(60);
            assertThat(reported).isEmpty();

            // nothing left that can serve: now the exception listener hears of it, once
            for (Broker b : new Broker[] {masterA, masterB, slaveA}) {
                b.shutdown();
            }
            masterA = null;
            masterB = null;
            slaveA = null;
            await().atMost(Duration.ofSeconds(15)).until(() -> reported.size() == 1);
            assertThat(reported.get(0).getMessage()).contains("lost its broker");
        }
    }
}

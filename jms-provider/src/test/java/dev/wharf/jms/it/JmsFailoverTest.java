package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.namesrv.NameServer;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.testing.TestControllers;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JMS connection sending through an automatic failover: three Raft controllers and a NameServer in this JVM, three
 * replica processes of one broker name in controller mode (SYNC_MASTER, minInSyncReplicas=2). The master is killed
 * with SIGKILL while a session sends: no send throws and the exception listener stays silent, because the new master
 * takes over within the send timeout; every message sent is then received (at least once: a send whose answer the
 * dead master never gave is sent again, so duplicates are possible and counted).
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class JmsFailoverTest {

    private static final String QUEUE = "jms-failover-queue";

    @TempDir
    Path root;
    private NameServer nameServer;
    private TestControllers quorum;
    private final List<Process> replicas = new ArrayList<>();
    private final List<String> addresses = new ArrayList<>();
    private ControllerAdmin admin;

    @BeforeEach
    void start() throws Exception {
        nameServer = NameServer.onPort(0);
        nameServer.start();
        quorum = new TestControllers(root, 3);
        String controllerAddr = quorum.address();
        admin = quorum.admin();
        for (String name : List.of("a", "b", "c")) {
            Path addressFile = root.resolve(name + ".address");
            Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-Xmx192m",
                    "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    ControllerReplicaMain.class.getName(), root.resolve(name).toString(), addressFile.toString(),
                    nameServer.address(), controllerAddr)
                    .redirectErrorStream(true)
                    .redirectOutput(root.resolve(name + ".log").toFile())
                    .start();
            replicas.add(p);
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(addressFile) || !p.isAlive());
            assertThat(p.isAlive()).as("replica %s died; see %s", name, root.resolve(name + ".log")).isTrue();
            addresses.add(Files.readString(addressFile, StandardCharsets.UTF_8).trim());
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> {
            BrokerGroupInfo g = group();
            return g.hasMaster() && g.syncStateSet().size() == 3;
        });
    }

    private BrokerGroupInfo group() throws Exception {
        return admin.brokerGroups("jms-failover").get(0);
    }

    @AfterEach
    void stop() throws Exception {
        for (Process p : replicas) {
            p.destroyForcibly();
            p.waitFor(20, TimeUnit.SECONDS);
        }
        if (quorum != null) {
            quorum.close();
        }
        nameServer.shutdown();
    }

    @Test
    void sendsThroughAKilledMasterSeeNoError() throws Exception {
        ClientConfig adminConfig = new ClientConfig();
        adminConfig.setNamesrvAddr(nameServer.address());
        adminConfig.setInstanceName("jms-failover-admin");
        AdminClient topics = new AdminClient(adminConfig);
        topics.start();
        try {
            topics.createTopic(QUEUE, 2);
        } finally {
            topics.shutdown();
        }

        WharfConnectionFactory f = new WharfConnectionFactory("wharf://" + nameServer.address()
                + "?heartbeatBrokerInterval=300&pollNameServerInterval=300&sendTimeout=8000");
        try (Connection c = f.createConnection()) {
            List<JMSException> reported = Collections.synchronizedList(new ArrayList<>());
            c.setExceptionListener(reported::add);
            Session sending = c.createSession();
            Queue q = sending.createQueue(QUEUE);
            MessageProducer producer = sending.createProducer(q);
            int sent = 0;
            for (; sent < 200; sent++) {
                producer.send(sending.createTextMessage("m-" + sent));
            }
            String master = group().masterAddress();
            replicas.get(addresses.indexOf(master)).destroyForcibly(); // SIGKILL
            long killedAt = System.nanoTime();
            // every send across the failover returns normally (a JMSException here fails the test)
            long firstAfter = 0;
            for (; sent < 400; sent++) {
                producer.send(sending.createTextMessage("m-" + sent));
                if (firstAfter == 0) {
                    firstAfter = System.nanoTime();
                }
            }
            System.out.printf("JMS send across a kill -9 of the master: the first send after it returned in %d ms%n",
                    (firstAfter - killedAt) / 1_000_000);
            assertThat(group().masterAddress()).isNotEqualTo(master);

            Session receiving = c.createSession();
            MessageConsumer consumer = receiving.createConsumer(receiving.createQueue(QUEUE));
            c.start();
            Map<String, Integer> received = new HashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received.size() < sent && System.nanoTime() < deadline) {
                Message m = consumer.receive(1_000);
                if (m != null) {
                    received.merge(((TextMessage) m).getText(), 1, Integer::sum);
                }
            }
            assertThat(received).hasSize(sent);
            long duplicates = received.values().stream().filter(n -> n > 1).count();
            System.out.printf("JMS failover: %d messages sent, all received, %d received more than once%n", sent,
                    duplicates);
            assertThat(reported).as("errors reported to the exception listener").isEmpty();
        }
    }
}

package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.namesrv.NameServer;
import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker registers with every NameServer, re-registers on topic changes and unregisters on shutdown. */
class RegistrationTest {

    @TempDir
    Path dir;

    private NameServer ns1;
    private NameServer ns2;
    private Broker broker;

    @BeforeEach
    void startNameServers() {
        ns1 = NameServer.onPort(0);
        ns2 = NameServer.onPort(0);
        ns1.start();
        ns2.start();
    }

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.shutdown();
        }
        ns1.shutdown();
        ns2.shutdown();
    }

    private static boolean routes(NameServer ns, String topic, String brokerAddr) {
        TopicRouteData route = ns.routes().pickupTopicRouteData(topic);
        return route != null && route.brokerDatas().stream()
                .anyMatch(b -> brokerAddr.equals(b.brokerAddrs().get(0L)));
    }

    @Test
    void everyNameServerLearnsTheBrokerAndItsNewTopics() throws Exception {
        broker = BrokerFixture.start(dir, s -> {
            s.broker().setNamesrvAddr(ns1.address() + ";" + ns2.address());
            s.broker().setBrokerName("broker-x");
            s.broker().setBrokerClusterName("ClusterX");
        });
        String addr = broker.address();
        for (NameServer ns : new NameServer[] {ns1, ns2}) {
            await().atMost(Duration.ofSeconds(10)).until(() -> routes(ns, "SCHEDULE_TOPIC_XXXX", addr));
            ClusterInfo cluster = ns.routes().clusterInfo();
            assertThat(cluster.clusterAddrTable().get("ClusterX")).containsExactly("broker-x");
            BrokerData data = cluster.brokerAddrTable().get("broker-x");
            assertThat(data.brokerAddrs()).containsEntry(0L, addr);
        }

        // a topic created by a send reaches the NameServers at once, not after the 30 s period
        try (ProtocolClient client = new ProtocolClient(addr)) {
            client.sendOk("FreshTopic", 0, new byte[] {1}, Map.of());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> routes(ns1, "FreshTopic", addr)
                && routes(ns2, "FreshTopic", addr));
        TopicRouteData route = ns1.routes().pickupTopicRouteData("FreshTopic");
        assertThat(route.queueDatas().get(0).writeQueueNums()).isEqualTo(4);

        broker.shutdown();
        assertThat(routes(ns1, "FreshTopic", addr)).isFalse();
        assertThat(routes(ns2, "FreshTopic", addr)).isFalse();
        broker = null;
    }

    @Test
    void aDeadNameServerDoesNotKeepTheOthersFromLearningTheBroker() throws Exception {
        String dead = "127.0.0.1:" + freePort();
        broker = BrokerFixture.start(dir, s -> {
            s.broker().setNamesrvAddr(dead + ";" + ns1.address());
            s.broker().registration().setRegisterBrokerTimeoutMills(2_000);
        });
        String addr = broker.address();
        await().atMost(Duration.ofSeconds(10)).until(() -> routes(ns1, "SCHEDULE_TOPIC_XXXX", addr));
        broker.registerWithNameServers().get();
        assertThat(routes(ns1, "RMQ_SYS_TRANS_HALF_TOPIC", addr)).isTrue();
    }

    /** A port nothing listens on (bound and released at once). */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

package dev.wharf.namesrv;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.protocol.body.RouteData.DataVersion;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.body.TopicConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouteInfoManagerTest {

    private final RouteInfoManager routes = new RouteInfoManager();

    @Test
    void routesCombineEveryBrokerServingATopic() {
        routes.registerBroker("c1", "10.0.0.1:10911", "broker-a", 0, null,
                Map.of("orders", new TopicConfig("orders", 8)), new DataVersion(1, 1), "ch-a", 1000);
        routes.registerBroker("c1", "10.0.0.2:10911", "broker-b", 0, null,
                Map.of("orders", new TopicConfig("orders", 4), "audit", new TopicConfig("audit", 1)),
                new DataVersion(1, 1), "ch-b", 1000);

        TopicRouteData orders = routes.pickupTopicRouteData("orders");
        assertThat(orders.queueDatas()).extracting(q -> q.brokerName() + ":" + q.writeQueueNums())
                .containsExactly("broker-a:8", "broker-b:4");
        assertThat(orders.brokerDatas()).extracting(b -> b.selectBrokerAddr())
                .containsExactly("10.0.0.1:10911", "10.0.0.2:10911");
        assertThat(routes.topics()).containsExactly("audit", "orders");
        assertThat(routes.clusterInfo().clusterAddrTable()).containsEntry("c1", java.util.Set.of("broker-a", "broker-b"));
        assertThat(routes.pickupTopicRouteData("missing")).isNull();
    }

    @Test
    void aTopicDroppedFromARegistrationLeavesTheRoute() {
        routes.registerBroker("c1", "a:1", "broker-a", 0, null,
                Map.of("t1", new TopicConfig("t1", 2), "t2", new TopicConfig("t2", 2)), new DataVersion(1, 1), "ch", 0);
        routes.registerBroker("c1", "a:1", "broker-a", 0, null,
                Map.of("t1", new TopicConfig("t1", 2)), new DataVersion(1, 2), "ch", 10);
        assertThat(routes.topics()).containsExactly("t1");
    }

    @Test
    void silentOrDisconnectedBrokersAreEvicted() {
        routes.registerBroker("c1", "a:1", "broker-a", 0, null, Map.of("t", new TopicConfig("t", 2)),
                new DataVersion(1, 1), "ch-a", 0);
        routes.registerBroker("c1", "b:1", "broker-b", 0, null, Map.of("t", new TopicConfig("t", 2)),
                new DataVersion(1, 1), "ch-b", 100_000);

        assertThat(routes.scanNotActiveBrokers(130_000, 120_000)).containsExactly("a:1");
        assertThat(routes.pickupTopicRouteData("t").queueDatas()).extracting(q -> q.brokerName()).containsExactly("broker-b");

        routes.onChannelClosed("ch-b");
        assertThat(routes.pickupTopicRouteData("t")).isNull();
        assertThat(routes.clusterInfo().brokerAddrTable()).isEmpty();
    }

    @Test
    void slavesLearnTheirMaster() {
        routes.registerBroker("c1", "m:1", "broker-a", 0, "m:2", Map.of(), new DataVersion(1, 1), "ch-m", 0);
        RouteInfoManager.Registration r = routes.registerBroker("c1", "s:1", "broker-a", 1, null, Map.of(),
                new DataVersion(1, 1), "ch-s", 0);
        assertThat(r.masterAddr()).isEqualTo("m:1");
        assertThat(r.haServerAddr()).isEqualTo("m:2");
    }
}

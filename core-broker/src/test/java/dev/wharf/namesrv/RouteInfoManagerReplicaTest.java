package dev.wharf.namesrv;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.DataVersion;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.body.TopicConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Routes of broker groups with a master and slaves. */
class RouteInfoManagerReplicaTest {

    private final RouteInfoManager routes = new RouteInfoManager();

    private RouteInfoManager.Registration register(String addr, long id, String ha, Map<String, TopicConfig> topics,
                                                   long version, Object channel, long now) {
        return routes.registerBroker("c1", addr, "broker-a", id, ha, topics, new DataVersion(1, version), channel, now);
    }

    private BrokerData group(String topic) {
        TopicRouteData route = routes.pickupTopicRouteData(topic);
        assertThat(route).as("route of " + topic).isNotNull();
        return route.brokerDatas().get(0);
    }

    @Test
    void theRouteCarriesEveryBrokerOfTheGroupByIdAndASlaveNeverReplacesItsMaster() {
        Map<String, TopicConfig> masterTopics = Map.of("orders", new TopicConfig("orders", 8));
        RouteInfoManager.Registration m = register("m:1", 0, "m:2", masterTopics, 1, "ch-m", 0);
        RouteInfoManager.Registration s = register("s:1", 1, null, Map.of("orders", new TopicConfig("orders", 2),
                "slave-only", new TopicConfig("slave-only", 1)), 7, "ch-s", 0);

        assertThat(m.masterAddr()).isNull();
        assertThat(s.masterAddr()).isEqualTo("m:1");
        assertThat(s.haServerAddr()).isEqualTo("m:2");
        assertThat(group("orders").brokerAddrs()).containsExactlyInAnyOrderEntriesOf(Map.of(0L, "m:1", 1L, "s:1"));
        // the master's topic table defines the queues; the slave's differing copy changes nothing
        assertThat(routes.pickupTopicRouteData("orders").queueDatas().get(0).writeQueueNums()).isEqualTo(8);
        assertThat(routes.pickupTopicRouteData("slave-only")).isNull();
        assertThat(routes.liveBrokers()).extracting(b -> b.brokerId() + "@" + b.brokerAddr())
                .containsExactly("0@m:1", "1@s:1");
    }

    @Test
    void aDeadMasterLeavesItsSlavesRoutedAndItsReturnAtAnotherAddressReplacesIt() {
        register("m:1", 0, "m:2", Map.of("orders", new TopicConfig("orders", 4)), 1, "ch-m", 0);
        register("s:1", 1, null, Map.of("orders", new TopicConfig("orders", 4)), 1, "ch-s", 0);

        routes.onChannelClosed("ch-m");
        assertThat(group("orders").brokerAddrs()).containsExactlyEntriesOf(Map.of(1L, "s:1"));
        RouteInfoManager.Registration s = register("s:1", 1, null, Map.of(), 1, "ch-s", 10);
        assertThat(s.masterAddr()).isNull();

        register("m:9", 0, "m:10", Map.of("orders", new TopicConfig("orders", 4)), 2, "ch-m2", 20);
        assertThat(group("orders").brokerAddrs()).containsExactlyInAnyOrderEntriesOf(Map.of(0L, "m:9", 1L, "s:1"));
        assertThat(register("s:1", 1, null, Map.of(), 1, "ch-s", 30).haServerAddr()).isEqualTo("m:10");
    }

    @Test
    void livenessIsPerBrokerNameAndId() {
        register("m:1", 0, null, Map.of("t", new TopicConfig("t", 2)), 1, "ch-m", 0);
        register("s:1", 1, null, Map.of(), 1, "ch-s", 100_000);

        assertThat(routes.scanNotActiveBrokers(130_000, 120_000)).containsExactly("m:1");
        assertThat(group("t").brokerAddrs()).containsExactlyEntriesOf(Map.of(1L, "s:1"));

        // the same broker restarted on another port: its own entry moves, nothing stays at the old address
        register("s:2", 1, null, Map.of(), 1, "ch-s2", 130_000);
        assertThat(group("t").brokerAddrs()).containsExactlyEntriesOf(Map.of(1L, "s:2"));
        routes.onChannelClosed("ch-s");
        assertThat(group("t").brokerAddrs()).containsExactlyEntriesOf(Map.of(1L, "s:2"));
        routes.unregisterBroker("s:2");
        assertThat(routes.pickupTopicRouteData("t")).isNull();
    }

    @Test
    void aSlaveAloneKeepsItsGroupReadable() {
        register("s:1", 1, null, Map.of("t", new TopicConfig("t", 3)), 1, "ch-s", 0);
        assertThat(routes.pickupTopicRouteData("t").queueDatas().get(0).readQueueNums()).isEqualTo(3);
        assertThat(group("t").brokerAddrs()).containsExactlyEntriesOf(Map.of(1L, "s:1"));
    }

    @Test
    void anAddressReRegisteredUnderAnotherIdLeavesItsOldIdentity() {
        register("x:1", 1, null, Map.of("t", new TopicConfig("t", 1)), 1, "ch", 0);
        register("x:1", 0, null, Map.of("t", new TopicConfig("t", 1)), 1, "ch", 10);
        assertThat(group("t").brokerAddrs()).containsExactlyEntriesOf(Map.of(0L, "x:1"));
        assertThat(routes.liveBrokers()).singleElement().extracting(RouteInfoManager.LiveBroker::brokerId)
                .isEqualTo(0L);
    }
}

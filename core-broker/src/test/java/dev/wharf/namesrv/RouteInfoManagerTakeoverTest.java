package dev.wharf.namesrv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.protocol.body.RouteData.DataVersion;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.remoting.RemotingChannel;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The NameServer's takeover rule in controller mode: an elected master's registration carries its master epoch and
 * takes id 0 from a still-connected old master only with a higher epoch, and only when it is trusted to speak for the
 * group (its connection carries a replica's registration, or registrations need the cluster's credential).
 */
class RouteInfoManagerTakeoverTest {

    private final RouteInfoManager routes = new RouteInfoManager();
    private final Map<String, TopicConfig> topics = Map.of("orders", new TopicConfig("orders", 4));

    /** An open connection; equal only to itself. */
    private static RemotingChannel liveChannel() {
        return (RemotingChannel) Proxy.newProxyInstance(RemotingChannel.class.getClassLoader(),
                new Class<?>[] {RemotingChannel.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "isActive" -> true;
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "live channel";
                    default -> throw new AssertionError("not used by the route table: " + method.getName());
                });
    }

    private void register(String addr, long id, Integer epoch, RemotingChannel channel) {
        routes.registerBroker("c1", addr, "broker-a", id, addr + "-ha", epoch, topics, new DataVersion(1, 1), channel,
                System.currentTimeMillis());
    }

    private Map<Long, String> addrs() {
        return routes.pickupTopicRouteData("orders").brokerDatas().get(0).brokerAddrs();
    }

    @Test
    void theElectedReplicaTakesIdZeroWithAHigherEpochAndTheDeposedMasterCannotTakeItBack() {
        RemotingChannel old = liveChannel();
        RemotingChannel elected = liveChannel();
        register("m:1", 0, 3, old);
        register("s:1", 2, 3, elected);

        register("s:1", 0, 4, elected);
        assertThat(addrs()).containsEntry(0L, "s:1").doesNotContainValue("m:1");

        assertThatThrownBy(() -> register("m:1", 0, 3, old)).isInstanceOf(BrokerTakeoverException.class)
                .hasMessageContaining("broker-a id=0 is registered by a live broker at s:1")
                .hasMessageContaining("It holds master epoch 4; this registration carries master epoch 3");
        register("m:1", 1, 4, old); // it rejoins as a slave
        assertThat(addrs()).containsEntry(0L, "s:1").containsEntry(1L, "m:1");
    }

    @Test
    void aReplicaWithoutAHigherEpochCannotTakeIdZero() {
        RemotingChannel master = liveChannel();
        RemotingChannel slave = liveChannel();
        register("m:1", 0, 5, master);
        register("s:1", 2, 5, slave);

        assertThatThrownBy(() -> register("s:1", 0, 5, slave)).isInstanceOf(BrokerTakeoverException.class)
                .hasMessageContaining("It holds master epoch 5; this registration carries master epoch 5");
        assertThatThrownBy(() -> register("s:1", 0, null, slave)).isInstanceOf(BrokerTakeoverException.class)
                .hasMessageContaining("this registration carries none");
        assertThat(addrs()).containsEntry(0L, "m:1");
    }

    @Test
    void aStrangersHigherEpochIsBelievedOnlyWhereRegistrationsNeedTheClustersCredential() {
        RemotingChannel master = liveChannel();
        register("m:1", 0, 2, master);

        assertThatThrownBy(() -> register("x:1", 0, 9, liveChannel())).isInstanceOf(BrokerTakeoverException.class)
                .hasMessageContaining("x:1 may not take over its name and id while it is connected");
        assertThat(addrs()).containsEntry(0L, "m:1");

        routes.setRegistrationsAuthorized(true); // the registration passed ADMIN on cluster:c1
        assertThatThrownBy(() -> register("x:1", 0, 2, liveChannel())).isInstanceOf(BrokerTakeoverException.class)
                .hasMessageContaining("or with the cluster's credential");
        register("x:1", 0, 3, liveChannel());
        assertThat(addrs()).containsEntry(0L, "x:1").doesNotContainValue("m:1");
    }
}

package dev.wharf.namesrv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.protocol.body.RouteData.DataVersion;
import dev.wharf.protocol.body.RouteData.RegisterBrokerBody;
import dev.wharf.protocol.body.RouteData.TopicList;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.RouteHeaders.RegisterBrokerRequest;
import dev.wharf.protocol.header.RouteHeaders.TopicRequest;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NameServerTest {

    private NameServer nameServer;
    private NettyRemotingClient broker;
    private NettyRemotingClient client;

    @BeforeEach
    void start() {
        nameServer = NameServer.onPort(0);
        nameServer.start();
        broker = new NettyRemotingClient(new NettyClientConfig());
        broker.start();
        client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
    }

    @AfterEach
    void stop() {
        client.shutdown();
        broker.shutdown();
        nameServer.shutdown();
    }

    @Test
    void registeredTopicsAreRoutedAndADisconnectedBrokerIsEvicted() throws Exception {
        RemotingCommand register = RemotingCommand.createRequest(RequestCode.REGISTER_BROKER);
        register.writeHeader((
                new RegisterBrokerRequest("broker-a", "127.0.0.1:10911", "DefaultCluster", 0, null)));
        register.setBody(Json.encode(new RegisterBrokerBody(Map.of("orders", new TopicConfig("orders", 4)),
                new DataVersion(1, 1))));
        assertThat(broker.invokeSync(nameServer.address(), register, 3000).code()).isEqualTo(ResponseCode.SUCCESS);

        RemotingCommand route = client.invokeSync(nameServer.address(), topicRequest(RequestCode.GET_ROUTEINFO_BY_TOPIC, "orders"), 3000);
        assertThat(route.code()).isEqualTo(ResponseCode.SUCCESS);
        TopicRouteData data = Json.decode(route.body(), TopicRouteData.class);
        assertThat(data.brokerDatas().get(0).selectBrokerAddr()).isEqualTo("127.0.0.1:10911");
        assertThat(data.queueDatas().get(0).writeQueueNums()).isEqualTo(4);

        RemotingCommand topics = client.invokeSync(nameServer.address(),
                RemotingCommand.createRequest(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER), 3000);
        assertThat(Json.decode(topics.body(), TopicList.class).topicList()).containsExactly("orders");
        RemotingCommand cluster = client.invokeSync(nameServer.address(),
                RemotingCommand.createRequest(RequestCode.GET_BROKER_CLUSTER_INFO), 3000);
        assertThat(Json.decode(cluster.body(), ClusterInfo.class).clusterAddrTable()).containsKey("DefaultCluster");

        RemotingCommand missing = client.invokeSync(nameServer.address(), topicRequest(RequestCode.GET_ROUTEINFO_BY_TOPIC, "nope"), 3000);
        assertThat(missing.code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(missing.remark()).contains("nope").contains("create it");

        broker.closeChannel(nameServer.address());
        await().atMost(Duration.ofSeconds(10)).until(() -> nameServer.routes().pickupTopicRouteData("orders") == null);
    }

    @Test
    void badRequestsGetClearAnswersAndTheServerKeepsServing() throws Exception {
        RemotingCommand noHeader = RemotingCommand.createRequest(RequestCode.REGISTER_BROKER);
        RemotingCommand answer = client.invokeSync(nameServer.address(), noHeader, 3000);
        assertThat(answer.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(answer.remark()).contains("brokerName");

        RemotingCommand badBody = RemotingCommand.createRequest(RequestCode.REGISTER_BROKER);
        badBody.writeHeader((new RegisterBrokerRequest("b", "h:1", "c", 0, null)));
        badBody.setBody("{oops".getBytes());
        assertThat(client.invokeSync(nameServer.address(), badBody, 3000).remark()).contains("RegisterBrokerBody");

        RemotingCommand wrong = client.invokeSync(nameServer.address(), RemotingCommand.createRequest(RequestCode.PULL_MESSAGE), 3000);
        assertThat(wrong.code()).isEqualTo(ResponseCode.REQUEST_CODE_NOT_SUPPORTED);

        RemotingCommand fine = client.invokeSync(nameServer.address(),
                RemotingCommand.createRequest(RequestCode.GET_ALL_TOPIC_LIST_FROM_NAMESERVER), 3000);
        assertThat(fine.code()).isEqualTo(ResponseCode.SUCCESS);
    }

    private static RemotingCommand topicRequest(int code, String topic) {
        RemotingCommand r = RemotingCommand.createRequest(code);
        r.writeHeader(new TopicRequest(topic));
        return r;
    }

    private RemotingCommand registration(String addr, long brokerId, int masterEpoch) {
        RemotingCommand register = RemotingCommand.createRequest(RequestCode.REGISTER_BROKER);
        register.writeHeader(new RegisterBrokerRequest("broker-a", addr, "DefaultCluster", brokerId, null,
                masterEpoch));
        register.setBody(Json.encode(new RegisterBrokerBody(Map.of("orders", new TopicConfig("orders", 4)),
                new DataVersion(1, brokerId + 1))));
        return register;
    }

    /**
     * A slave elected master registers as id 0, with a higher master epoch, while the old master still holds its
     * connection (paused, or cut off from the controllers only): the entry moves to the new master, and the old one
     * (at its lower epoch) cannot take it back; a
     * connection that never registered a replica of the group still cannot take a live master's name and id.
     */
    @Test
    void anElectedSlaveTakesIdZeroFromALiveOldMasterButAStrangerCannot() throws Exception {
        NettyRemotingClient slave = new NettyRemotingClient(new NettyClientConfig());
        NettyRemotingClient stranger = new NettyRemotingClient(new NettyClientConfig());
        slave.start();
        stranger.start();
        try {
            String ns = nameServer.address();
            assertThat(broker.invokeSync(ns, registration("127.0.0.1:10911", 0, 1), 3000).code())
                    .isEqualTo(ResponseCode.SUCCESS);
            assertThat(slave.invokeSync(ns, registration("127.0.0.1:10921", 1, 1), 3000).code())
                    .isEqualTo(ResponseCode.SUCCESS);

            RemotingCommand rogue = stranger.invokeSync(ns, registration("127.0.0.1:10931", 0, 2), 3000);
            assertThat(rogue.code()).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(rogue.remark()).contains("broker-a id=0 is registered by a live broker at 127.0.0.1:10911");

            assertThat(slave.invokeSync(ns, registration("127.0.0.1:10921", 0, 2), 3000).code())
                    .as("the elected replica takes over").isEqualTo(ResponseCode.SUCCESS);
            assertThat(nameServer.routes().pickupTopicRouteData("orders").brokerDatas().get(0).brokerAddrs())
                    .containsEntry(0L, "127.0.0.1:10921").doesNotContainValue("127.0.0.1:10911");

            RemotingCommand back = broker.invokeSync(ns, registration("127.0.0.1:10911", 0, 1), 3000);
            assertThat(back.code()).as("the deposed master cannot take id 0 back").isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(broker.invokeSync(ns, registration("127.0.0.1:10911", 2, 2), 3000).code())
                    .as("it rejoins as a slave").isEqualTo(ResponseCode.SUCCESS);
            assertThat(nameServer.routes().pickupTopicRouteData("orders").brokerDatas().get(0).brokerAddrs())
                    .containsEntry(0L, "127.0.0.1:10921").containsEntry(2L, "127.0.0.1:10911");
        } finally {
            stranger.shutdown();
            slave.shutdown();
        }
    }
}

package dev.wharf.client.impl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.QueueData;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.body.TopicPerm;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.RouteHeaders.TopicRequest;
import dev.wharf.remoting.NettyRemotingServer;
import dev.wharf.remoting.NettyServerConfig;
import dev.wharf.remoting.RemotingExecutors;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two NameServer stand-ins on loopback: the client keeps answering while either one lives. */
class NameServerFailoverTest {

    private final ExecutorService executor = RemotingExecutors.bounded("fake-namesrv", 2, 100);
    private final NettyRemotingServer first = server("first");
    private final NettyRemotingServer second = server("second");
    private final AtomicInteger firstCalls = new AtomicInteger();
    private final AtomicInteger secondCalls = new AtomicInteger();
    private ClientInstance instance;

    private NettyRemotingServer server(String tag) {
        NettyServerConfig config = new NettyServerConfig();
        config.setListenPort(0);
        NettyRemotingServer s = new NettyRemotingServer(config);
        s.registerProcessor(RequestCode.GET_ROUTEINFO_BY_TOPIC, (channel, request) -> {
            ("first".equals(tag) ? firstCalls : secondCalls).incrementAndGet();
            String topic = HeaderCodec.decode(request.extFields(), TopicRequest.class).topic();
            if (topic.startsWith("unknown")) {
                return RemotingCommand.createResponse(ResponseCode.TOPIC_NOT_EXIST, "no route");
            }
            TopicRouteData route = new TopicRouteData(
                    List.of(new QueueData("broker-" + tag, 4, 4, TopicPerm.READ | TopicPerm.WRITE, 0)),
                    List.of(new BrokerData("c", "broker-" + tag, Map.of(0L, "127.0.0.1:1"))));
            return RemotingCommand.createResponse(ResponseCode.SUCCESS, null).setBody(Json.encode(route));
        }, executor);
        s.start();
        return s;
    }

    @AfterEach
    void stop() {
        if (instance != null) {
            instance.release();
        }
        first.shutdown();
        second.shutdown();
        executor.shutdownNow();
    }

    private ClientInstance instance() throws ClientException {
        ClientConfig config = new ClientConfig();
        config.setInstanceName("failover-" + System.nanoTime());
        config.setNamesrvAddr(first.localAddress() + ";" + second.localAddress());
        instance = ClientInstance.acquire(config);
        return instance;
    }

    @Test
    void aDeadNameServerIsSkippedAndTheLiveOneIsAskedFirstFromThenOn() throws Exception {
        NameServerApi api = instance().nameServer();
        assertThat(api.route("t").queueDatas().get(0).brokerName()).isEqualTo("broker-first");
        assertThat(firstCalls).hasValue(1);

        first.shutdown();
        assertThat(api.route("t").queueDatas().get(0).brokerName()).isEqualTo("broker-second");
        assertThat(api.route("t2")).isNotNull();
        assertThat(secondCalls).hasValue(2);
        assertThat(api.addresses().inTryOrder().get(0)).isEqualTo(second.localAddress());
    }

    @Test
    void aTopicUnknownEverywhereHasNoRouteAndAllDeadIsAClearError() throws Exception {
        NameServerApi api = instance().nameServer();
        assertThat(api.route("unknown-topic")).isNull();
        assertThat(firstCalls.get() + secondCalls.get()).as("both were asked").isEqualTo(2);

        first.shutdown();
        second.shutdown();
        assertThatThrownBy(() -> api.route("t"))
                .isInstanceOf(ClientException.class)
                .hasMessageContaining("No NameServer of")
                .hasMessageContaining("namesrvAddr")
                .satisfies(e -> assertThat(((ClientException) e).isNoResponse()).isTrue());
    }

    @Test
    void routesAreCachedAndBrokerAddressesKnown() throws Exception {
        ClientInstance i = instance();
        assertThat(i.publishInfo("t").queues()).hasSize(4);
        assertThat(i.masterAddress("broker-first")).isEqualTo("127.0.0.1:1");
        assertThat(i.subscribeQueues("t")).hasSize(4);
        assertThat(i.publishInfo("unknown-x")).isNull();
    }
}

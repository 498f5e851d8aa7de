package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel;
import dev.wharf.protocol.body.Heartbeat.ConsumerData;
import dev.wharf.protocol.body.Heartbeat.ConsumerListBody;
import dev.wharf.protocol.body.Heartbeat.HeartbeatData;
import dev.wharf.protocol.body.Heartbeat.LockBatchRequestBody;
import dev.wharf.protocol.body.Heartbeat.LockBatchResponseBody;
import dev.wharf.protocol.body.Heartbeat.ProducerData;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.ClientHeaders.ConsumerGroupRequest;
import dev.wharf.protocol.header.ClientHeaders.NotifyConsumerIdsChangedRequest;
import dev.wharf.protocol.header.ClientHeaders.UnregisterClientRequest;
import dev.wharf.protocol.header.HeaderCodec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientManagementTest {

    private static final String GROUP = "g-members";

    @TempDir
    Path dir;

    private Broker broker;
    private final List<ProtocolClient> clients = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        broker = BrokerFixture.start(dir, s -> {
            s.broker().setChannelExpiredTimeout(1_000);
            s.broker().setClientHousekeepingInterval(200);
        });
    }

    @AfterEach
    void stop() {
        clients.forEach(ProtocolClient::close);
        broker.shutdown();
    }

    private ProtocolClient connect(List<NotifyConsumerIdsChangedRequest> notices) {
        ProtocolClient client = new ProtocolClient(broker.address());
        clients.add(client);
        client.onRequest(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, (channel, request) -> {
            notices.add(HeaderCodec.decode(request.extFields(), NotifyConsumerIdsChangedRequest.class));
            return null;
        });
        return client;
    }

    private static HeartbeatData consumerHeartbeat(String clientId, String group) {
        ConsumerData consumer = new ConsumerData(group, ConsumerModel.ConsumeType.CONSUME_PASSIVELY,
                ConsumerModel.MessageModel.CLUSTERING, ConsumerModel.ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET,
                Set.of(new SubscriptionData("Members", "*", ConsumerModel.ExpressionType.TAG, Set.of(), Set.of(), 1)));
        return new HeartbeatData(clientId, Set.of(new ProducerData("pg-members")), Set.of(consumer));
    }

    private static void heartbeat(ProtocolClient client, HeartbeatData data) throws Exception {
        RemotingCommand r = client.invokeJson(RequestCode.HEART_BEAT, data);
        assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
    }

    private List<String> members(ProtocolClient client) throws Exception {
        RemotingCommand r = client.invoke(RequestCode.GET_CONSUMER_LIST_BY_GROUP, new ConsumerGroupRequest(GROUP));
        assertThat(r.code()).isEqualTo(ResponseCode.SUCCESS);
        return Json.decode(r.body(), ConsumerListBody.class).consumerIdList();
    }

    @Test
    void membershipChangesReachTheMembersAndAClosedChannelLeaves() throws Exception {
        List<NotifyConsumerIdsChangedRequest> seenByC1 = new CopyOnWriteArrayList<>();
        ProtocolClient c1 = connect(seenByC1);
        ProtocolClient c2 = connect(new CopyOnWriteArrayList<>());
        heartbeat(c1, consumerHeartbeat("c1", GROUP));
        assertThat(members(c1)).containsExactly("c1");
        assertThat(broker.topics().find("%RETRY%" + GROUP)).isNotNull();
        assertThat(broker.producers().producerChannels("pg-members")).hasSize(1);
        seenByC1.clear();

        heartbeat(c2, consumerHeartbeat("c2", GROUP));
        assertThat(members(c1)).containsExactly("c1", "c2");
        await().atMost(Duration.ofSeconds(5)).until(() -> seenByC1.stream()
                .anyMatch(n -> n.consumerGroup().equals(GROUP) && n.offsetResetTopic() == null));

        // a repeated heartbeat is no membership change
        seenByC1.clear();
        heartbeat(c2, consumerHeartbeat("c2", GROUP));
        assertThat(members(c1)).containsExactly("c1", "c2");

        c2.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> members(c1).equals(List.of("c1")));
        await().atMost(Duration.ofSeconds(5)).until(() -> !seenByC1.isEmpty());
        assertThat(broker.producers().producerChannels("pg-members")).hasSize(1);
    }

    @Test
    void unregisterRemovesTheClientFromItsGroups() throws Exception {
        ProtocolClient c1 = connect(new CopyOnWriteArrayList<>());
        heartbeat(c1, consumerHeartbeat("c1", GROUP));
        RemotingCommand r = c1.invoke(RequestCode.UNREGISTER_CLIENT,
                new UnregisterClientRequest("c1", "pg-members", GROUP));
        assertThat(r.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(members(c1)).isEmpty();
        assertThat(broker.producers().producerChannels("pg-members")).isEmpty();
    }

    @Test
    void aClientWithoutHeartbeatsIsDroppedAndDisconnected() throws Exception {
        ProtocolClient c1 = connect(new CopyOnWriteArrayList<>());
        heartbeat(c1, consumerHeartbeat("c1", GROUP));
        assertThat(broker.consumers().consumerIds(GROUP)).containsExactly("c1");
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.consumers().consumerIds(GROUP).isEmpty()
                && broker.producers().producerChannels("pg-members").isEmpty());
    }

    @Test
    void aQueueIsLockedByOneClientOfAGroupAtATime() throws Exception {
        ProtocolClient c1 = connect(new CopyOnWriteArrayList<>());
        ProtocolClient c2 = connect(new CopyOnWriteArrayList<>());
        heartbeat(c1, consumerHeartbeat("c1", GROUP));
        heartbeat(c2, consumerHeartbeat("c2", GROUP));
        MessageQueue q0 = new MessageQueue("Members", "broker-a", 0);
        MessageQueue q1 = new MessageQueue("Members", "broker-a", 1);
        MessageQueue elsewhere = new MessageQueue("Members", "broker-b", 0);

        assertThat(lock(c1, "c1", Set.of(q0, q1, elsewhere))).containsExactlyInAnyOrder(q0, q1);
        assertThat(lock(c2, "c2", Set.of(q1))).isEmpty();
        RemotingCommand unlock = c1.invokeJson(RequestCode.UNLOCK_BATCH_MQ,
                new LockBatchRequestBody(GROUP, "c1", Set.of(q1)));
        assertThat(unlock.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(lock(c2, "c2", Set.of(q1))).containsExactly(q1);
        // renewal by the holder keeps the lock
        assertThat(lock(c1, "c1", Set.of(q0))).containsExactly(q0);
        // a member that leaves gives its locks up
        c1.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> lock(c2, "c2", Set.of(q0)).contains(q0));
    }

    private static Set<MessageQueue> lock(ProtocolClient client, String clientId, Set<MessageQueue> queues)
            throws Exception {
        RemotingCommand r = client.invokeJson(RequestCode.LOCK_BATCH_MQ, new LockBatchRequestBody(GROUP, clientId, queues));
        assertThat(r.code()).isEqualTo(ResponseCode.SUCCESS);
        return Json.decode(r.body(), LockBatchResponseBody.class).lockOKMQSet();
    }

    @Test
    void badHeartbeatsAreRefusedWithAReason() throws Exception {
        ProtocolClient c1 = connect(new CopyOnWriteArrayList<>());
        RemotingCommand noId = c1.invokeJson(RequestCode.HEART_BEAT, new HeartbeatData(null, Set.of(), Set.of()));
        assertThat(noId.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(noId.remark()).contains("clientID");
        RemotingCommand badGroup = c1.invokeJson(RequestCode.HEART_BEAT, consumerHeartbeat("c1", "bad group"));
        assertThat(badGroup.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(badGroup.remark()).contains("bad group");
    }
}

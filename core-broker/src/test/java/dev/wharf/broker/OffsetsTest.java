package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel;
import dev.wharf.protocol.body.Heartbeat.ConsumerData;
import dev.wharf.protocol.body.Heartbeat.HeartbeatData;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.Stats.ConsumeStats;
import dev.wharf.protocol.body.Stats.QueueOffset;
import dev.wharf.protocol.body.Stats.QueueProgress;
import dev.wharf.protocol.body.Stats.ResetOffsetBody;
import dev.wharf.protocol.body.Stats.TopicStats;
import dev.wharf.protocol.header.ClientHeaders.NotifyConsumerIdsChangedRequest;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.MessageHeaders.PullMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.PullSysFlag;
import dev.wharf.protocol.header.OffsetHeaders.ConsumeStatsRequest;
import dev.wharf.protocol.header.OffsetHeaders.OffsetResponse;
import dev.wharf.protocol.header.OffsetHeaders.QueryConsumerOffsetRequest;
import dev.wharf.protocol.header.OffsetHeaders.QueueRequest;
import dev.wharf.protocol.header.OffsetHeaders.ResetOffsetRequest;
import dev.wharf.protocol.header.OffsetHeaders.SearchOffsetRequest;
import dev.wharf.protocol.header.OffsetHeaders.UpdateConsumerOffsetRequest;
import dev.wharf.protocol.header.RouteHeaders.TopicRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OffsetsTest {

    @TempDir
    Path dir;

    private Broker broker;
    private ProtocolClient client;

    private void start() throws Exception {
        broker = BrokerFixture.start(dir, s -> s.broker().setFlushConsumerOffsetInterval(200));
        client = new ProtocolClient(broker.address());
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (broker != null) {
            broker.shutdown();
        }
    }

    private long offsetOf(int code, Record header) throws Exception {
        RemotingCommand r = client.invoke(code, header);
        assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
        return HeaderCodec.decode(r.extFields(), OffsetResponse.class).offset();
    }

    private void sendMany(String topic, int queueId, int count) throws Exception {
        for (int i = 0; i < count; i++) {
            client.sendOk(topic, queueId, new byte[] {(byte) i}, Map.of());
        }
        long target = count;
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.store().getMaxOffsetInQueue(topic, queueId) >= target);
    }

    @Test
    void committedOffsetsSurviveARestart() throws Exception {
        start();
        RemotingCommand none = client.invoke(RequestCode.QUERY_CONSUMER_OFFSET,
                new QueryConsumerOffsetRequest("g", "Orders", 0));
        assertThat(none.code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        assertThat(none.remark()).contains("no committed offset");

        sendMany("Orders", 0, 3);
        RemotingCommand update = client.invoke(RequestCode.UPDATE_CONSUMER_OFFSET,
                new UpdateConsumerOffsetRequest("g", "Orders", 0, 2));
        assertThat(update.code()).isEqualTo(ResponseCode.SUCCESS);
        // a pull carrying COMMIT_OFFSET commits too
        client.invoke(RequestCode.PULL_MESSAGE, new PullMessageRequest("g", "Orders", 1, 0, 1,
                PullSysFlag.SUBSCRIPTION | PullSysFlag.COMMIT_OFFSET, 7, 0, "*", 0, "TAG"));
        assertThat(offsetOf(RequestCode.QUERY_CONSUMER_OFFSET, new QueryConsumerOffsetRequest("g", "Orders", 0)))
                .isEqualTo(2);
        assertThat(offsetOf(RequestCode.QUERY_CONSUMER_OFFSET, new QueryConsumerOffsetRequest("g", "Orders", 1)))
                .isEqualTo(7);
        // the periodic flush writes the file without a shutdown
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve("config/consumerOffset.json"))
                && Files.readString(dir.resolve("config/consumerOffset.json")).contains("Orders@g"));

        client.close();
        broker.shutdown();
        start();
        assertThat(offsetOf(RequestCode.QUERY_CONSUMER_OFFSET, new QueryConsumerOffsetRequest("g", "Orders", 0)))
                .isEqualTo(2);
        assertThat(offsetOf(RequestCode.QUERY_CONSUMER_OFFSET, new QueryConsumerOffsetRequest("g", "Orders", 1)))
                .isEqualTo(7);
        assertThat(broker.topics().find("Orders")).isNotNull();
        assertThat(broker.store().getMaxOffsetInQueue("Orders", 0)).isEqualTo(3);
    }

    @Test
    void queueBoundsAndTimeSearchAreAnswered() throws Exception {
        start();
        sendMany("Bounds", 0, 5);
        assertThat(offsetOf(RequestCode.GET_MAX_OFFSET, new QueueRequest("Bounds", 0))).isEqualTo(5);
        assertThat(offsetOf(RequestCode.GET_MIN_OFFSET, new QueueRequest("Bounds", 0))).isZero();
        long earliest = offsetOf(RequestCode.GET_EARLIEST_MSG_STORETIME, new QueueRequest("Bounds", 0));
        assertThat(earliest).isPositive().isLessThanOrEqualTo(System.currentTimeMillis());
        assertThat(offsetOf(RequestCode.SEARCH_OFFSET_BY_TIMESTAMP, new SearchOffsetRequest("Bounds", 0, 0L))).isZero();
        assertThat(offsetOf(RequestCode.GET_MAX_OFFSET, new QueueRequest("Bounds", 3))).isZero();

        RemotingCommand stats = client.invoke(RequestCode.GET_TOPIC_STATS_INFO, new TopicRequest("Bounds"));
        TopicStats topicStats = Json.decode(stats.body(), TopicStats.class);
        assertThat(topicStats.offsetTable()).hasSize(4);
        assertThat(topicStats.offsetTable().get(0).maxOffset()).isEqualTo(5);
        assertThat(topicStats.offsetTable().get(0).lastUpdateTimestamp()).isGreaterThanOrEqualTo(earliest);
    }

    @Test
    void consumeStatsShowBrokerOffsetConsumerOffsetAndLastPull() throws Exception {
        start();
        sendMany("Stats", 0, 4);
        long before = System.currentTimeMillis();
        RemotingCommand pulled = client.pull("g-stats", "Stats", 0, 0, 32, "*", "TAG");
        assertThat(ProtocolClient.messages(pulled)).hasSize(4);
        client.invoke(RequestCode.UPDATE_CONSUMER_OFFSET, new UpdateConsumerOffsetRequest("g-stats", "Stats", 0, 3));

        RemotingCommand r = client.invoke(RequestCode.GET_CONSUME_STATS, new ConsumeStatsRequest("g-stats", null));
        assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
        ConsumeStats stats = Json.decode(r.body(), ConsumeStats.class);
        QueueProgress q0 = stats.offsetTable().stream().filter(p -> p.mq().queueId() == 0).findFirst().orElseThrow();
        assertThat(q0.brokerOffset()).isEqualTo(4);
        assertThat(q0.consumerOffset()).isEqualTo(3);
        assertThat(q0.lag()).isEqualTo(1);
        assertThat(q0.lastTimestamp()).isGreaterThanOrEqualTo(before);
        assertThat(q0.mq().brokerName()).isEqualTo("broker-a");
        assertThat(stats.offsetTable()).hasSize(4);

        RemotingCommand unknown = client.invoke(RequestCode.GET_CONSUME_STATS, new ConsumeStatsRequest("nobody", null));
        assertThat(unknown.code()).isEqualTo(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST);
        assertThat(unknown.remark()).contains("nobody");
    }

    @Test
    void aResetMovesOffsetsNotifiesMembersAndIgnoresStaleCommits() throws Exception {
        start();
        sendMany("Reset", 0, 6);
        List<NotifyConsumerIdsChangedRequest> notices = new CopyOnWriteArrayList<>();
        client.onRequest(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED, (channel, request) -> {
            notices.add(HeaderCodec.decode(request.extFields(), NotifyConsumerIdsChangedRequest.class));
            return null;
        });
        ConsumerData member = new ConsumerData("g-reset", ConsumerModel.ConsumeType.CONSUME_PASSIVELY,
                ConsumerModel.MessageModel.CLUSTERING, ConsumerModel.ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET,
                Set.of(new SubscriptionData("Reset", "*", ConsumerModel.ExpressionType.TAG, Set.of(), Set.of(), 1)));
        client.invokeJson(RequestCode.HEART_BEAT, new HeartbeatData("c1", Set.of(), Set.of(member)));
        client.invoke(RequestCode.UPDATE_CONSUMER_OFFSET, new UpdateConsumerOffsetRequest("g-reset", "Reset", 0, 5));
        await().atMost(Duration.ofSeconds(5)).until(() -> !notices.isEmpty());
        notices.clear();

        RemotingCommand reset = client.invoke(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET,
                new ResetOffsetRequest("Reset", "g-reset", ResetOffsetRequest.EARLIEST, true));
        assertThat(reset.code()).as(reset.remark()).isEqualTo(ResponseCode.SUCCESS);
        List<QueueOffset> moved = Json.decode(reset.body(), ResetOffsetBody.class).offsetTable();
        assertThat(moved).hasSize(4).allMatch(q -> q.offset() == 0);
        await().atMost(Duration.ofSeconds(5)).until(() -> notices.stream()
                .anyMatch(n -> "Reset".equals(n.offsetResetTopic()) && "g-reset".equals(n.consumerGroup())));

        // the member commits its old position before it has re-read: ignored
        client.invoke(RequestCode.UPDATE_CONSUMER_OFFSET, new UpdateConsumerOffsetRequest("g-reset", "Reset", 0, 5));
        assertThat(offsetOf(RequestCode.QUERY_CONSUMER_OFFSET, new QueryConsumerOffsetRequest("g-reset", "Reset", 0)))
                .isZero();
        // the query above was the member re-reading its offset: its commits count again
        client.invoke(RequestCode.UPDATE_CONSUMER_OFFSET, new UpdateConsumerOffsetRequest("g-reset", "Reset", 0, 1));
        assertThat(offsetOf(RequestCode.QUERY_CONSUMER_OFFSET, new QueryConsumerOffsetRequest("g-reset", "Reset", 0)))
                .isEqualTo(1);
        assertThat(Files.readString(dir.resolve("config/consumerOffset.json"))).contains("Reset@g-reset");

        RemotingCommand latest = client.invoke(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET,
                new ResetOffsetRequest("Reset", "g-reset", ResetOffsetRequest.LATEST, true));
        assertThat(Json.decode(latest.body(), ResetOffsetBody.class).offsetTable().get(0).offset()).isEqualTo(6);
        // without force a reset never skips unconsumed messages
        client.invoke(RequestCode.QUERY_CONSUMER_OFFSET, new QueryConsumerOffsetRequest("g-reset", "Reset", 0));
        client.invoke(RequestCode.UPDATE_CONSUMER_OFFSET, new UpdateConsumerOffsetRequest("g-reset", "Reset", 0, 2));
        RemotingCommand gentle = client.invoke(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET,
                new ResetOffsetRequest("Reset", "g-reset", ResetOffsetRequest.LATEST, false));
        assertThat(Json.decode(gentle.body(), ResetOffsetBody.class).offsetTable().get(0).offset()).isEqualTo(2);

        RemotingCommand badTime = client.invoke(RequestCode.INVOKE_BROKER_TO_RESET_OFFSET,
                new ResetOffsetRequest("Reset", "g-reset", -7, true));
        assertThat(badTime.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
    }

    @Test
    void deletingATopicDropsItsQueuesAndOffsets() throws Exception {
        start();
        sendMany("Doomed", 0, 2);
        client.invoke(RequestCode.UPDATE_CONSUMER_OFFSET, new UpdateConsumerOffsetRequest("g", "Doomed", 0, 1));
        RemotingCommand deleted = client.invoke(RequestCode.DELETE_TOPIC_IN_BROKER, new TopicRequest("Doomed"));
        assertThat(deleted.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(broker.topics().find("Doomed")).isNull();
        assertThat(broker.offsets().queryOffset("g", "Doomed", 0)).isEqualTo(-1);
        assertThat(broker.store().topicsWithQueues()).doesNotContain("Doomed");
        assertThat(client.pull("g", "Doomed", 0, 0, 1, "*", "TAG").code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
    }
}

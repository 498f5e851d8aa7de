package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageId;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BatchMessageCodec;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.RouteData.TopicConfigTable;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.MessageHeaders.PullMessageResponse;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.SendMessageResponse;
import dev.wharf.protocol.header.RouteHeaders.CreateTopicRequest;
import dev.wharf.protocol.body.TopicPerm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SendPullTest {

    @TempDir
    Path dir;

    private Broker broker;
    private ProtocolClient client;

    @BeforeEach
    void start() throws Exception {
        broker = BrokerFixture.start(dir);
        client = new ProtocolClient(broker.address());
    }

    @AfterEach
    void stop() {
        client.close();
        broker.shutdown();
    }

    /** Pulls until the broker answers SUCCESS (the dispatcher indexes sent messages asynchronously). */
    private RemotingCommand pullFound(String group, String topic, int queueId, long offset, int max, String expr,
                                      String type) {
        AtomicReference<RemotingCommand> found = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            RemotingCommand r = client.pull(group, topic, queueId, offset, max, expr, type);
            if (r.code() == ResponseCode.SUCCESS) {
                found.set(r);
                return true;
            }
            return false;
        });
        return found.get();
    }

    @Test
    void aSentMessageComesBackWithEveryField() throws Exception {
        Map<String, String> props = new LinkedHashMap<>();
        props.put(MessageProperties.TAGS, "TagA");
        props.put(MessageProperties.KEYS, "order-1 order-2");
        props.put(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, "0123456789ABCDEF0123456789ABCDEF");
        props.put("custom", "välue with ünïcode");
        long born = System.currentTimeMillis() - 1_000;
        SendMessageRequest header = new SendMessageRequest("pg", "RoundTrip", 0, 1, 0, born, 42,
                dev.wharf.common.message.MessageDecoder.encodeProperties(props), 2, null, false);
        byte[] body = "hello wharf".getBytes(StandardCharsets.UTF_8);

        RemotingCommand sent = client.invoke(RequestCode.SEND_MESSAGE_V2, header, body);
        assertThat(sent.code()).as(sent.remark()).isEqualTo(ResponseCode.SUCCESS);
        SendMessageResponse answer = HeaderCodec.decode(sent.extFields(), SendMessageResponse.class);
        assertThat(answer.queueId()).isEqualTo(1);
        assertThat(answer.queueOffset()).isZero();
        assertThat(MessageId.isValid(answer.msgId())).isTrue();
        assertThat(HostAddress.toString(MessageId.storeHost(answer.msgId()))).isEqualTo(broker.address());

        RemotingCommand pulled = pullFound("g1", "RoundTrip", 1, 0, 32, "*", "TAG");
        PullMessageResponse bounds = ProtocolClient.pullResponse(pulled);
        assertThat(bounds.nextBeginOffset()).isEqualTo(1);
        assertThat(bounds.minOffset()).isZero();
        assertThat(bounds.maxOffset()).isEqualTo(1);
        List<MessageExt> messages = ProtocolClient.messages(pulled);
        assertThat(messages).hasSize(1);
        MessageExt m = messages.get(0);
        assertThat(m.getTopic()).isEqualTo("RoundTrip");
        assertThat(m.getBody()).isEqualTo(body);
        assertThat(m.getFlag()).isEqualTo(42);
        assertThat(m.getQueueId()).isEqualTo(1);
        assertThat(m.getQueueOffset()).isZero();
        assertThat(m.getProperties()).containsAllEntriesOf(props);
        assertThat(m.getBornTimestamp()).isEqualTo(born);
        assertThat(m.getStoreTimestamp()).isGreaterThanOrEqualTo(born);
        assertThat(m.getReconsumeTimes()).isEqualTo(2);
        assertThat(HostAddress.toString(m.getStoreHost())).isEqualTo(broker.address());
        assertThat(HostAddress.toString(m.getBornHost())).startsWith("127.0.0.1:");
        assertThat(m.getOffsetMsgId()).isEqualTo(answer.msgId());
        assertThat(m.getMsgId()).isEqualTo("0123456789ABCDEF0123456789ABCDEF");
    }

    @Test
    void aBatchGoesIntoOneQueueWithOneIdPerMessage() throws Exception {
        List<Message> batch = List.of(new Message("Batch", "t1", "k1", "one".getBytes(StandardCharsets.UTF_8)),
                new Message("Batch", "t2", null, "two".getBytes(StandardCharsets.UTF_8)),
                new Message("Batch", null, "k3", "three".getBytes(StandardCharsets.UTF_8)));
        SendMessageRequest header = new SendMessageRequest("pg", "Batch", 0, 2, 0, System.currentTimeMillis(), 0,
                null, 0, null, true);
        RemotingCommand sent = client.invoke(RequestCode.SEND_BATCH_MESSAGE, header, BatchMessageCodec.encode(batch));
        assertThat(sent.code()).as(sent.remark()).isEqualTo(ResponseCode.SUCCESS);
        SendMessageResponse answer = HeaderCodec.decode(sent.extFields(), SendMessageResponse.class);
        String[] ids = answer.msgId().split(",");
        assertThat(ids).hasSize(3);
        assertThat(answer.queueId()).isEqualTo(2);
        assertThat(answer.queueOffset()).isZero();

        RemotingCommand pulled = pullFound("g1", "Batch", 2, 0, 32, "*", "TAG");
        List<MessageExt> messages = ProtocolClient.messages(pulled);
        assertThat(messages).extracting(m -> new String(m.getBody(), StandardCharsets.UTF_8))
                .containsExactly("one", "two", "three");
        assertThat(messages).extracting(MessageExt::getQueueOffset).containsExactly(0L, 1L, 2L);
        assertThat(messages).extracting(MessageExt::getOffsetMsgId).containsExactly(ids);
        assertThat(messages.get(0).getTags()).isEqualTo("t1");
        assertThat(messages.get(2).getKeys()).isEqualTo("k3");
    }

    @Test
    void theBrokerPicksQueuesRoundRobinWhenTheClientDoesNot() throws Exception {
        Set<Integer> queues = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            queues.add(client.sendOk("Spread", -1, new byte[] {(byte) i}, Map.of()).queueId());
        }
        assertThat(queues).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void anUnknownTopicIsCreatedOnFirstSendWithTheDefaultQueueCount() throws Exception {
        client.sendOk("AutoCreated", 0, new byte[] {1}, Map.of());
        RemotingCommand all = client.invoke(RequestCode.GET_ALL_TOPIC_CONFIG, null);
        TopicConfigTable table = Json.decode(all.body(), TopicConfigTable.class);
        assertThat(table.topicConfigTable().get("AutoCreated").writeQueueNums()).isEqualTo(4);
        assertThat(table.topicConfigTable()).containsKeys("SCHEDULE_TOPIC_XXXX", "RMQ_SYS_TRANS_HALF_TOPIC",
                "RMQ_SYS_TRANS_OP_HALF_TOPIC", "TRANS_CHECK_MAX_TIME_TOPIC");
        // one queue per delay level and the timer queue of arbitrary delivery times
        assertThat(table.topicConfigTable().get("SCHEDULE_TOPIC_XXXX").readQueueNums()).isEqualTo(19);
    }

    @Test
    void tagExpressionsFilterOnTheBroker() throws Exception {
        for (String tag : List.of("A", "B", "A", "C")) {
            client.sendOk("Tagged", 0, tag.getBytes(StandardCharsets.UTF_8), Map.of(MessageProperties.TAGS, tag));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.store().getMaxOffsetInQueue("Tagged", 0) == 4);
        List<MessageExt> a = ProtocolClient.messages(client.pull("g", "Tagged", 0, 0, 32, "A", "TAG"));
        assertThat(a).extracting(MessageExt::getTags).containsExactly("A", "A");
        List<MessageExt> bc = ProtocolClient.messages(client.pull("g", "Tagged", 0, 0, 32, "B || C", "TAG"));
        assertThat(bc).extracting(MessageExt::getTags).containsExactly("B", "C");
        RemotingCommand none = client.pull("g", "Tagged", 0, 0, 32, "Z", "TAG");
        assertThat(none.code()).isEqualTo(ResponseCode.PULL_RETRY_IMMEDIATELY);
        assertThat(ProtocolClient.pullResponse(none).nextBeginOffset()).isEqualTo(4);
    }

    @Test
    void aOnewaySendIsStoredWithoutAnAnswer() throws Exception {
        RemotingCommand request = ProtocolClient.request(RequestCode.SEND_MESSAGE,
                ProtocolClient.sendHeader("Oneway", 0, Map.of())).setBody(new byte[] {7});
        client.oneway(request);
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.store().getMaxOffsetInQueue("Oneway", 0) == 1);
    }

    @Test
    void offsetsOutsideTheQueueAreMovedAndTheEndIsNotFound() throws Exception {
        client.sendOk("Bounds", 0, new byte[] {1}, Map.of());
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.store().getMaxOffsetInQueue("Bounds", 0) == 1);
        RemotingCommand end = client.pull("g", "Bounds", 0, 1, 32, "*", "TAG");
        assertThat(end.code()).isEqualTo(ResponseCode.PULL_NOT_FOUND);
        assertThat(ProtocolClient.pullResponse(end).nextBeginOffset()).isEqualTo(1);
        RemotingCommand beyond = client.pull("g", "Bounds", 0, 50, 32, "*", "TAG");
        assertThat(beyond.code()).isEqualTo(ResponseCode.PULL_OFFSET_MOVED);
        assertThat(ProtocolClient.pullResponse(beyond).nextBeginOffset()).isEqualTo(1);
        RemotingCommand empty = client.pull("g", "Bounds", 3, 0, 32, "*", "TAG");
        assertThat(empty.code()).isEqualTo(ResponseCode.PULL_NOT_FOUND);
    }

    @Test
    void syncFlushSendsAreAnsweredFromTheStoresCompletion(@TempDir Path other) throws Exception {
        Broker sync = BrokerFixture.start(other, s -> {
            s.store().setFlushDiskType(dev.wharf.store.FlushDiskType.SYNC_FLUSH);
            s.broker().executors().setSendMessageThreadPoolNums(1);
        });
        try (ProtocolClient c = new ProtocolClient(sync.address())) {
            List<java.util.concurrent.CompletableFuture<RemotingCommand>> sends = new java.util.ArrayList<>();
            for (int i = 0; i < 50; i++) {
                sends.add(c.invokeAsync(ProtocolClient.request(RequestCode.SEND_MESSAGE,
                        ProtocolClient.sendHeader("Durable", 0, Map.of())).setBody(new byte[] {(byte) i}), 10_000));
            }
            Set<Long> offsets = new HashSet<>();
            for (var send : sends) {
                RemotingCommand r = send.get(10, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
                offsets.add(HeaderCodec.decode(r.extFields(), SendMessageResponse.class).queueOffset());
            }
            assertThat(offsets).hasSize(50);
            assertThat(sync.store().stats().flushCount()).isPositive();
        } finally {
            sync.shutdown();
        }
    }

    @Test
    void withAutoCreateOffAnUnknownTopicIsRefusedUntilCreated(@TempDir Path other) throws Exception {
        Broker strict = BrokerFixture.start(other, s -> s.broker().setAutoCreateTopicEnable(false));
        try (ProtocolClient c = new ProtocolClient(strict.address())) {
            RemotingCommand refused = c.send("Unknown", 0, new byte[] {1}, Map.of());
            assertThat(refused.code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
            assertThat(refused.remark()).contains("Unknown", "autoCreateTopicEnable", "UPDATE_AND_CREATE_TOPIC");

            RemotingCommand created = c.invoke(RequestCode.UPDATE_AND_CREATE_TOPIC,
                    new CreateTopicRequest("Unknown", 2, 2, TopicPerm.READ | TopicPerm.WRITE, 0, false));
            assertThat(created.code()).as(created.remark()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(c.sendOk("Unknown", 1, new byte[] {1}, Map.of()).queueId()).isEqualTo(1);
        } finally {
            strict.shutdown();
        }
    }
}

package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.client.consumer.PullStatus;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.protocol.body.Stats;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin client and the pull consumer against a real broker. */
class AdminAndPullTest {

    @TempDir
    Path dir;
    private TestWharf cluster;
    private AdminClient admin;
    private Producer producer;

    @BeforeEach
    void start() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        admin = new AdminClient(cluster.clientConfig());
        admin.start();
        cluster.track(admin::shutdown);
        producer = new Producer("admin-producer", cluster.clientConfig());
        producer.start();
        cluster.track(producer::shutdown);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private void createTopic(String topic, int queues) throws Exception {
        admin.createTopic(topic, queues, "DefaultCluster");
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> admin.route(topic) != null);
    }

    @Test
    void topicsClusterRouteQueryAndView() throws Exception {
        createTopic("admin-topic", 2);
        assertThat(admin.topics()).contains("admin-topic");
        assertThat(admin.clusterInfo().clusterAddrTable()).containsKey("DefaultCluster");
        assertThat(admin.route("admin-topic").queueDatas().get(0).writeQueueNums()).isEqualTo(2);

        SendResult sent = producer.send(new Message("admin-topic", "TagA", "order-7 customer-9",
                "payload".getBytes(StandardCharsets.UTF_8)));
        await().atMost(Duration.ofSeconds(10)).until(() ->
                !admin.queryByKey("admin-topic", "customer-9", 10, 0, Long.MAX_VALUE).isEmpty());
        List<MessageExt> byKey = admin.queryByKey("admin-topic", "customer-9", 10, 0, Long.MAX_VALUE);
        assertThat(byKey).hasSize(1);
        assertThat(byKey.get(0).getMsgId()).isEqualTo(sent.msgId());
        assertThat(admin.queryByKey("admin-topic", sent.msgId(), 10, 0, Long.MAX_VALUE)).hasSize(1);
        MessageExt viewed = admin.viewMessage(sent.offsetMsgId());
        assertThat(new String(viewed.getBody(), StandardCharsets.UTF_8)).isEqualTo("payload");
        assertThat(admin.maxOffset(sent.messageQueue())).isEqualTo(1);
        assertThat(admin.minOffset(sent.messageQueue())).isZero();

        assertThatThrownBy(() -> admin.viewMessage("xyz")).isInstanceOf(ClientException.class)
                .hasMessageContaining("hexadecimal");
        assertThatThrownBy(() -> admin.createTopic("t", 4, "no-such-cluster")).hasMessageContaining("no-such-cluster");
        assertThatThrownBy(() -> admin.route("never-created")).isInstanceOf(ClientException.class)
                .satisfies(e -> assertThat(((ClientException) e).responseCode()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST));

        admin.deleteTopic("admin-topic");
        await().atMost(Duration.ofSeconds(10)).until(() -> !admin.topics().contains("admin-topic"));
    }

    @Test
    void progressAndAResetThatOnlineConsumersFollow() throws Exception {
        createTopic("reset-topic", 2);
        Deliveries got = new Deliveries();
        PushConsumer consumer = new PushConsumer("reset-group", cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("reset-topic", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            got.add("c", msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);
        for (int i = 0; i < 10; i++) {
            producer.send(new Message("reset-topic", ("m" + i).getBytes(StandardCharsets.UTF_8)));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> got.distinct() == 10);
        await().atMost(Duration.ofSeconds(10)).until(() -> admin.consumerProgress("reset-group").stream()
                .filter(p -> p.mq().topic().equals("reset-topic")).mapToLong(Stats.QueueProgress::lag).sum() == 0);

        List<Stats.QueueOffset> reset = admin.resetOffset("reset-group", "reset-topic", AdminClient.EARLIEST);
        assertThat(reset).hasSize(2).allMatch(q -> q.offset() == 0);
        await().atMost(Duration.ofSeconds(20)).until(() -> got.total() >= 20);
        assertThat(got.distinct()).as("the same ten, again").isEqualTo(10);
    }

    @Test
    void pullConsumerReadsFiltersWaitsAndKeepsOffsets() throws Exception {
        createTopic("pull-topic", 1);
        for (int i = 0; i < 6; i++) {
            Message m = new Message("pull-topic", i % 2 == 0 ? "even" : "odd", null,
                    ("p" + i).getBytes(StandardCharsets.UTF_8));
            m.putProperty("n", String.valueOf(i));
            producer.send(m);
        }
        PullConsumer pull = new PullConsumer("pull-group", cluster.clientConfig());
        pull.start();
        cluster.track(pull::shutdown);
        MessageQueue mq = pull.fetchSubscribeMessageQueues("pull-topic").iterator().next();
        // a send returns once the record is stored; the consume queue is built a moment later
        await().atMost(Duration.ofSeconds(10)).until(() -> pull.maxOffset(mq) == 6);

        PullResult all = pull.pull(mq, null, 0, 32);
        assertThat(all.pullStatus()).isEqualTo(PullStatus.FOUND);
        assertThat(all.msgFoundList()).hasSize(6);
        assertThat(all.nextBeginOffset()).isEqualTo(6);

        PullResult even = pull.pull(mq, MessageSelector.byTag("even"), 0, 32);
        assertThat(even.msgFoundList()).extracting(MessageExt::getTags).containsOnly("even").hasSize(3);
        PullResult sql = pull.pull(mq, MessageSelector.bySql("n = '5'"), 0, 32);
        assertThat(sql.msgFoundList()).extracting(m -> m.getProperty("n")).containsExactly("5");

        assertThat(pull.pull(mq, null, 6, 32).pullStatus()).isEqualTo(PullStatus.NO_NEW_MSG);
        assertThat(pull.pull(mq, null, 1_000, 32).pullStatus()).isEqualTo(PullStatus.OFFSET_ILLEGAL);

        CompletableFuture<PullResult> held = CompletableFuture.supplyAsync(() -> {
            try {
                return pull.pullBlockIfNotFound(mq, null, 6, 32);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.broker("broker-a").heldPullCount() == 1);
        producer.send(new Message("pull-topic", "late".getBytes(StandardCharsets.UTF_8)));
        assertThat(held.get().msgFoundList()).extracting(m -> new String(m.getBody(), StandardCharsets.UTF_8))
                .containsExactly("late");
        assertThat(pull.pullAsync(mq, null, 0, 2).get().msgFoundList()).hasSize(2);

        pull.updateConsumeOffset(mq, 4);
        assertThat(pull.fetchConsumeOffset(mq, false)).isEqualTo(4);
        pull.shutdown();
        PullConsumer again = new PullConsumer("pull-group", cluster.clientConfig());
        again.start();
        cluster.track(again::shutdown);
        assertThat(again.fetchConsumeOffset(mq, true)).as("committed on shutdown").isEqualTo(4);
        assertThatThrownBy(() -> again.pull(mq, null, -1, 1)).hasMessageContaining("offset must be >= 0");
    }
}

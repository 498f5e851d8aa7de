package dev.wharf.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.client.consumer.PullStatus;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every way a RocketMQ producer sends, with default settings, and both clients reading what it sent. */
class SendCompatTest {

    @TempDir
    static Path dir;

    private static TestWharf servers;
    private RocketClients clients;
    private final List<PullConsumer> wharfConsumers = new ArrayList<>();

    @BeforeAll
    static void startServers() throws Exception {
        servers = WharfServers.start(dir);
    }

    @AfterAll
    static void stopServers() {
        servers.close();
    }

    @BeforeEach
    void clients() {
        clients = new RocketClients(servers.namesrvAddr());
    }

    @AfterEach
    void closeClients() {
        clients.close();
        wharfConsumers.forEach(PullConsumer::shutdown);
    }

    /** Bodies by key, as a RocketMQ push consumer of a new group receives the topic from its start. */
    private Map<String, MessageExt> consumeAll(String topic, String group, int expected) throws Exception {
        Map<String, MessageExt> got = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = clients.pushConsumer(group);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> got.put(m.getKeys() == null ? m.getMsgId() : m.getKeys(), m));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> got.size() >= expected);
        return got;
    }

    /** Every message of the topic as Wharf's own pull consumer reads it, queue by queue. */
    private List<dev.wharf.common.message.MessageExt> wharfReadAll(String topic, int expected) throws Exception {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(servers.namesrvAddr());
        config.setInstanceName("wharf-reader-" + System.nanoTime());
        PullConsumer consumer = new PullConsumer("wharf-reader", config);
        consumer.start();
        wharfConsumers.add(consumer);
        List<dev.wharf.common.message.MessageExt> all = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            all.clear();
            for (dev.wharf.common.message.MessageQueue mq : consumer.fetchSubscribeMessageQueues(topic)) {
                long offset = 0;
                while (true) {
                    PullResult r = consumer.pull(mq, MessageSelector.all(), offset, 32);
                    if (r.pullStatus() != PullStatus.FOUND) {
                        break;
                    }
                    all.addAll(r.msgFoundList());
                    offset = r.nextBeginOffset();
                }
            }
            return all.size() >= expected;
        });
        return all;
    }

    @Test
    void aSyncSendToATopicNobodyCreatedAutoCreatesItThroughTheDefaultRoute() throws Exception {
        DefaultMQProducer producer = clients.producer("send-sync-pg");
        Message msg = new Message("SyncNew", "TagA", "key-1", "hello".getBytes(StandardCharsets.UTF_8));
        msg.putUserProperty("color", "blue");
        SendResult result = producer.send(msg);

        assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        assertThat(result.getMsgId()).isNotBlank();
        assertThat(result.getOffsetMsgId()).isNotBlank();
        MessageExt got = consumeAll("SyncNew", "send-sync-cg", 1).get("key-1");
        assertThat(new String(got.getBody(), StandardCharsets.UTF_8)).isEqualTo("hello");
        assertThat(got.getTags()).isEqualTo("TagA");
        assertThat(got.getUserProperty("color")).isEqualTo("blue");
        assertThat(got.getMsgId()).isEqualTo(result.getMsgId());
    }

    @Test
    void compressedBodiesOf10KiBAnd1MiBReachBothClientsIntact() throws Exception {
        DefaultMQProducer producer = clients.producer("send-zip-pg");
        byte[] small = Bodies.text(10 * 1024, 1);
        byte[] large = Bodies.text(1024 * 1024, 2);
        assertThat(producer.send(new Message("Zipped", "z", "small", small)).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        assertThat(producer.send(new Message("Zipped", "z", "large", large)).getSendStatus()).isEqualTo(SendStatus.SEND_OK);

        Map<String, MessageExt> got = consumeAll("Zipped", "send-zip-cg", 2);
        assertThat(got.get("small").getBody()).isEqualTo(small);
        assertThat(got.get("large").getBody()).isEqualTo(large);

        List<dev.wharf.common.message.MessageExt> wharf = wharfReadAll("Zipped", 2);
        assertThat(wharf).extracting(dev.wharf.common.message.MessageExt::getBody)
                .containsExactlyInAnyOrder(small, large);
    }

    @Test
    void aBodyCompressedByWharfsClientIsReadByARocketMqConsumer() throws Exception {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(servers.namesrvAddr());
        config.setInstanceName("wharf-producer-" + System.nanoTime());
        dev.wharf.client.producer.Producer wharfProducer = new dev.wharf.client.producer.Producer("wharf-pg", config);
        wharfProducer.start();
        try {
            byte[] body = Bodies.text(10 * 1024, 3);
            wharfProducer.send(new dev.wharf.common.message.Message("FromWharf", "t", "wharf-zip", body));
            assertThat(consumeAll("FromWharf", "from-wharf-cg", 1).get("wharf-zip").getBody()).isEqualTo(body);
        } finally {
            wharfProducer.shutdown();
        }
    }

    @Test
    void asyncSendsAllComplete() throws Exception {
        DefaultMQProducer producer = clients.producer("send-async-pg");
        int count = 20;
        List<CompletableFuture<SendResult>> results = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            CompletableFuture<SendResult> f = new CompletableFuture<>();
            producer.send(new Message("Async", "a", "async-" + i, ("m" + i).getBytes(StandardCharsets.UTF_8)),
                    new SendCallback() {
                        @Override
                        public void onSuccess(SendResult sendResult) {
                            f.complete(sendResult);
                        }

                        @Override
                        public void onException(Throwable e) {
                            f.completeExceptionally(e);
                        }
                    });
            results.add(f);
        }
        for (CompletableFuture<SendResult> f : results) {
            assertThat(f.get(30, TimeUnit.SECONDS).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        }
        assertThat(consumeAll("Async", "send-async-cg", count)).hasSize(count);
    }

    @Test
    void onewaySendsArrive() throws Exception {
        DefaultMQProducer producer = clients.producer("send-oneway-pg");
        // the first send creates the topic; oneway sends then go to its own route
        producer.send(new Message("Oneway", "o", "oneway-first", new byte[] {1}));
        int count = 10;
        for (int i = 0; i < count; i++) {
            producer.sendOneway(new Message("Oneway", "o", "oneway-" + i, ("m" + i).getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(consumeAll("Oneway", "send-oneway-cg", count + 1)).containsKeys("oneway-0", "oneway-9");
    }

    @Test
    void aOnewaySendToANewTopicArrives() throws Exception {
        DefaultMQProducer producer = clients.producer("send-oneway-new-pg");
        producer.sendOneway(new Message("OnewayNew", "o", "only", "x".getBytes(StandardCharsets.UTF_8)));
        // a one-way send returns before the broker has created the topic: a push consumer started before the
        // NameServer routes it would find no queue until its next route poll (30 s by default)
        assertThat(wharfReadAll("OnewayNew", 1)).hasSize(1);
        assertThat(consumeAll("OnewayNew", "send-oneway-new-cg", 1)).containsKey("only");
    }

    @Test
    void aBatchIsStoredAsItsMessages() throws Exception {
        DefaultMQProducer producer = clients.producer("send-batch-pg");
        producer.send(new Message("Batched", "b", "batch-first", new byte[] {1}));
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Message m = new Message("Batched", "b" + i, "batch-" + i, ("batch body " + i).getBytes(StandardCharsets.UTF_8));
            m.putUserProperty("n", String.valueOf(i));
            batch.add(m);
        }
        SendResult result = producer.send(batch);
        assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        assertThat(result.getMsgId().split(",")).hasSize(5);

        Map<String, MessageExt> got = consumeAll("Batched", "send-batch-cg", 6);
        for (int i = 0; i < 5; i++) {
            MessageExt m = got.get("batch-" + i);
            assertThat(new String(m.getBody(), StandardCharsets.UTF_8)).isEqualTo("batch body " + i);
            assertThat(m.getTags()).isEqualTo("b" + i);
            assertThat(m.getUserProperty("n")).isEqualTo(String.valueOf(i));
        }
        assertThat(wharfReadAll("Batched", 6)).hasSize(6);
    }
}

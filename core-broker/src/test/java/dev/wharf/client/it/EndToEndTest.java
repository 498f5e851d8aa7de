package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.common.message.Message;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two NameServers and two brokers: sends spread over both brokers, and one dead NameServer changes nothing. */
class EndToEndTest {

    @TempDir
    Path dir;
    private TestWharf cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void messagesFlowThroughTwoBrokersAndSurviveTheLossOfANameServer() throws Exception {
        cluster = TestWharf.cluster(dir, 2, "broker-a", "broker-b");
        cluster.createTopic("orders", 4);

        Producer producer = new Producer("it-producer", cluster.clientConfig());
        producer.start();
        cluster.track(producer::shutdown);
        Deliveries got = new Deliveries();
        PushConsumer consumer = new PushConsumer("it-group", cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("orders", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            got.add("c", msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);

        Set<String> sent = new HashSet<>();
        Set<String> brokersUsed = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            SendResult r = producer.send(new Message("orders", "TagA", "k" + i, ("m" + i).getBytes(StandardCharsets.UTF_8)));
            assertThat(r.sendStatus()).isEqualTo(SendStatus.SEND_OK);
            sent.add(r.msgId());
            brokersUsed.add(r.messageQueue().brokerName());
        }
        assertThat(brokersUsed).containsExactlyInAnyOrder("broker-a", "broker-b");
        await().atMost(Duration.ofSeconds(20)).until(() -> got.ids().containsAll(sent));
        // every queue of the topic on both brokers (the group's retry topic, created when the group first
        // heartbeats, is assigned besides them)
        assertThat(consumer.assignedQueues()).filteredOn(q -> q.topic().equals("orders")).hasSize(8);

        cluster.nameServer(0).shutdown();
        cluster.createTopic("audit", 2);
        for (int i = 0; i < 10; i++) {
            sent.add(producer.send(new Message("orders", ("after" + i).getBytes(StandardCharsets.UTF_8))).msgId());
        }
        SendResult audit = producer.send(new Message("audit", "new topic".getBytes(StandardCharsets.UTF_8)));
        assertThat(audit.sendStatus()).isEqualTo(SendStatus.SEND_OK);
        await().atMost(Duration.ofSeconds(20)).until(() -> got.ids().containsAll(sent));
        assertThat(got.duplicates()).isZero();
    }

    @Test
    void aProducerCanSendToATopicTheBrokerCreatesOnFirstUse() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        ClientConfig config = cluster.clientConfig();
        Producer producer = new Producer("it-producer", config);
        producer.start();
        cluster.track(producer::shutdown);
        SendResult r = producer.send(new Message("created-on-send", "x".getBytes(StandardCharsets.UTF_8)));
        assertThat(r.sendStatus()).isEqualTo(SendStatus.SEND_OK);
        assertThat(r.messageQueue().brokerName()).isEqualTo("broker-a");
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> producer.fetchPublishMessageQueues("created-on-send").size() == 4);
    }
}

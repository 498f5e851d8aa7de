package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.LocalTransaction;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.common.message.Message;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A transaction whose first message goes to a topic the broker creates on that send (no route yet, so the broker
 * chooses the queue): all of its messages must land in one queue, in sending order, so a consumer of the topic gets
 * the first one first (Jakarta Messaging 6.2.9: a transaction's messages arrive in the order they were sent).
 */
@Timeout(120)
class NewTopicTransactionTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int MESSAGES = 12;

    @TempDir
    Path dir;
    private TestWharf cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private TransactionProducer producer() throws Exception {
        TransactionProducer producer = new TransactionProducer("new-topic-tx", cluster.clientConfig());
        producer.setDefaultTopicQueueNums(4);
        producer.setTransactionListener(new UndecidedListener());
        producer.start();
        cluster.track(producer::shutdown);
        return producer;
    }

    private Deliveries consumer(String topic) throws Exception {
        Deliveries got = new Deliveries();
        PushConsumer consumer = new PushConsumer("new-topic-consumers-" + topic, cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            got.add("c", msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);
        return got;
    }

    /** Three transactions, each the first to its own new topic; each must keep to one queue in sending order. */
    @ParameterizedTest(name = "send window {0}")
    @ValueSource(ints = {0, 8})
    void theFirstTransactionToANewTopicKeepsItsMessagesInOneQueueInSendingOrder(int window) throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        TransactionProducer producer = producer();
        for (int t = 0; t < 3; t++) {
            String topic = "fresh-" + window + "-" + t;
            LocalTransaction tx = producer.beginTransaction(window);
            List<String> sent = new ArrayList<>();
            List<SendResult> results = new ArrayList<>();
            for (int i = 0; i < MESSAGES; i++) {
                String body = "m" + i;
                results.add(tx.send(new Message(topic, body.getBytes(StandardCharsets.UTF_8))));
                sent.add(body);
            }
            tx.commit();

            Deliveries got = consumer(topic);
            await().atMost(WAIT).until(() -> got.distinct() >= MESSAGES);
            Set<String> queues = got.list().stream().map(Deliveries.Delivery::queue).collect(Collectors.toSet());
            assertThat(queues).as("the queues transaction %d used on its new topic", t).hasSize(1);
            List<String> inOrder = got.list().stream().sorted(Comparator.comparingLong(Deliveries.Delivery::offset))
                    .map(Deliveries.Delivery::body).distinct().toList();
            assertThat(inOrder).as("the transaction's messages in queue order").isEqualTo(sent);
            int queueId = Integer.parseInt(queues.iterator().next().substring(queues.iterator().next().indexOf('#') + 1));
            assertThat(tx.queueOf(topic)).as("the queue the transaction reports for its topic").isNotNull()
                    .satisfies(mq -> assertThat(mq.queueId()).isEqualTo(queueId));
            assertThat(results).as("every send reports the queue its message is committed to")
                    .allSatisfy(r -> assertThat(r.messageQueue().queueId()).isEqualTo(queueId));
        }
    }
}

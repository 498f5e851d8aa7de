package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.LocalTransaction;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streamed transactions ({@link TransactionProducer#beginTransaction(int)}): the halves go out without waiting for
 * their answers and are forced at the commit only. All visible in sending order or none; a half the broker refused
 * fails the commit and nothing becomes visible; a commit that returned under SYNC_FLUSH survives the broker's kill.
 */
@Timeout(120)
class StreamedTransactionTest {

    private static final String GROUP = "streamed-tx";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int WINDOW = 8;

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
        TransactionProducer producer = new TransactionProducer(GROUP, cluster.clientConfig());
        producer.setTransactionListener(new UndecidedListener());
        producer.start();
        cluster.track(producer::shutdown);
        return producer;
    }

    private Deliveries consumer(String topic) throws Exception {
        Deliveries got = new Deliveries();
        PushConsumer consumer = new PushConsumer("streamed-consumers-" + topic, cluster.clientConfig());
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

    /** The bodies in the order of their queue offsets (the topics here have one queue). */
    private static List<String> inQueueOrder(Deliveries got) {
        return got.list().stream().sorted(Comparator.comparingLong(Deliveries.Delivery::offset))
                .map(Deliveries.Delivery::body).distinct().toList();
    }

    private static Message message(String topic, String body) {
        return new Message(topic, body.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> send(LocalTransaction tx, String topic, String prefix, int count) throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            tx.send(message(topic, prefix + i));
            bodies.add(prefix + i);
        }
        return bodies;
    }

    @Test
    void aCommittedTransactionIsVisibleInSendingOrderAndARolledBackOneNotAtAll() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        cluster.createTopic("streamed", 1);
        TransactionProducer producer = producer();
        Deliveries got = consumer("streamed");

        LocalTransaction dropped = producer.beginTransaction(WINDOW);
        send(dropped, "streamed", "dropped-", 50);
        dropped.rollback();

        LocalTransaction kept = producer.beginTransaction(WINDOW);
        List<String> expected = send(kept, "streamed", "kept-", 300); // many times the window
        kept.commit();

        await().atMost(WAIT).until(() -> got.distinct() >= expected.size());
        assertThat(inQueueOrder(got)).as("all of the committed transaction, in sending order, nothing of the other")
                .isEqualTo(expected);
        assertThat(got.list()).allSatisfy(d -> assertThat(d.body()).startsWith("kept-"));
    }

    @Test
    void aHalfTheBrokerRefusesFailsTheCommitAndNothingBecomesVisible() throws Exception {
        cluster = TestWharf.cluster(dir, 1, s -> s.store().setMaxMessageSize(16 * 1024), "broker-a");
        cluster.createTopic("refused", 1);
        TransactionProducer producer = producer();
        Deliveries got = consumer("refused");

        LocalTransaction tx = producer.beginTransaction(WINDOW);
        send(tx, "refused", "before-", 5);
        byte[] tooLarge = new byte[64 * 1024]; // random: the client's compression cannot shrink it
        new Random(7).nextBytes(tooLarge);
        tx.send(new Message("refused", tooLarge)); // the client allows it, this broker does not
        tx.send(message("refused", "after")); // streams the refused one; the answer comes later
        assertThatThrownBy(tx::commit).isInstanceOf(ClientException.class)
                .satisfies(e -> assertThat(((ClientException) e).responseCode())
                        .isEqualTo(ResponseCode.TRANSACTION_FAILED))
                .hasMessageContaining(tx.transactionId())
                .hasMessageContaining("rolled back");

        LocalTransaction next = producer.beginTransaction(WINDOW);
        next.send(message("refused", "marker"));
        next.commit();
        await().atMost(WAIT).until(() -> got.distinct() >= 1);
        // the marker committed after the failed transaction ended: had any of it become visible, it would be here
        assertThat(inQueueOrder(got)).containsExactly("marker");
    }

    @Test
    void aCommitThatReturnedUnderSyncFlushSurvivesTheBrokersKill() throws Exception {
        cluster = TestWharf.cluster(dir, 1, s -> s.store().setFlushDiskType(dev.wharf.store.FlushDiskType.SYNC_FLUSH));
        Process child = SyncFlushBrokerMain.startWithTopic(dir, cluster, "durable-tx");
        List<String> committed = new ArrayList<>();
        try {
            TransactionProducer producer = producer();
            for (int t = 0; t < 3; t++) {
                LocalTransaction tx = producer.beginTransaction(WINDOW);
                committed.addAll(send(tx, "durable-tx", "t" + t + "-", 40));
                tx.commit();
            }
            LocalTransaction open = producer.beginTransaction(WINDOW);
            send(open, "durable-tx", "open-", 20); // never committed: must stay invisible
        } finally {
            child.destroyForcibly(); // right after the commits returned: no shutdown, no final flush
            assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
        }
        cluster.startBroker("broker-a");
        Deliveries got = consumer("durable-tx");
        await().atMost(WAIT).until(() -> got.distinct() >= committed.size());
        assertThat(inQueueOrder(got)).as("every committed message, in order, nothing of the open transaction")
                .isEqualTo(committed);
        assertThat(got.list()).allSatisfy(d -> assertThat(d.body()).doesNotStartWith("open-"));
    }

    @Test
    void streamedHalvesCarryTheirPositionAndCommittedMessagesDoNot() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        cluster.createTopic("positions", 1);
        TransactionProducer producer = producer();
        List<MessageExt> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        PushConsumer consumer = new PushConsumer("positions-consumers", cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("positions", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            seen.addAll(msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);
        LocalTransaction tx = producer.beginTransaction(WINDOW);
        send(tx, "positions", "p", 10);
        tx.commit();
        await().atMost(WAIT).until(() -> seen.size() >= 10);
        assertThat(seen).allSatisfy(m -> {
            assertThat(m.getProperty(MessageProperties.TRANSACTION_SEQUENCE)).isNull();
            assertThat(m.getProperty(MessageProperties.WAIT_STORE_MSG_OK)).isNull();
        });
    }
}

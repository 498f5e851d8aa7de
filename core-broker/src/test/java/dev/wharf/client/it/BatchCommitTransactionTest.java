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
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.store.FlushDiskType;
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
 * Transactions held on the client ({@link TransactionProducer#beginTransaction(int, int)}): messages to one queue
 * within the limit are committed as one batch, with no half message; anything else falls back to streamed halves.
 * Either way all of a committed transaction is visible in sending order and nothing of a rolled-back or refused one.
 */
@Timeout(120)
class BatchCommitTransactionTest {

    private static final String GROUP = "batch-tx";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int WINDOW = 8;
    private static final int HOLD = 64 * 1024;

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

    private List<MessageExt> consumer(String topic) throws Exception {
        List<MessageExt> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        PushConsumer consumer = new PushConsumer("batch-consumers-" + topic, cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            seen.addAll(msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);
        return seen;
    }

    /** The distinct bodies in the order of their queue offsets (the topics here have one queue). */
    private static List<String> inQueueOrder(List<MessageExt> seen) {
        return seen.stream().sorted(Comparator.comparingLong(MessageExt::getQueueOffset))
                .map(m -> new String(m.getBody(), StandardCharsets.UTF_8)).distinct().toList();
    }

    private static List<String> send(LocalTransaction tx, MessageQueue mq, String prefix, int count) throws Exception {
        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            tx.send(new Message(mq.topic(), (prefix + i).getBytes(StandardCharsets.UTF_8)), mq);
            bodies.add(prefix + i);
        }
        return bodies;
    }

    private MessageQueue queue(String topic) throws Exception {
        cluster.createTopic(topic, 1);
        return new MessageQueue(topic, "broker-a", 0);
    }

    private long halvesStored() {
        return cluster.broker("broker-a").store().getMaxOffsetInQueue(SystemTopics.TRANS_HALF_TOPIC, 0);
    }

    @Test
    void aHeldTransactionCommitsAsOneBatchWithoutHalvesAndARolledBackOneSendsNothing() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        TransactionProducer producer = producer();
        MessageQueue mq = queue("held");
        List<MessageExt> seen = consumer("held");

        LocalTransaction dropped = producer.beginTransaction(WINDOW, HOLD);
        send(dropped, mq, "dropped-", 30);
        dropped.rollback();

        LocalTransaction kept = producer.beginTransaction(WINDOW, HOLD);
        List<String> expected = send(kept, mq, "kept-", 100);
        assertThat(kept.queueOf("held")).isEqualTo(mq);
        kept.commit();
        assertThat(kept.committedAsOneBatch()).isTrue();

        await().atMost(WAIT).until(() -> inQueueOrder(seen).size() >= expected.size());
        assertThat(inQueueOrder(seen)).as("all of the committed transaction in sending order, nothing of the other")
                .isEqualTo(expected);
        assertThat(seen).allSatisfy(m -> {
            assertThat(m.getProperty(MessageProperties.TRANSACTION_PREPARED)).isNull();
            assertThat(m.getTransactionId()).isEqualTo(kept.transactionId());
        });
        assertThat(halvesStored()).as("no half message was stored").isZero();
        assertThatThrownBy(() -> kept.send(new Message("held", new byte[1]), mq))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already committed");
    }

    @Test
    void moreThanTheLimitASecondQueueOrAFlushSendTheHeldMessagesAsHalves() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        TransactionProducer producer = producer();
        MessageQueue big = queue("big");
        MessageQueue one = queue("one");
        MessageQueue two = queue("two");
        List<MessageExt> seenBig = consumer("big");
        List<MessageExt> seenOne = consumer("one");
        List<MessageExt> seenTwo = consumer("two");

        LocalTransaction overLimit = producer.beginTransaction(WINDOW, 4 * 1024);
        List<String> bigBodies = send(overLimit, big, "big-", 200); // about 7 KiB held: spills halfway
        overLimit.commit();
        assertThat(overLimit.committedAsOneBatch()).isFalse();

        LocalTransaction twoQueues = producer.beginTransaction(WINDOW, HOLD);
        List<String> oneBodies = send(twoQueues, one, "one-", 20);
        List<String> twoBodies = send(twoQueues, two, "two-", 20);
        twoQueues.commit();
        assertThat(twoQueues.committedAsOneBatch()).isFalse();

        LocalTransaction flushed = producer.beginTransaction(WINDOW, HOLD);
        List<String> more = send(flushed, one, "flushed-", 10);
        flushed.flush();
        // stored when the flush returned; the half queue's index follows a moment later
        await().atMost(WAIT).untilAsserted(() -> assertThat(halvesStored())
                .as("the flush stored the held messages as halves").isGreaterThanOrEqualTo(200 + 40 + 10));
        flushed.commit();
        assertThat(flushed.committedAsOneBatch()).isFalse();

        List<String> expectedOne = new ArrayList<>(oneBodies);
        expectedOne.addAll(more);
        await().atMost(WAIT).until(() -> inQueueOrder(seenBig).size() >= bigBodies.size()
                && inQueueOrder(seenOne).size() >= expectedOne.size() && inQueueOrder(seenTwo).size() >= twoBodies.size());
        assertThat(inQueueOrder(seenBig)).isEqualTo(bigBodies);
        assertThat(inQueueOrder(seenOne)).isEqualTo(expectedOne);
        assertThat(inQueueOrder(seenTwo)).isEqualTo(twoBodies);
    }

    @Test
    void aDelayedMessageIsNotHeldAndScheduledAtTheCommit() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        TransactionProducer producer = producer();
        MessageQueue mq = queue("delayed");
        List<MessageExt> seen = consumer("delayed");
        LocalTransaction tx = producer.beginTransaction(WINDOW, HOLD);
        List<String> bodies = send(tx, mq, "now-", 3);
        Message later = new Message("delayed", "later".getBytes(StandardCharsets.UTF_8));
        later.setDelayTimeLevel(1);
        tx.send(later, mq);
        tx.commit();
        assertThat(tx.committedAsOneBatch()).isFalse();
        await().atMost(WAIT).until(() -> inQueueOrder(seen).size() >= 4);
        assertThat(inQueueOrder(seen)).containsAll(bodies).contains("later");
    }

    @Test
    void aBatchTheBrokerRefusesFailsTheCommitAndNothingBecomesVisible() throws Exception {
        cluster = TestWharf.cluster(dir, 1, s -> {
            s.store().setMaxMessageSize(16 * 1024);
            s.store().setMappedFileSizeCommitLog(64 * 1024); // one atomic batch must fit in one file
        }, "broker-a");
        TransactionProducer producer = producer();
        MessageQueue mq = queue("refused");
        List<MessageExt> seen = consumer("refused");

        LocalTransaction tx = producer.beginTransaction(WINDOW, 128 * 1024);
        byte[] body = new byte[6 * 1024];
        new Random(7).nextBytes(body);
        for (int i = 0; i < 12; i++) {
            tx.send(new Message("refused", body), mq); // each fits the broker's limits, the batch of them does not
        }
        assertThatThrownBy(tx::commit).isInstanceOf(ClientException.class)
                .satisfies(e -> assertThat(((ClientException) e).responseCode())
                        .isEqualTo(ResponseCode.TRANSACTION_FAILED))
                .hasMessageContaining(tx.transactionId())
                .hasMessageContaining("Nothing of it was stored");

        LocalTransaction next = producer.beginTransaction(WINDOW, HOLD);
        send(next, mq, "marker-", 1);
        next.commit();
        await().atMost(WAIT).until(() -> !seen.isEmpty());
        // the marker committed after the refused batch: had any of it been stored, it would be here
        assertThat(inQueueOrder(seen)).containsExactly("marker-0");
    }

    @Test
    void aBatchCommitThatReturnedUnderSyncFlushSurvivesTheBrokersKill() throws Exception {
        cluster = TestWharf.cluster(dir, 1, s -> s.store().setFlushDiskType(FlushDiskType.SYNC_FLUSH));
        Process child = SyncFlushBrokerMain.startWithTopic(dir, cluster, "durable-batch");
        List<String> committed = new ArrayList<>();
        try {
            TransactionProducer producer = producer();
            MessageQueue mq = new MessageQueue("durable-batch", "broker-a", 0);
            for (int t = 0; t < 3; t++) {
                LocalTransaction tx = producer.beginTransaction(WINDOW, HOLD);
                committed.addAll(send(tx, mq, "t" + t + "-", 40));
                tx.commit();
                assertThat(tx.committedAsOneBatch()).isTrue();
            }
            LocalTransaction open = producer.beginTransaction(WINDOW, HOLD);
            send(open, mq, "open-", 20); // held, never committed: nothing of it reaches the broker
        } finally {
            child.destroyForcibly(); // right after the commits returned: no shutdown, no final flush
            assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
        }
        cluster.startBroker("broker-a");
        List<MessageExt> seen = consumer("durable-batch");
        await().atMost(WAIT).until(() -> inQueueOrder(seen).size() >= committed.size());
        assertThat(inQueueOrder(seen)).as("every committed message, in order, nothing of the open transaction")
                .isEqualTo(committed);
    }
}

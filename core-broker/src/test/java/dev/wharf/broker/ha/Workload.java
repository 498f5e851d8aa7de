package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.client.producer.TransactionListener;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A mixed workload against a master: single sends from several threads, batches, delayed messages (re-put by
 * scheduled delivery), committed and rolled-back transactions, and messages consumed with a retry (sent back,
 * re-put from the retry topic). Returns once every delayed, transactional and retried message has arrived.
 */
final class Workload {

    static final String TOPIC = "ha-mixed";
    static final String RETRY_TOPIC = "ha-retried";

    private static final AtomicInteger RUNS = new AtomicInteger();

    private Workload() {
    }

    /** Runs about {@code total} messages; returns how many messages {@link #TOPIC} must end up with. */
    static int run(HaCluster cluster, int total) throws Exception {
        cluster.createTopic(TOPIC, 4);
        cluster.createTopic(RETRY_TOPIC, 2);
        int delayed = Math.max(10, total / 40);
        int transactions = Math.max(10, total / 80);
        int retried = Math.max(10, total / 80);
        int batches = Math.max(5, total / 100);
        int batchSize = 20;
        String run = "r" + RUNS.incrementAndGet() + "-";
        int singles = Math.max(0, total - delayed - transactions - retried - batches * batchSize);

        Set<String> retriedOnce = ConcurrentHashMap.newKeySet();
        Set<String> retriedDone = ConcurrentHashMap.newKeySet();
        PushConsumer consumer = new PushConsumer("ha-retry-group-" + run.substring(0, run.length() - 1),
                cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(RETRY_TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                if (!m.getKeys().startsWith(run)) {
                    continue; // an earlier run's message
                }
                if (retriedOnce.add(m.getKeys())) {
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
                retriedDone.add(m.getKeys());
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);

        Producer producer = new Producer("ha-producers-" + RUNS.get(), cluster.clientConfig());
        producer.start();
        cluster.track(producer::shutdown);
        AtomicInteger stored = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> jobs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                jobs.add(pool.submit(() -> {
                    for (int i = thread; i < singles; i += 4) {
                        ok(producer.send(message(TOPIC, run + "single-" + i)).sendStatus(), stored);
                    }
                    return null;
                }));
            }
            jobs.add(pool.submit(() -> {
                for (int b = 0; b < batches; b++) {
                    List<Message> batch = new ArrayList<>(batchSize);
                    for (int i = 0; i < batchSize; i++) {
                        batch.add(message(TOPIC, run + "batch-" + b + "-" + i));
                    }
                    SendStatus status = producer.send(batch).sendStatus();
                    assertThat(status).isEqualTo(SendStatus.SEND_OK);
                    stored.addAndGet(batchSize);
                }
                for (int i = 0; i < delayed; i++) {
                    Message m = message(TOPIC, run + "delayed-" + i);
                    m.setDelayTimeLevel(1 + i % 3);
                    ok(producer.send(m).sendStatus(), stored);
                }
                for (int i = 0; i < retried; i++) {
                    ok(producer.send(message(RETRY_TOPIC, run + "retried-" + i)).sendStatus(), stored);
                }
                return null;
            }));
            for (Future<?> job : jobs) {
                job.get();
            }
        } finally {
            pool.shutdownNow();
        }

        TransactionProducer tx = new TransactionProducer("ha-tx-" + RUNS.get(), cluster.clientConfig());
        tx.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return msg.getKeys().endsWith("0") ? LocalTransactionState.ROLLBACK_MESSAGE
                        : LocalTransactionState.COMMIT_MESSAGE;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return msg.getKeys().endsWith("0") ? LocalTransactionState.ROLLBACK_MESSAGE
                        : LocalTransactionState.COMMIT_MESSAGE;
            }
        });
        tx.start();
        cluster.track(tx::shutdown);
        for (int i = 0; i < transactions; i++) {
            tx.sendMessageInTransaction(message(TOPIC, run + "tx-" + i), null);
            stored.incrementAndGet();
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> retriedDone.size() == retried);
        int rolledBack = (transactions + 9) / 10;
        return singles + batches * batchSize + delayed + transactions - rolledBack;
    }

    private static void ok(SendStatus status, AtomicInteger stored) {
        assertThat(status).isEqualTo(SendStatus.SEND_OK);
        stored.incrementAndGet();
    }

    static Message message(String topic, String key) {
        Message m = new Message(topic, "tag", key, ("body of " + key + " ".repeat(64)).getBytes(StandardCharsets.UTF_8));
        return m;
    }
}

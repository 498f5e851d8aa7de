package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.ConsumeOrderlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.MessageListenerOrderly;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.LocalTransaction;
import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SelectMessageQueueByHash;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.TransactionListener;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.client.ClientConfig;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The low-level client examples of README.md, as written there (a list collects what the README prints), against
 * a real NameServer and broker. The README's clients use the default configuration, which finds the NameServer
 * through the {@code wharf.namesrv} system property that this test points at its own NameServer.
 */
class ReadmeExamplesTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private TestWharf cluster;
    private final List<AutoCloseable> closing = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        System.setProperty("wharf.namesrv", cluster.namesrvAddr());
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        System.clearProperty("wharf.namesrv");
        cluster.close();
    }

    @Test
    void sendAndConsume() throws Exception {
        List<String> printed = new CopyOnWriteArrayList<>();

        Producer producer = new Producer("order-service");
        producer.start();
        closing.add(producer::shutdown);
        Message msg = new Message("orders", "created", "order-1001",
                "{\"orderId\":1001}".getBytes(StandardCharsets.UTF_8));
        SendResult sent = producer.send(msg);
        printed.add(sent.msgId() + " stored in " + sent.messageQueue() + " at offset " + sent.queueOffset());

        PushConsumer consumer = new PushConsumer("billing");
        closing.add(consumer::shutdown);
        consumer.subscribe("orders", "created || paid");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs) {
                printed.add(m.getKeys() + ": " + new String(m.getBody(), StandardCharsets.UTF_8));
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.start();

        await().atMost(WAIT).until(() -> printed.contains("order-1001: {\"orderId\":1001}"));
        assertThat(printed.get(0)).contains(sent.msgId()).contains("orders@broker-a");
    }

    @Test
    void sqlSelector() throws Exception {
        List<String> printed = new CopyOnWriteArrayList<>();
        PushConsumer bigOrders = new PushConsumer("fraud-check");
        closing.add(bigOrders::shutdown);
        bigOrders.subscribe("orders", MessageSelector.bySql("amount > 100 AND region IN ('EU', 'UK')"));
        bigOrders.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            msgs.forEach(m -> printed.add(m.getKeys()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        bigOrders.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        bigOrders.start();

        Producer producer = new Producer("order-service");
        producer.start();
        closing.add(producer::shutdown);
        for (int i = 0; i < 4; i++) {
            Message order = new Message("orders", "created", "order-" + i, new byte[0]);
            order.putProperty("amount", String.valueOf(i * 80));
            order.putProperty("region", i % 2 == 0 ? "EU" : "US");
            producer.send(order);
        }
        await().atMost(WAIT).until(() -> printed.contains("order-2"));
        assertThat(printed).containsExactly("order-2");
    }

    @Test
    void scheduledDelivery() throws Exception {
        List<String> printed = new CopyOnWriteArrayList<>();
        PushConsumer consumer = new PushConsumer("reminders");
        closing.add(consumer::shutdown);
        consumer.subscribe("order-timeouts", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            msgs.forEach(m -> printed.add(m.getKeys()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.start();

        Producer producer = new Producer("order-service");
        producer.start();
        closing.add(producer::shutdown);
        long sentAt = System.currentTimeMillis();
        Message level = new Message("order-timeouts", null, "by-level", new byte[0]);
        level.setDelayTimeLevel(2);                                   // the second of messageDelayLevel
        producer.send(level);
        Message exact = new Message("order-timeouts", null, "by-time", new byte[0]);
        exact.setDeliverTimeMs(System.currentTimeMillis() + 1_500);  // any time, up to timerMaxDelaySec ahead
        producer.send(exact);

        await().atMost(WAIT).until(() -> printed.size() == 2);
        assertThat(System.currentTimeMillis() - sentAt).isGreaterThanOrEqualTo(1_500);
        assertThat(printed).containsExactlyInAnyOrder("by-level", "by-time");
    }

    @Test
    void retriesThenDeadLetters() throws Exception {
        Set<String> attempts = ConcurrentHashMap.newKeySet();
        PushConsumer payments = new PushConsumer("payments");
        closing.add(payments::shutdown);
        payments.subscribe("orders", "*");
        payments.setMaxReconsumeTimes(2);
        payments.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            msgs.forEach(m -> attempts.add(m.getKeys() + "#" + m.getReconsumeTimes()));
            return ConsumeConcurrentlyStatus.RECONSUME_LATER;   // e.g. the card was declined
        });
        payments.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        payments.start();

        Producer producer = new Producer("order-service");
        producer.start();
        closing.add(producer::shutdown);
        producer.send(new Message("orders", "created", "order-7", new byte[0]));

        AdminClient admin = new AdminClient(new ClientConfig());
        admin.start();
        closing.add(admin::shutdown);
        await().atMost(WAIT).until(() -> admin.dlqMessages("payments", 10).size() == 1);
        assertThat(attempts).containsExactlyInAnyOrder("order-7#0", "order-7#1", "order-7#2");
        assertThat(admin.dlqMessages("payments", 10).get(0).getKeys()).isEqualTo("order-7");
    }

    @Test
    void transactions() throws Exception {
        Set<String> committedOrders = ConcurrentHashMap.newKeySet();   // stands for the application's database
        List<String> printed = new CopyOnWriteArrayList<>();
        PushConsumer consumer = new PushConsumer("shipping");
        closing.add(consumer::shutdown);
        consumer.subscribe("orders", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            msgs.forEach(m -> printed.add(m.getKeys()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.start();

        TransactionProducer producer = new TransactionProducer("order-service-tx");
        producer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object order) {
                committedOrders.add(msg.getKeys());          // e.g. INSERT INTO orders ... in a DB transaction
                return LocalTransactionState.COMMIT_MESSAGE;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return committedOrders.contains(msg.getKeys())   // asked when the outcome never arrived
                        ? LocalTransactionState.COMMIT_MESSAGE : LocalTransactionState.UNKNOW;
            }
        });
        producer.start();
        closing.add(producer::shutdown);
        producer.sendMessageInTransaction(new Message("orders", "created", "order-42", new byte[0]), null);

        LocalTransaction tx = producer.beginTransaction();              // several messages, one outcome
        tx.send(new Message("orders", "created", "order-43", new byte[0]));
        tx.send(new Message("orders", "created", "order-44", new byte[0]));
        tx.commit();                                                    // or tx.rollback()

        await().atMost(WAIT).until(() -> printed.size() == 3);
        assertThat(printed).containsExactlyInAnyOrder("order-42", "order-43", "order-44");
    }

    @Test
    void orderedPerKey() throws Exception {
        AdminClient admin = new AdminClient(new ClientConfig());
        admin.start();
        closing.add(admin::shutdown);
        admin.createTopic("order-events", 8);   // queue choice needs the topic's queues: create it first

        List<String> printed = new CopyOnWriteArrayList<>();
        PushConsumer consumer = new PushConsumer("order-history");
        closing.add(consumer::shutdown);
        consumer.subscribe("order-events", "*");
        consumer.registerMessageListener((MessageListenerOrderly) (msgs, context) -> {
            msgs.forEach(m -> printed.add(m.getKeys() + ":" + m.getTags()));   // one thread per queue at a time
            return ConsumeOrderlyStatus.SUCCESS;
        });
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.start();

        Producer producer = new Producer("order-service");
        producer.start();
        closing.add(producer::shutdown);
        for (String step : List.of("created", "paid", "shipped")) {
            for (long orderId : new long[] {1, 2, 3}) {
                Message event = new Message("order-events", step, "order-" + orderId, new byte[0]);
                producer.send(event, new SelectMessageQueueByHash(), orderId);   // one order, one queue
            }
        }
        await().atMost(WAIT).until(() -> printed.size() == 9);
        for (long orderId : new long[] {1, 2, 3}) {
            assertThat(printed.stream().filter(p -> p.startsWith("order-" + orderId + ":")).toList())
                    .containsExactly("order-" + orderId + ":created", "order-" + orderId + ":paid",
                            "order-" + orderId + ":shipped");
        }
    }
}

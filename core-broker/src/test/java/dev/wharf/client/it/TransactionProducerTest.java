package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.LocalTransaction;
import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.TransactionListener;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.client.producer.TransactionSendResult;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.testing.TestWharf;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The transaction producer end to end: NameServer, broker, producers (one in a child process) and a consumer. */
class TransactionProducerTest {

    private static final String TOPIC = "tx-orders";
    private static final String GROUP = "tx-producers";
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private TestWharf cluster;

    /** A listener backed by a map standing in for the application's database. */
    private static final class Ledger implements TransactionListener {
        final Map<String, LocalTransactionState> outcomes = new ConcurrentHashMap<>();
        final List<MessageExt> checked = new CopyOnWriteArrayList<>();
        volatile Function<Message, LocalTransactionState> execute = m -> LocalTransactionState.COMMIT_MESSAGE;

        @Override
        public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
            LocalTransactionState state = execute.apply(msg);
            outcomes.put(msg.getTransactionId(), state);
            return state;
        }

        @Override
        public LocalTransactionState checkLocalTransaction(MessageExt msg) {
            checked.add(msg);
            return outcomes.getOrDefault(msg.getTransactionId(), LocalTransactionState.UNKNOW);
        }
    }

    @BeforeEach
    void start() throws Exception {
        cluster = TestWharf.cluster(dir, 1, s -> {
            s.broker().transaction().setTransactionCheckInterval(300);
            s.broker().transaction().setTransactionTimeOut(200);
        }, "broker-a");
        cluster.createTopic(TOPIC, 4);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private TransactionProducer producer(TransactionListener listener) throws Exception {
        TransactionProducer producer = new TransactionProducer(GROUP, cluster.clientConfig());
        producer.setTransactionListener(listener);
        producer.start();
        cluster.track(producer::shutdown);
        return producer;
    }

    private Deliveries consumer(String topic) throws Exception {
        Deliveries got = new Deliveries();
        PushConsumer consumer = new PushConsumer("tx-consumers-" + topic, cluster.clientConfig());
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

    private static Message message(String topic, String body) {
        return new Message(topic, body.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> bodies(Deliveries got) {
        return got.list().stream().map(Deliveries.Delivery::body).toList();
    }

    @Test
    void commitAndRollbackThroughTheListener() throws Exception {
        Ledger ledger = new Ledger();
        ledger.execute = m -> new String(m.getBody(), StandardCharsets.UTF_8).startsWith("keep")
                ? LocalTransactionState.COMMIT_MESSAGE : LocalTransactionState.ROLLBACK_MESSAGE;
        TransactionProducer producer = producer(ledger);
        Deliveries got = consumer(TOPIC);

        TransactionSendResult dropped = producer.sendMessageInTransaction(message(TOPIC, "drop me"), null);
        TransactionSendResult kept = producer.sendMessageInTransaction(message(TOPIC, "keep me"), "arg");
        assertThat(dropped.localTransactionState()).isEqualTo(LocalTransactionState.ROLLBACK_MESSAGE);
        assertThat(kept.localTransactionState()).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
        assertThat(kept.transactionId()).isNotBlank().isNotEqualTo(dropped.transactionId());

        await().atMost(WAIT).until(() -> got.distinct() == 1);
        assertThat(bodies(got)).containsExactly("keep me");
        assertThat(got.ids()).containsExactly(kept.msgId());
        assertThat(ledger.checked).as("both outcomes were reported; nothing to ask").isEmpty();
    }

    @Test
    void unknownIsSettledByTheCheckBack() throws Exception {
        Ledger ledger = new Ledger();
        ledger.execute = m -> LocalTransactionState.UNKNOW;
        TransactionProducer producer = producer(ledger);
        Deliveries got = consumer(TOPIC);

        TransactionSendResult commitLater = producer.sendMessageInTransaction(message(TOPIC, "decided later"), null);
        TransactionSendResult rollBackLater = producer.sendMessageInTransaction(message(TOPIC, "dropped later"), null);
        assertThat(commitLater.localTransactionState()).isEqualTo(LocalTransactionState.UNKNOW);
        // the application's database decides after the fact
        ledger.outcomes.put(commitLater.transactionId(), LocalTransactionState.COMMIT_MESSAGE);
        ledger.outcomes.put(rollBackLater.transactionId(), LocalTransactionState.ROLLBACK_MESSAGE);

        await().atMost(WAIT).until(() -> got.distinct() == 1
                && cluster.broker("broker-a").transactions().openTransactionCount() == 0);
        assertThat(bodies(got)).containsExactly("decided later");
        MessageExt asked = ledger.checked.stream()
                .filter(m -> m.getTransactionId().equals(commitLater.transactionId())).findFirst().orElseThrow();
        assertThat(asked.getTopic()).as("the application sees its own topic").isEqualTo(TOPIC);
        assertThat(new String(asked.getBody(), StandardCharsets.UTF_8)).isEqualTo("decided later");
    }

    @Test
    void aLocalTransactionOfFiftyMessagesIsDeliveredWholeAfterCommit() throws Exception {
        TransactionProducer producer = producer(new Ledger());
        Deliveries got = consumer(TOPIC);
        LocalTransaction tx = producer.beginTransaction();
        List<String> ids = new ArrayList<>();
        Set<String> reportedQueues = new java.util.HashSet<>();
        for (int i = 0; i < 50; i++) {
            SendResult r = tx.send(message(TOPIC, "part-" + i));
            assertThat(r.transactionId()).isEqualTo(tx.transactionId());
            ids.add(r.msgId());
            reportedQueues.add(r.messageQueue().topic() + "@" + r.messageQueue().brokerName() + "#"
                    + r.messageQueue().queueId());
        }
        // a message committed after the 50 were sent is consumed, while none of the 50 is
        producer.sendMessageInTransaction(message(TOPIC, "sentinel"), null);
        await().atMost(WAIT).until(() -> bodies(got).contains("sentinel"));
        assertThat(got.distinct()).isEqualTo(1);

        tx.commit();
        await().atMost(WAIT).until(() -> got.distinct() == 51);
        assertThat(got.ids()).containsAll(ids);
        assertThat(got.duplicates()).isZero();
        Set<String> queues = new java.util.HashSet<>();
        got.list().stream().filter(d -> d.body().startsWith("part-")).forEach(d -> queues.add(d.queue()));
        assertThat(queues).as("one queue per topic within a transaction, so they keep their order").hasSize(1)
                .isEqualTo(reportedQueues);
        assertThatThrownBy(tx::commit).isInstanceOf(IllegalStateException.class).hasMessageContaining("already committed");
        assertThatThrownBy(() -> tx.send(message(TOPIC, "late"))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRolledBackLocalTransactionDeliversNothing() throws Exception {
        TransactionProducer producer = producer(new Ledger());
        Deliveries got = consumer(TOPIC);
        LocalTransaction tx = producer.beginTransaction();
        tx.send(message(TOPIC, "a"));
        tx.send(message(TOPIC, "b"));
        tx.rollback();
        producer.sendMessageInTransaction(message(TOPIC, "sentinel"), null);
        await().atMost(WAIT).until(() -> bodies(got).contains("sentinel"));
        assertThat(bodies(got)).containsExactly("sentinel");
        LocalTransaction empty = producer.beginTransaction();
        empty.commit(); // nothing was sent: nothing to tell any broker
    }

    @Test
    void aTransactionKeepsToTheBrokerOfItsFirstMessage() throws Exception {
        cluster.startBroker("broker-b");
        AdminClient admin = new AdminClient(cluster.clientConfig());
        admin.start();
        try {
            admin.createTopic("only-on-b", 2, "broker-b");
            cluster.broker("broker-b").registerWithNameServers().join();
            await().atMost(WAIT).ignoreExceptions().until(() -> !admin.route("only-on-b").queueDatas().isEmpty());
        } finally {
            admin.shutdown();
        }
        TransactionProducer producer = producer(new Ledger());
        LocalTransaction tx = producer.beginTransaction();
        // TOPIC was created before broker-b started: it lives on broker-a only, so the transaction is on broker-a
        SendResult first = tx.send(message(TOPIC, "first"));
        String broker = first.messageQueue().brokerName();
        assertThat(broker).isEqualTo("broker-a");
        assertThatThrownBy(() -> tx.send(message("only-on-b", "elsewhere")))
                .isInstanceOf(ClientException.class)
                .hasMessageContaining("no writable queue on broker " + broker)
                .hasMessageContaining(tx.transactionId());
        tx.send(message(TOPIC, "second")); // still usable
        tx.commit();
        Deliveries got = consumer(TOPIC);
        await().atMost(WAIT).until(() -> got.distinct() == 2);
        assertThat(bodies(got)).containsExactlyInAnyOrder("first", "second");
    }

    @Test
    void misuseGetsClearErrors() throws Exception {
        TransactionProducer noListener = new TransactionProducer("tx-no-listener", cluster.clientConfig());
        noListener.start();
        cluster.track(noListener::shutdown);
        assertThatThrownBy(() -> noListener.sendMessageInTransaction(message(TOPIC, "x"), null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("setTransactionListener");
        TransactionProducer producer = producer(new Ledger());
        Message badDelay = message(TOPIC, "later");
        badDelay.putProperty(MessageProperties.DELIVER_TIME_MS, "tomorrow");
        LocalTransaction tx = producer.beginTransaction();
        assertThatThrownBy(() -> tx.send(badDelay))
                .isInstanceOf(ClientException.class).hasMessageContaining("epoch milliseconds");
    }

    @Test
    void aDelayedMessageInATransactionIsScheduledWhenItCommits() throws Exception {
        TransactionProducer producer = producer(new Ledger());
        Deliveries got = consumer(TOPIC);
        List<Long> receivedAt = new java.util.concurrent.CopyOnWriteArrayList<>();
        PushConsumer timing = new PushConsumer("tx-timing", cluster.clientConfig());
        timing.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        timing.subscribe(TOPIC, "*");
        timing.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> receivedAt.add(System.currentTimeMillis()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        timing.start();
        cluster.track(timing::shutdown);

        LocalTransaction tx = producer.beginTransaction();
        long deliverAt = System.currentTimeMillis() + 2_000;
        Message delayed = message(TOPIC, "delayed");
        delayed.setDeliverTimeMs(deliverAt);
        tx.send(delayed);
        tx.send(message(TOPIC, "now"));
        tx.commit();
        await().atMost(WAIT).until(() -> got.distinct() == 2);
        assertThat(bodies(got)).containsExactly("now", "delayed");
        await().atMost(WAIT).until(() -> receivedAt.size() == 2);
        assertThat(receivedAt.get(1)).as("the delayed message is not delivered before its time")
                .isGreaterThanOrEqualTo(deliverAt);
    }

    @Test
    void aCommitRetriesAcrossABrokerRestart() throws Exception {
        TransactionProducer producer = producer(new Ledger());
        LocalTransaction tx = producer.beginTransaction();
        tx.send(message(TOPIC, "survives 1"));
        tx.send(message(TOPIC, "survives 2"));
        cluster.stopBroker("broker-a");
        cluster.startBroker("broker-a"); // same store, new port: the producer finds it through the NameServer
        tx.commit();
        Deliveries got = consumer(TOPIC);
        await().atMost(WAIT).until(() -> got.distinct() == 2);
        assertThat(bodies(got)).containsExactlyInAnyOrder("survives 1", "survives 2");
    }

    @Test
    void aProducerKilledBeforeEndTransactionIsAnsweredForByAnotherMember() throws Exception {
        Path database = dir.resolve("orders-db.txt");
        Files.writeString(database, "");
        ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), TransactionalProducerMain.class.getName(),
                cluster.namesrvAddr(), GROUP, TOPIC, "child-producer", database.toString(), "3")
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        Process child = builder.start();
        AtomicReference<String> transactionId = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("READY ")) {
                        transactionId.set(line.substring(6));
                    }
                }
            } catch (java.io.IOException e) {
                // the child was killed
            }
        }, "child-output");
        reader.start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> transactionId.get() != null);
        } finally {
            child.destroyForcibly(); // no END_TRANSACTION, no shutdown hook
            child.waitFor(10, TimeUnit.SECONDS);
            reader.join(5_000);
        }

        // another member of the group answers from the same database
        List<String> asked = new CopyOnWriteArrayList<>();
        TransactionProducer survivor = producer(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return LocalTransactionState.UNKNOW;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                asked.add(msg.getTransactionId());
                try {
                    return Files.readAllLines(database).contains(msg.getTransactionId())
                            ? LocalTransactionState.COMMIT_MESSAGE : LocalTransactionState.ROLLBACK_MESSAGE;
                } catch (java.io.IOException e) {
                    return LocalTransactionState.UNKNOW;
                }
            }
        });
        assertThat(survivor).isNotNull();
        Deliveries got = consumer(TOPIC);
        await().atMost(WAIT).until(() -> got.distinct() == 3);
        assertThat(bodies(got)).containsExactlyInAnyOrder("child-0", "child-1", "child-2");
        assertThat(asked).contains(transactionId.get());
        assertThat(cluster.broker("broker-a").transactions().openTransactionCount()).isZero();
    }

    @Test
    void theBrokerRefusingACommitIsReported() throws Exception {
        Ledger ledger = new Ledger();
        TransactionProducer producer = producer(ledger);
        LocalTransaction tx = producer.beginTransaction();
        tx.send(message(TOPIC, "x"));
        LocalTransaction other = producer.beginTransaction();
        other.send(message(TOPIC, "y"));
        other.rollback();
        // roll back "tx" behind the application's back through the check-back, then commit it
        ledger.outcomes.put(tx.transactionId(), LocalTransactionState.ROLLBACK_MESSAGE);
        await().atMost(WAIT).until(() -> cluster.broker("broker-a").transactions().openTransactionCount() == 0
                && !ledger.checked.isEmpty());
        assertThatThrownBy(tx::commit).isInstanceOf(ClientException.class)
                .hasMessageContaining("already rolled back")
                .extracting(e -> ((ClientException) e).responseCode()).isEqualTo(ResponseCode.TRANSACTION_FAILED);
        assertThatThrownBy(tx::rollback).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ended by the broker");
    }
}

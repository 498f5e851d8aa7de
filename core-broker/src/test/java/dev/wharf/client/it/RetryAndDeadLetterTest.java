package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retry chain with the real client: a failing message comes back through {@code %RETRY%group} (seen under
 * its own topic) until maxReconsumeTimes, then waits in {@code %DLQ%group}; the admin client lists and resends
 * it; a send-back while the broker is down loses nothing.
 */
class RetryAndDeadLetterTest {

    @TempDir
    Path dir;
    private TestWharf cluster;
    private Producer producer;
    private AdminClient admin;

    @BeforeEach
    void start() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        producer = new Producer("retry-producer", cluster.clientConfig());
        producer.start();
        cluster.track(producer::shutdown);
        admin = new AdminClient(cluster.clientConfig());
        admin.start();
        cluster.track(admin::shutdown);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private record Seen(String id, String topic, int reconsumeTimes, String body) {
    }

    private PushConsumer consumer(String group, Set<String> failing, List<Seen> seen) throws Exception {
        PushConsumer consumer = new PushConsumer(group, cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setMaxReconsumeTimes(3);
        consumer.subscribe("orders", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            boolean fail = false;
            for (MessageExt m : msgs) {
                String body = new String(m.getBody(), StandardCharsets.UTF_8);
                seen.add(new Seen(m.getMsgId(), m.getTopic(), m.getReconsumeTimes(), body));
                fail |= failing.contains(body);
            }
            return fail ? ConsumeConcurrentlyStatus.RECONSUME_LATER : ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);
        return consumer;
    }

    private static List<Seen> of(List<Seen> seen, String id) {
        return seen.stream().filter(s -> s.id.equals(id)).toList();
    }

    @Test
    void aPoisonMessageIsRetriedThenDeadLetteredThenResentAndConsumed() throws Exception {
        cluster.createTopic("orders", 2);
        Set<String> failing = ConcurrentHashMap.newKeySet();
        failing.add("poison");
        List<Seen> seen = new CopyOnWriteArrayList<>();
        consumer("billing", failing, seen);
        String poison = producer.send(new Message("orders", "poison".getBytes(StandardCharsets.UTF_8))).msgId();
        String fine = producer.send(new Message("orders", "fine".getBytes(StandardCharsets.UTF_8))).msgId();

        // first delivery and three retries, then the dead-letter queue
        await().atMost(Duration.ofSeconds(20)).until(() -> !admin.dlqMessages("billing", 10).isEmpty());
        List<Seen> deliveries = of(seen, poison);
        assertThat(deliveries).extracting(Seen::reconsumeTimes).containsExactly(0, 1, 2, 3);
        assertThat(deliveries).extracting(Seen::topic).as("retries show the topic the consumer subscribed to")
                .containsOnly("orders");
        assertThat(of(seen, fine)).hasSize(1);

        List<MessageExt> dead = admin.dlqMessages("billing", 10);
        assertThat(dead).hasSize(1);
        MessageExt letter = dead.get(0);
        assertThat(letter.getTopic()).isEqualTo(SystemTopics.dlqTopic("billing"));
        assertThat(letter.getMsgId()).isEqualTo(poison);
        assertThat(letter.getProperty(MessageProperties.RETRY_TOPIC)).isEqualTo("orders");
        assertThat(letter.getReconsumeTimes()).isEqualTo(4);
        assertThat(new String(letter.getBody(), StandardCharsets.UTF_8)).isEqualTo("poison");

        // the operator fixed the consumer: resend everything waiting
        failing.clear();
        assertThat(admin.dlqResend("billing", null)).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> of(seen, poison).size() == 5);
        Seen again = of(seen, poison).get(4);
        assertThat(again.topic()).isEqualTo("orders");
        assertThat(again.reconsumeTimes()).as("a fresh start").isZero();
        assertThat(admin.dlqMessages("billing", 10)).as("resent letters are no longer listed").isEmpty();
        assertThat(admin.dlqResend("billing", null)).as("nothing is resent twice").isZero();
    }

    @Test
    void aSingleDeadLetterIsResentByItsId() throws Exception {
        cluster.createTopic("orders", 1);
        Set<String> failing = ConcurrentHashMap.newKeySet();
        failing.add("a");
        failing.add("b");
        List<Seen> seen = new CopyOnWriteArrayList<>();
        consumer("shipping", failing, seen);
        String a = producer.send(new Message("orders", "a".getBytes(StandardCharsets.UTF_8))).msgId();
        String b = producer.send(new Message("orders", "b".getBytes(StandardCharsets.UTF_8))).msgId();
        await().atMost(Duration.ofSeconds(20)).until(() -> admin.dlqMessages("shipping", 10).size() == 2);

        failing.clear();
        assertThat(admin.dlqResend("shipping", "no-such-id")).isZero();
        assertThat(admin.dlqResend("shipping", b)).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> of(seen, b).size() == 5);
        assertThat(of(seen, a)).hasSize(4);
        assertThat(admin.dlqResend("shipping", a)).isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> of(seen, a).size() == 5);
        assertThat(admin.dlqMessages("shipping", 10)).isEmpty();

        assertThatThrownBy(() -> admin.dlqMessages("bad group!", 1)).isInstanceOf(ClientException.class);
        assertThatThrownBy(() -> admin.dlqMessages("shipping", 0)).isInstanceOf(ClientException.class)
                .hasMessageContaining("at least 1");
        assertThat(admin.dlqMessages("never-failed", 10)).isEmpty();
    }

    @Test
    void aSendBackWhileTheBrokerIsDownLosesNothing() throws Exception {
        cluster.createTopic("orders", 1);
        List<Seen> seen = new CopyOnWriteArrayList<>();
        AtomicBoolean stopped = new AtomicBoolean();
        PushConsumer consumer = new PushConsumer("audit", cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("orders", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                seen.add(new Seen(m.getMsgId(), m.getTopic(), m.getReconsumeTimes(),
                        new String(m.getBody(), StandardCharsets.UTF_8)));
            }
            if (stopped.compareAndSet(false, true)) {
                cluster.stopBroker("broker-a"); // the send-back of this failure cannot reach the broker
                return ConsumeConcurrentlyStatus.RECONSUME_LATER;
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);
        String id = producer.send(new Message("orders", "audit-1".getBytes(StandardCharsets.UTF_8))).msgId();

        // consumed again locally while the broker is down
        await().atMost(Duration.ofSeconds(20)).until(() -> of(seen, id).size() >= 2);
        assertThat(cluster.broker("broker-a")).isNull();
        assertThat(of(seen, id).get(1).reconsumeTimes()).isEqualTo(1);

        // back up: the consumer reconnects and commits; nothing is lost and nothing is left behind
        cluster.startBroker("broker-a");
        await().atMost(Duration.ofSeconds(20)).until(() -> admin.consumerProgress("audit").stream()
                .filter(p -> p.mq().topic().equals("orders")).allMatch(p -> p.consumerOffset() == p.brokerOffset()));
        assertThat(of(seen, id).size()).isBetween(2, 3);
    }
}

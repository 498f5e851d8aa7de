package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.ConsumeOrderlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.MessageListenerOrderly;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SelectMessageQueueByHash;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Per-key order with an orderly listener on four threads; long-polling latency; local retry of a failure. */
class OrderAndLatencyTest {

    private static final Logger log = LoggerFactory.getLogger(OrderAndLatencyTest.class);

    @TempDir
    Path dir;
    private TestWharf cluster;
    private Producer producer;

    @BeforeEach
    void start() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        producer = new Producer("order-producer", cluster.clientConfig());
        producer.start();
        cluster.track(producer::shutdown);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void perKeyOrderHoldsAcrossFourConsumeThreadsEvenWhenABatchIsSuspended() throws Exception {
        cluster.createTopic("ordered", 8);
        Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        AtomicBoolean failedOnce = new AtomicBoolean();
        AtomicInteger concurrentOnOneQueue = new AtomicInteger();
        Map<Integer, AtomicInteger> busy = new ConcurrentHashMap<>();
        PushConsumer consumer = new PushConsumer("orderly-group", cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setConsumeThreadMin(4);
        consumer.setConsumeThreadMax(4);
        consumer.setSuspendCurrentQueueTimeMillis(200);
        consumer.subscribe("ordered", "*");
        consumer.registerMessageListener((MessageListenerOrderly) (msgs, ctx) -> {
            AtomicInteger inQueue = busy.computeIfAbsent(ctx.getMessageQueue().queueId(), k -> new AtomicInteger());
            if (inQueue.incrementAndGet() > 1) {
                concurrentOnOneQueue.incrementAndGet();
            }
            try {
                threads.add(Thread.currentThread().getName());
                for (MessageExt m : msgs) {
                    String[] parts = new String(m.getBody(), StandardCharsets.UTF_8).split(":");
                    if (parts[0].equals("key-3") && parts[1].equals("5") && failedOnce.compareAndSet(false, true)) {
                        return ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT;
                    }
                    seen.computeIfAbsent(parts[0], k -> new CopyOnWriteArrayList<>()).add(Integer.parseInt(parts[1]));
                }
                return ConsumeOrderlyStatus.SUCCESS;
            } finally {
                inQueue.decrementAndGet();
            }
        });
        consumer.start();
        cluster.track(consumer::shutdown);

        SelectMessageQueueByHash byKey = new SelectMessageQueueByHash();
        int keys = 12;
        int perKey = 25;
        for (int seq = 0; seq < perKey; seq++) {
            for (int k = 0; k < keys; k++) {
                String key = "key-" + k;
                producer.send(new Message("ordered", (key + ":" + seq).getBytes(StandardCharsets.UTF_8)), byKey, key);
            }
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> seen.size() == keys
                && seen.values().stream().allMatch(l -> l.size() >= perKey));
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < perKey; i++) {
            expected.add(i);
        }
        seen.forEach((key, order) -> assertThat(order).as("order of %s", key).containsExactlyElementsOf(expected));
        assertThat(failedOnce).isTrue();
        assertThat(concurrentOnOneQueue).as("one thread per queue at a time").hasValue(0);
        assertThat(threads.size()).isGreaterThan(1);
    }

    @Test
    void orderHoldsWhileQueuesMoveToANewMember() throws Exception {
        cluster.createTopic("handoff", 4);
        Map<String, List<Integer>> seen = new ConcurrentHashMap<>();
        MessageListenerOrderly listener = (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                String[] parts = new String(m.getBody(), StandardCharsets.UTF_8).split(":");
                seen.computeIfAbsent(parts[0], k -> new CopyOnWriteArrayList<>()).add(Integer.parseInt(parts[1]));
            }
            return ConsumeOrderlyStatus.SUCCESS;
        };
        List<PushConsumer> members = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            PushConsumer consumer = new PushConsumer("handoff-group", cluster.clientConfig());
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.subscribe("handoff", "*");
            consumer.registerMessageListener(listener);
            members.add(consumer);
        }
        members.get(0).start();
        cluster.track(members.get(0)::shutdown);
        SelectMessageQueueByHash byKey = new SelectMessageQueueByHash();
        int keys = 8;
        int perKey = 40;
        Thread sender = new Thread(() -> {
            try {
                for (int seq = 0; seq < perKey; seq++) {
                    for (int k = 0; k < keys; k++) {
                        String key = "key-" + k;
                        producer.send(new Message("handoff", (key + ":" + seq).getBytes(StandardCharsets.UTF_8)),
                                byKey, key);
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        sender.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> seen.values().stream().mapToInt(List::size).sum() > 40);
        members.get(1).start();
        cluster.track(members.get(1)::shutdown);
        sender.join();
        await().atMost(Duration.ofSeconds(30)).until(() -> seen.size() == keys
                && seen.values().stream().allMatch(l -> l.size() >= perKey)
                && members.get(1).assignedQueues().stream().anyMatch(q -> q.topic().equals("handoff")));
        seen.forEach((key, order) -> {
            for (int i = 1; i < order.size(); i++) {
                assertThat(order.get(i)).as("%s delivered %s", key, order).isGreaterThan(order.get(i - 1));
            }
        });
        assertThat(members.get(0).assignedQueues()).filteredOn(q -> q.topic().equals("handoff")).hasSize(2);
    }

    @Test
    void aHeldPullAnswersSoonAfterASend() throws Exception {
        cluster.createTopic("latency", 1);
        AtomicLong receivedAt = new AtomicLong();
        PushConsumer consumer = new PushConsumer("latency-group", cluster.clientConfig());
        consumer.subscribe("latency", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            receivedAt.compareAndSet(0, System.nanoTime());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);
        // both the topic's queue and the retry topic's queue are held by the broker
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.broker("broker-a").heldPullCount() >= 1
                && consumer.assignedQueues().stream().anyMatch(q -> q.topic().equals("latency")));
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.broker("broker-a").heldPullCount()
                >= consumer.assignedQueues().size());
        long sentAt = System.nanoTime();
        producer.send(new Message("latency", "ping".getBytes(StandardCharsets.UTF_8)));
        await().atMost(Duration.ofSeconds(10)).until(() -> receivedAt.get() != 0);
        double millis = (receivedAt.get() - sentAt) / 1e6;
        log.info("Long polling: send to listener took {} ms (the broker holds pulls up to 15000 ms)",
                String.format("%.1f", millis));
        assertThat(millis).isLessThan(15_000);
    }

    @Test
    void aFailedMessageIsConsumedAgainWhenTheBrokerCannotTakeItBack() throws Exception {
        cluster.createTopic("retry", 2);
        Deliveries got = new Deliveries();
        PushConsumer consumer = new PushConsumer("retry-group", cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("retry", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            got.add("c", msgs);
            boolean fail = msgs.stream().anyMatch(m -> new String(m.getBody(), StandardCharsets.UTF_8).equals("bad")
                    && m.getReconsumeTimes() == 0);
            return fail ? ConsumeConcurrentlyStatus.RECONSUME_LATER : ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);
        String bad = producer.send(new Message("retry", "bad".getBytes(StandardCharsets.UTF_8))).msgId();
        String good = producer.send(new Message("retry", "good".getBytes(StandardCharsets.UTF_8))).msgId();
        await().atMost(Duration.ofSeconds(20)).until(() -> got.list().stream()
                .anyMatch(d -> d.msgId().equals(bad) && d.reconsumeTimes() == 1));
        assertThat(got.ids()).contains(good);
    }
}

package dev.wharf.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.MessageSelector;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** RocketMQ push consumers with default settings: start positions, filters, order, delays, retries. */
class ConsumeCompatTest {

    @TempDir
    static Path dir;

    private static TestWharf servers;
    private RocketClients clients;

    @BeforeAll
    static void startServers() throws Exception {
        // short delay levels so that retries (level 3 + attempt) come back within the test
        servers = WharfServers.start(dir, s -> s.broker().schedule().setMessageDelayLevel(
                "1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s"));
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
    }

    private static Message message(String topic, String tag, String key, String body) {
        return new Message(topic, tag, key, body.getBytes(StandardCharsets.UTF_8));
    }

    @SuppressWarnings("deprecation")
    @ParameterizedTest
    @EnumSource(ConsumeFromWhere.class)
    void everyConsumeFromWhereStartsAndReceivesWhatIsSentAfterwards(ConsumeFromWhere from) throws Exception {
        String topic = "From_" + from.ordinal();
        DefaultMQProducer producer = clients.producer("from-pg-" + from.ordinal());
        producer.send(message(topic, "t", "before", "old"));

        Set<String> got = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = clients.pushConsumer("from-cg-" + from.ordinal());
        consumer.setConsumeFromWhere(from);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> got.add(m.getKeys()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        // the consumer owns queues once its heartbeat is accepted; send until what it started after arrives
        AtomicInteger n = new AtomicInteger();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
            producer.send(message(topic, "t", "after-" + n.incrementAndGet(), "new"));
            return got.stream().anyMatch(k -> k.startsWith("after-"));
        });
        if (from == ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET) {
            await().atMost(Duration.ofSeconds(30)).until(() -> got.contains("before"));
        }
    }

    @Test
    void tagFiltersDeliverOnlyTheirTags() throws Exception {
        DefaultMQProducer producer = clients.producer("tag-pg");
        for (String tag : List.of("TagA", "TagB", "TagC", "TagA")) {
            producer.send(message("Tagged", tag, tag + "-" + System.nanoTime(), tag));
        }
        List<String> tags = new CopyOnWriteArrayList<>();
        DefaultMQPushConsumer consumer = clients.pushConsumer("tag-cg");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("Tagged", "TagA || TagC");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> tags.add(m.getTags()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> tags.size() >= 3);
        assertThat(tags).containsExactlyInAnyOrder("TagA", "TagA", "TagC");
    }

    @Test
    void sql92ConsumersStartAndGetOnlyMatchingMessages() throws Exception {
        DefaultMQProducer producer = clients.producer("sql-pg");
        for (int i = 1; i <= 6; i++) {
            Message m = message("Sql", i % 2 == 0 ? "even" : "odd", "sql-" + i, "n" + i);
            m.putUserProperty("n", String.valueOf(i));
            producer.send(m);
        }
        Set<String> got = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = clients.pushConsumer("sql-cg");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("Sql", MessageSelector.bySql("n > 3 AND TAGS = 'even'"));
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> got.add(m.getKeys()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> got.size() >= 2);
        assertThat(got).containsExactlyInAnyOrder("sql-4", "sql-6");
    }

    @Test
    void aBadSql92SelectorFailsTheConsumersStartWithTheReason() throws Exception {
        clients.producer("sql-bad-pg").send(message("SqlBad", "t", "k", "x"));
        DefaultMQPushConsumer consumer = clients.pushConsumer("sql-bad-cg");
        consumer.subscribe("SqlBad", MessageSelector.bySql("n > > 3"));
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) ->
                ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        org.assertj.core.api.Assertions.assertThatThrownBy(consumer::start).hasMessageContaining("n > > 3");
    }

    @Test
    void orderlyConsumptionKeepsTheOrderPerQueue() throws Exception {
        DefaultMQProducer producer = clients.producer("order-pg");
        int perKey = 10;
        for (int i = 0; i < perKey; i++) {
            for (int key = 0; key < 3; key++) {
                Message m = message("Ordered", "o", "k" + key + "-" + i, String.valueOf(i));
                assertThat(producer.send(m, (mqs, msg, arg) -> mqs.get((Integer) arg % mqs.size()), key)
                        .getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            }
        }
        Map<Integer, List<Integer>> seen = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = clients.pushConsumer("order-cg");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("Ordered", "*");
        consumer.registerMessageListener((MessageListenerOrderly) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                int key = Integer.parseInt(m.getKeys().substring(1, m.getKeys().indexOf('-')));
                seen.computeIfAbsent(key, k -> Collections.synchronizedList(new ArrayList<>()))
                        .add(Integer.parseInt(new String(m.getBody(), StandardCharsets.UTF_8)));
            }
            return ConsumeOrderlyStatus.SUCCESS;
        });
        consumer.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> seen.values().stream().mapToInt(List::size).sum() >= 3 * perKey);
        for (List<Integer> order : seen.values()) {
            assertThat(order).isSorted().hasSize(perKey);
        }
    }

    @Test
    void aDelayLevelHoldsTheMessageBack() throws Exception {
        DefaultMQProducer producer = clients.producer("delay-pg");
        producer.send(message("Delayed", "t", "warm-up", "x"));
        Map<String, Long> arrived = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = clients.pushConsumer("delay-cg");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("Delayed", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> arrived.put(m.getKeys(), System.currentTimeMillis()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> arrived.containsKey("warm-up"));
        Message delayed = message("Delayed", "t", "late", "x");
        delayed.setDelayTimeLevel(2);
        long sent = System.currentTimeMillis();
        producer.send(delayed);
        await().atMost(Duration.ofSeconds(60)).until(() -> arrived.containsKey("late"));
        assertThat(arrived.get("late") - sent).isGreaterThanOrEqualTo(900);
    }

    /**
     * RocketMQ 5's {@code setDeliverTimeMs}, the older {@code __STARTDELIVERTIME} and {@code TIMER_DELAY_SEC} all go
     * through Wharf's timer queue (the one JMS delivery delays use): nothing arrives before its time.
     */
    @Test
    void timerMessagesArriveAtTheirDeliveryTime() throws Exception {
        DefaultMQProducer producer = clients.producer("timer-pg");
        producer.send(message("Timed", "t", "warm-up", "x"));
        Map<String, Long> arrived = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = clients.pushConsumer("timer-cg");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("Timed", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> arrived.putIfAbsent(m.getKeys(), System.currentTimeMillis()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> arrived.containsKey("warm-up"));

        long now = System.currentTimeMillis();
        Message byDeliverTime = message("Timed", "t", "deliver-ms", "x");
        deliverTimeMs(byDeliverTime, now + 1_500);
        Message byStartTime = message("Timed", "t", "start-deliver", "x");
        MessageAccessor.putProperty(byStartTime, "__STARTDELIVERTIME", String.valueOf(now + 2_000));
        Message bySeconds = message("Timed", "t", "delay-sec", "x");
        MessageAccessor.putProperty(bySeconds, "TIMER_DELAY_SEC", "1");
        long secondsSent = System.currentTimeMillis();
        producer.send(bySeconds);
        producer.send(byDeliverTime);
        producer.send(byStartTime);
        producer.send(message("Timed", "t", "at-once", "x"));

        await().atMost(Duration.ofSeconds(60)).until(() -> arrived.keySet().containsAll(
                List.of("deliver-ms", "start-deliver", "delay-sec", "at-once")));
        assertThat(arrived.get("deliver-ms")).isGreaterThanOrEqualTo(now + 1_500);
        assertThat(arrived.get("start-deliver")).isGreaterThanOrEqualTo(now + 2_000);
        assertThat(arrived.get("delay-sec")).isGreaterThanOrEqualTo(secondsSent + 1_000);
        assertThat(arrived.get("at-once")).isLessThan(arrived.get("deliver-ms"));
    }

    /** RocketMQ 5's {@code Message.setDeliverTimeMs}; the 4.x client has no setter, only the property it sets. */
    private static void deliverTimeMs(Message msg, long epochMillis) throws Exception {
        try {
            Message.class.getMethod("setDeliverTimeMs", long.class).invoke(msg, epochMillis);
        } catch (NoSuchMethodException e) {
            MessageAccessor.putProperty(msg, "TIMER_DELIVER_MS", String.valueOf(epochMillis));
        }
    }

    @Test
    void aFailedMessageIsRetriedThenMovedToTheDeadLetterQueue() throws Exception {
        DefaultMQProducer producer = clients.producer("retry-pg");
        producer.send(message("Failing", "t", "poison", "x"));
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        DefaultMQPushConsumer consumer = clients.pushConsumer("retry-cg");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setMaxReconsumeTimes(2);
        consumer.subscribe("Failing", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> attempts.add(m.getReconsumeTimes()));
            return ConsumeConcurrentlyStatus.RECONSUME_LATER;
        });
        consumer.start();
        await().atMost(Duration.ofSeconds(90)).until(() -> attempts.size() >= 3);
        assertThat(attempts).startsWith(0, 1, 2);

        List<String> dead = new CopyOnWriteArrayList<>();
        DefaultMQPushConsumer dlq = clients.pushConsumer("dlq-reader");
        dlq.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        dlq.subscribe("%DLQ%retry-cg", "*");
        dlq.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> dead.add(m.getKeys()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        dlq.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> dead.contains("poison"));
    }

    @Test
    void broadcastingDeliversToEveryMember() throws Exception {
        DefaultMQProducer producer = clients.producer("bc-pg");
        producer.send(message("Broadcast", "t", "warm", "x"));
        List<Set<String>> perMember = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Set<String> got = ConcurrentHashMap.newKeySet();
            perMember.add(got);
            DefaultMQPushConsumer consumer = clients.pushConsumer("bc-cg");
            broadcasting(consumer);
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.subscribe("Broadcast", "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                msgs.forEach(m -> got.add(m.getKeys()));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
        }
        for (int i = 0; i < 5; i++) {
            producer.send(message("Broadcast", "t", "b" + i, "x"));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> perMember.stream().allMatch(s -> s.contains("b4")
                && s.size() >= 5));
    }

    /** MessageModel moved between the 4.x and 5.x clients; both name the value BROADCASTING. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void broadcasting(DefaultMQPushConsumer consumer) throws Exception {
        for (java.lang.reflect.Method m : DefaultMQPushConsumer.class.getMethods()) {
            if (m.getName().equals("setMessageModel")) {
                Class<? extends Enum> type = (Class<? extends Enum>) m.getParameterTypes()[0];
                m.invoke(consumer, Enum.valueOf(type, "BROADCASTING"));
                return;
            }
        }
        throw new AssertionError("DefaultMQPushConsumer has no setMessageModel");
    }
}

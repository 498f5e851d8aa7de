package dev.wharf.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.producer.SendResult;
import dev.wharf.spring.boot.actuate.WharfHealthIndicator;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import dev.wharf.spring.boot.transaction.TransactionStats;
import dev.wharf.spring.core.WharfTemplate;
import dev.wharf.spring.listener.ListenerTestApplication.Listeners;
import dev.wharf.spring.listener.ListenerTestApplication.Order;
import dev.wharf.spring.listener.ListenerTestApplication.Orders;
import dev.wharf.spring.listener.ListenerTestApplication.Step;
import dev.wharf.spring.listener.readme.Shop;
import dev.wharf.spring.support.WharfHeaders;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code @MessageListener} and WharfTemplate end to end on the starter's embedded broker, one application context for
 * the class: several listeners in one bean, JSON and headers, tag and SQL92 subscriptions, retries to the
 * dead-letter queue, request/reply (from WharfTemplate and from JmsTemplate), ORDERLY consumption of 10,000
 * messages sent concurrently, BROADCASTING to two application contexts, and WharfTemplate sends mixed with
 * JmsTemplate sends in one {@code @Transactional} method that commits or rolls back.
 */
@SpringBootTest(classes = ListenerTestApplication.class, properties = {
        "test.topic-prefix=e2e",
        "wharf.producer-group=listener-e2e",
        "spring.sql.init.mode=always",
        "spring.datasource.url=jdbc:h2:mem:listener-e2e;DB_CLOSE_DELAY=-1"})
// closed after the class, before its temporary folder is deleted (and not left running beside later test classes)
@DirtiesContext
class MessageListenerEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;

    @DynamicPropertySource
    static void dirs(DynamicPropertyRegistry registry) {
        registry.add("wharf.embedded.store-dir", () -> dir.resolve("store").toString());
        registry.add("wharf.messaging.offset-store-dir", () -> dir.resolve("offsets").toString());
    }

    @Autowired
    WharfTemplate wharf;
    @Autowired
    JmsTemplate jms;
    @Autowired
    Listeners listeners;
    @Autowired
    MessageListenerRegistry registry;
    @Autowired
    Orders orders;
    @Autowired
    TransactionStats transactions;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    EmbeddedWharfBroker broker;
    @Autowired
    WharfHealthIndicator health;
    @Autowired
    Shop shop;
    @Autowired
    MeterRegistry meters;

    /** A consumer that starts at the last offset must own its queues before the test sends. */
    @BeforeEach
    void listenersOwnTheirQueues() {
        assertThat(registry.getContainers()).hasSize(16)
                .allMatch(c -> c.isRunning() || !c.endpoint().autoStartup());
        await().atMost(WAIT).until(() -> registry.getContainers().stream()
                .allMatch(c -> !c.assignedQueues().isEmpty() || !c.endpoint().autoStartup()));
    }

    @Test
    void aJsonPayloadAndItsHeadersReachTheMethod() {
        SendResult sent = wharf.syncSend("e2e-orders:created", new Order(7, "lamp", 2),
                Map.of(WharfHeaders.KEYS, "order-7", "region", "eu"));

        await().atMost(WAIT).until(() -> listeners.bodies("json").contains("lamp"));
        Map<String, Object> details = listeners.seen.stream().filter(s -> s.body().equals("lamp")).findFirst()
                .orElseThrow().details();
        assertThat(details).containsEntry("order", new Order(7, "lamp", 2)).containsEntry("keys", "order-7")
                .containsEntry("tag", "created").containsEntry("region", "eu")
                .containsEntry("msgId", sent.msgId()).containsEntry("queueId", sent.messageQueue().queueId());
        assertThat((long) details.get("born")).isPositive();
    }

    @Test
    void tagAndSql92SubscriptionsReceiveOnlyTheirMessages() {
        wharf.syncSend("e2e-colors:red", "red light", Map.of("weight", 5, "shade", "dark"));
        wharf.syncSend("e2e-colors:green", "green heavy dark", Map.of("weight", 20, "shade", "dark"));
        wharf.syncSend("e2e-colors:green", "green heavy pale", Map.of("weight", 20, "shade", "pale"));
        wharf.syncSend("e2e-colors:blue", "blue heavy dark", Map.of("weight", 30, "shade", "dark"));
        wharf.syncSend("e2e-colors:yellow", "last", Map.of("weight", 99, "shade", "dark"));

        await().atMost(WAIT).until(() -> listeners.bodies("sql").contains("last"));
        await().atMost(WAIT).until(() -> listeners.bodies("tag").contains("blue heavy dark"));
        assertThat(listeners.bodies("tag")).containsExactlyInAnyOrder("red light", "blue heavy dark");
        assertThat(listeners.bodies("sql")).containsExactlyInAnyOrder("green heavy dark", "blue heavy dark", "last");
    }

    @Test
    void aFailingMessageIsRetriedThenDeadLettered() {
        wharf.syncSend("e2e-failing", "poison");

        await().atMost(WAIT).until(() -> listeners.bodies("dlq").contains("poison"));
        assertThat(listeners.failedAttempts).as("the first delivery and maxReconsumeTimes = 2 retries")
                .containsExactly(0, 1, 2);
    }

    @Test
    void aReturnValueAnswersWharfTemplateAndJmsTemplateRequests() throws Exception {
        Order reply = wharf.sendAndReceive("e2e-requests", "how many?", Order.class, WAIT);
        assertThat(reply).isEqualTo(new Order(42, "re: how many?", 1));

        jms.setReceiveTimeout(WAIT.toMillis());
        jakarta.jms.Message jmsReply = jms.sendAndReceive("e2e-requests", s -> s.createTextMessage("from jms"));
        assertThat(jmsReply).isInstanceOf(TextMessage.class);
        assertThat(((TextMessage) jmsReply).getText()).isEqualTo("{\"id\":42,\"item\":\"re: from jms\",\"quantity\":1}");
    }

    @Test
    void orderlyListenerKeepsEachKeysOrderOverTenThousandConcurrentSends() throws Exception {
        int keys = 40;
        int perKey = 250;
        ExecutorService senders = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> sends = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                sends.add(senders.submit(() -> {
                    for (int seq = 0; seq < perKey; seq++) {
                        for (int k = thread; k < keys; k += 4) {
                            String key = "key-" + k;
                            wharf.syncSendOrderly("e2e-ordered", new Step(key, seq), key);
                        }
                    }
                }));
            }
            for (Future<?> f : sends) {
                f.get();
            }
        } finally {
            senders.shutdownNow();
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> listeners.steps.values().stream()
                .mapToInt(List::size).sum() >= keys * perKey);
        List<Integer> expected = IntStream.range(0, perKey).boxed().toList();
        assertThat(listeners.steps).hasSize(keys);
        listeners.steps.forEach((key, seqs) -> assertThat(seqs).as("the order of %s", key).isEqualTo(expected));
    }

    @Test
    void aBroadcastReachesEveryApplicationContext() {
        try (ConfigurableApplicationContext second = new SpringApplicationBuilder(ListenerTestApplication.class)
                .web(WebApplicationType.NONE)
                .properties("test.topic-prefix=second", "wharf.url=wharf://" + broker.namesrvAddr(),
                        "spring.datasource.url=jdbc:h2:mem:listener-e2e-second;DB_CLOSE_DELAY=-1",
                        "spring.sql.init.mode=always", "spring.main.banner-mode=off",
                        "wharf.messaging.offset-store-dir=" + dir.resolve("offsets-second"))
                .run()) {
            MessageListenerRegistry secondRegistry = second.getBean(MessageListenerRegistry.class);
            Listeners secondListeners = second.getBean(Listeners.class);
            ListenerContainer secondBroadcast = secondRegistry.getContainer("listeners#onBroadcast");
            await().atMost(WAIT).until(() -> !secondBroadcast.assignedQueues().isEmpty());

            for (int i = 0; i < 20; i++) {
                wharf.syncSend("e2e-broadcast", "news " + i);
            }

            List<String> all = IntStream.range(0, 20).mapToObj(i -> "news " + i).toList();
            await().atMost(WAIT).until(() -> listeners.broadcasts.containsAll(all)
                    && secondListeners.broadcasts.containsAll(all));
            assertThat(listeners.broadcasts).containsExactlyInAnyOrderElementsOf(all);
            assertThat(secondListeners.broadcasts).containsExactlyInAnyOrderElementsOf(all);
        }
    }

    @Test
    void wharfTemplateAndJmsTemplateSendsCommitWithTheDatabaseInOneTransaction() {
        long started = transactions.started();
        long recorded = transactions.recorded();

        orders.place(1001, false);

        await().atMost(WAIT).until(() -> listeners.bodies("tx").containsAll(List.of("order 1001 via wharf",
                "order 1001 via wharf, keyed", "order 1001 via jms")));
        assertThat(transactions.started() - started).as("one Wharf transaction for the three sends").isEqualTo(1);
        assertThat(transactions.recorded() - recorded).as("recorded once in the transaction log").isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE id = 1001", Long.class)).isEqualTo(1);
    }

    @Test
    void aRollbackDropsTheWharfTemplateAndJmsTemplateSends() {
        long rolledBack = transactions.rolledBack();
        assertThatThrownBy(() -> orders.place(1002, true)).hasMessageContaining("payment declined");
        assertThat(transactions.rolledBack()).isGreaterThan(rolledBack);

        // a later transaction's messages arrive; the rolled-back ones never do
        orders.place(1003, false);
        await().atMost(WAIT).until(() -> listeners.bodies("tx").contains("order 1003 via jms")
                && listeners.bodies("tx").contains("order 1003 via wharf"));
        assertThat(listeners.bodies("tx")).noneMatch(b -> b.startsWith("order 1002"));
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE id = 1002", Long.class)).isZero();
    }

    @Test
    void listenerCallsAndSendsAreObservedAndTheHealthListsEachListener() {
        double sentBefore = meters.get("wharf.messages.sent").functionCounter().count();
        wharf.syncSend("e2e-orders", new Order(10, "observed", 1));
        await().atMost(WAIT).until(() -> listeners.bodies("json").contains("observed"));

        assertThat(meters.get("wharf.messages.sent").functionCounter().count()).isGreaterThan(sentBefore);
        assertThat(meters.get("wharf.message.publish").tag("messaging.destination.name", "e2e-orders").timer()
                .count()).isPositive();
        await().atMost(WAIT).until(() -> meters.find("wharf.message.process")
                .tag("messaging.consumer.group.name", "e2e-json").timer() != null);
        Health h = health.health(true);
        assertThat(h.getStatus()).isEqualTo(Status.UP);
        @SuppressWarnings("unchecked")
        Map<String, String> states = (Map<String, String>) h.getDetails().get("listeners");
        assertThat(states).hasSize(16).containsEntry("listeners#onStep", "RUNNING");
    }

    @Test
    void aListenerThatStartsLaterFromTheFirstOffsetGetsWhatWasSentBefore() {
        assertThat(registry.states()).containsEntry("history", "CREATED");
        for (int i = 0; i < 3; i++) {
            wharf.syncSend("e2e-history", "earlier " + i);
        }
        registry.start("history");
        await().atMost(WAIT).until(() -> listeners.bodies("history").size() >= 3);
        assertThat(listeners.bodies("history")).containsExactlyInAnyOrder("earlier 0", "earlier 1", "earlier 2");
    }

    @Test
    void theReadmeExampleRunsAsWritten() {
        shop.advance(1, "PAID");
        shop.examples();
        assertThat(registry.states()).containsEntry("shop#audit", "RUNNING").containsEntry("shop#audit#1", "RUNNING")
                .containsEntry("shop#onStep", "RUNNING");
    }

    @Test
    void aListenerStopsAndStartsThroughTheRegistry() {
        ListenerContainer json = registry.getContainer("listeners#onOrder");
        // the group commits an offset once it consumed something (before that, a restart starts at the end again)
        wharf.syncSend("e2e-orders", new Order(9, "before the stop", 1));
        await().atMost(WAIT).until(() -> listeners.bodies("json").contains("before the stop"));
        registry.stop("listeners#onOrder");
        assertThat(json.state()).isEqualTo(ListenerContainer.State.STOPPED);
        assertThat(registry.states()).containsEntry("listeners#onOrder", "STOPPED");

        wharf.syncSend("e2e-orders", MessageBuilder.withPayload(new Order(8, "while stopped", 1)).build());
        registry.start("listeners#onOrder");
        assertThat(json.isRunning()).isTrue();
        // the group's offset was committed at stop: what came meanwhile is consumed after the restart
        await().atMost(WAIT).until(() -> listeners.bodies("json").contains("while stopped"));
    }
}

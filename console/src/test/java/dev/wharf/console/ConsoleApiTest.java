package dev.wharf.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.message.Message;
import dev.wharf.namesrv.NameServer;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The console's HTTP layer against a real NameServer and broker in this JVM: every call is a real HTTP request to
 * the running console, every change is checked in the cluster.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"wharf.console.sample-interval=200ms", "server.address=127.0.0.1"})
class ConsoleApiTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static Path dir;
    private static NameServer nameServer;
    private static Broker broker;

    @LocalServerPort
    int port;
    private Producer producer;
    private PushConsumer consumer;

    @BeforeAll
    static void startCluster() throws Exception {
        dir = Files.createTempDirectory("wharf-console-test");
        nameServer = NameServer.onPort(0);
        nameServer.start();
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(dir.resolve("broker").toString());
        s.store().setMappedFileSizeCommitLog(4 * 1024 * 1024);
        s.store().setMaxMessageSize(256 * 1024);
        s.netty().setListenPort(0);
        s.broker().setBrokerName("console-broker");
        s.broker().setNamesrvAddr(nameServer.address());
        s.broker().setDefaultTopicQueueNums(2);
        s.broker().setMessageDelayLevel("100ms 100ms 100ms 100ms");
        broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();
    }

    @DynamicPropertySource
    static void namesrv(DynamicPropertyRegistry registry) {
        registry.add("wharf.console.namesrv", () -> nameServer.address());
    }

    @AfterAll
    static void stopCluster() throws Exception {
        broker.shutdown();
        nameServer.shutdown();
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @AfterEach
    void stopClients() {
        if (consumer != null) {
            consumer.shutdown();
        }
        if (producer != null) {
            producer.shutdown();
        }
    }

    private ClientConfig clientConfig() {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(nameServer.address());
        config.setInstanceName("console-test-" + System.nanoTime());
        config.setPollNameServerInterval(500);
        config.setHeartbeatBrokerInterval(1_000);
        config.setPersistConsumerOffsetInterval(300);
        return config;
    }

    private Producer producer() throws Exception {
        producer = new Producer("console-test-producer", clientConfig());
        producer.start();
        return producer;
    }

    private PushConsumer consume(String group, String topic, MessageListenerConcurrently listener, int maxReconsume)
            throws Exception {
        consumer = new PushConsumer(group, clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setMaxReconsumeTimes(maxReconsume);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener(listener);
        consumer.start();
        return consumer;
    }

    record Answer(int status, JsonNode json, String text) {
        String error() {
            return json.path("error").asString();
        }
    }

    private Answer call(String method, String path, Object body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json = r.body().startsWith("{") || r.body().startsWith("[") ? JSON.readTree(r.body()) : null;
        assertThat(r.body()).as("no stack trace reaches a page").doesNotContain("\tat ").doesNotContain("Exception:");
        return new Answer(r.statusCode(), json, r.body());
    }

    private Answer get(String path) throws Exception {
        return call("GET", path, null);
    }

    private static String q(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8);
    }

    private void createTopic(String topic) throws Exception {
        Answer created = call("POST", "/api/topics", Map.of("topic", topic, "queues", 2));
        assertThat(created.status()).as(created.text()).isEqualTo(200);
        broker.registerWithNameServers().join();
        await().atMost(WAIT).until(() -> get("/api/topics/" + topic).status() == 200);
    }

    @Test
    void pagesAndChartLibraryAreServedAndTheClusterIsListed() throws Exception {
        assertThat(get("/").text()).contains("<title>Wharf console</title>").contains("chart.umd.js");
        HttpResponse<String> chartJs = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/webjars/chart.js/dist/chart.umd.js")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(chartJs.statusCode()).isEqualTo(200);
        assertThat(chartJs.body()).contains("Chart");
        Answer cluster = get("/api/cluster");
        assertThat(cluster.status()).isEqualTo(200);
        JsonNode b = cluster.json().get("brokers").get(0);
        assertThat(b.get("name").asString()).isEqualTo("console-broker");
        assertThat(b.get("role").asString()).isEqualTo("ASYNC_MASTER");
        assertThat(b.get("bootTimestamp").asLong()).isPositive();
    }

    @Test
    void aTopicsRateMovesWhileAProducerRunsAndATopicIsDeletedOnlyWithConfirmation() throws Exception {
        createTopic("console-tps");
        Producer p = producer();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sender = new Thread(() -> {
            while (running.get()) {
                try {
                    p.send(new Message("console-tps", "tick".getBytes()));
                } catch (Exception e) {
                    return;
                }
            }
        });
        sender.start();
        try {
            await().atMost(WAIT).until(() -> {
                JsonNode rate = get("/api/topics/console-tps").json().get("rate");
                return rate.size() >= 2 && rate.get(rate.size() - 1).get("value").asDouble() > 0;
            });
        } finally {
            running.set(false);
            sender.join(10_000);
        }
        Answer unconfirmed = call("DELETE", "/api/topics/console-tps?confirm=wrong", null);
        assertThat(unconfirmed.status()).isEqualTo(400);
        assertThat(unconfirmed.error()).contains("confirm").contains("console-tps");
        Answer deleted = call("DELETE", "/api/topics/console-tps?confirm=console-tps", null);
        assertThat(deleted.status()).as(deleted.text()).isEqualTo(200);
        await().atMost(WAIT).until(() -> get("/api/topics/console-tps").status() == 404);
    }

    @Test
    void aMessageIsFoundByKeyByIdAndByTimeAndItsTraceShowsTheConsumer() throws Exception {
        createTopic("console-orders");
        long before = System.currentTimeMillis();
        SendResult sent = producer().send(new Message("console-orders", "Paid", "order-4711",
                "{\"order\":4711}".getBytes(StandardCharsets.UTF_8)));
        await().atMost(WAIT).until(() -> get("/api/messages?topic=console-orders&key=order-4711").json().size() == 1);
        JsonNode found = get("/api/messages?topic=console-orders&key=order-4711").json().get(0);
        assertThat(found.get("msgId").asString()).isEqualTo(sent.msgId());
        assertThat(found.get("contentType").asString()).isEqualTo("application/json");
        assertThat(found.get("bodyPreview").asString()).isEqualTo("{\"order\":4711}");

        Answer byId = get("/api/messages/id/" + sent.offsetMsgId());
        assertThat(byId.json().get("keys").asString()).isEqualTo("order-4711");
        Answer byProducerId = get("/api/messages/id/" + sent.msgId() + "?topic=console-orders");
        assertThat(byProducerId.json().get("offsetMsgId").asString()).isEqualTo(sent.offsetMsgId());
        Answer byTime = get("/api/messages/range?topic=console-orders&from=" + q(Instant.ofEpochMilli(before - 1000)
                .toString()) + "&to=" + (System.currentTimeMillis() + 1000));
        assertThat(byTime.json()).hasSize(1);

        consume("console-billing", "console-orders", (msgs, ctx) -> ConsumeConcurrentlyStatus.CONSUME_SUCCESS, 3);
        await().atMost(WAIT).until(() -> get("/api/messages/trace?id=" + sent.offsetMsgId()).text()
                .contains("consumed by group console-billing"));
        JsonNode steps = get("/api/messages/trace?id=" + sent.offsetMsgId()).json().get("steps");
        assertThat(steps.get(0).get("step").asString()).isEqualTo("sent");
        assertThat(steps.get(1).get("step").asString()).isEqualTo("stored");
    }

    @Test
    void aDeadLetterIsResentAndLeavesTheList() throws Exception {
        createTopic("console-payments");
        producer().send(new Message("console-payments", "poison".getBytes()));
        consume("console-refunds", "console-payments", (msgs, ctx) -> ConsumeConcurrentlyStatus.RECONSUME_LATER, 1);
        await().atMost(WAIT).until(() -> get("/api/dlq/console-refunds").json().size() == 1);
        consumer.shutdown();
        consumer = null;
        String id = get("/api/dlq/console-refunds").json().get(0).get("msgId").asString();

        Answer unconfirmed = call("POST", "/api/dlq/console-refunds/resend", Map.of("msgId", id));
        assertThat(unconfirmed.status()).isEqualTo(400);
        assertThat(unconfirmed.error()).contains("confirm");
        Answer resent = call("POST", "/api/dlq/console-refunds/resend", Map.of("msgId", id,
                "confirm", "console-refunds"));
        assertThat(resent.status()).as(resent.text()).isEqualTo(200);
        assertThat(resent.json().get("resent").asInt()).isEqualTo(1);
        assertThat(get("/api/dlq/console-refunds").json()).isEmpty();
    }

    @Test
    void resettingAGroupsOffsetChangesItsLag() throws Exception {
        createTopic("console-audit");
        Producer p = producer();
        for (int i = 0; i < 6; i++) {
            p.send(new Message("console-audit", ("event " + i).getBytes()));
        }
        consume("console-auditors", "console-audit", (msgs, ctx) -> ConsumeConcurrentlyStatus.CONSUME_SUCCESS, 3);
        await().atMost(WAIT).until(() -> {
            Answer g = get("/api/groups/console-auditors");
            if (g.status() != 200) {
                return false;
            }
            int queues = 0;
            for (JsonNode row : g.json().get("queues")) {
                queues += row.get("topic").asString().equals("console-audit") ? 1 : 0;
            }
            return queues == 2 && g.json().get("lag").asLong() == 0;
        });
        consumer.shutdown();
        consumer = null;
        assertThat(get("/api/groups").json().toString()).contains("console-auditors");

        Answer badTime = call("POST", "/api/groups/console-auditors/reset", Map.of("topic", "console-audit",
                "to", "yesterday-ish", "confirm", "console-auditors"));
        assertThat(badTime.status()).isEqualTo(400);
        assertThat(badTime.error()).contains("\"yesterday-ish\" is not a time");
        Answer reset = call("POST", "/api/groups/console-auditors/reset", Map.of("topic", "console-audit",
                "to", "earliest", "confirm", "console-auditors"));
        assertThat(reset.status()).as(reset.text()).isEqualTo(200);
        await().atMost(WAIT).until(() -> get("/api/groups/console-auditors").json().get("lag").asLong() == 6);
        await().atMost(WAIT).until(() -> {
            JsonNode history = get("/api/groups/console-auditors").json().get("lagHistory");
            return history.size() > 0 && history.get(history.size() - 1).get("value").asLong() == 6;
        });
    }

    @Test
    void badInputGetsASentenceNeverAStackTrace() throws Exception {
        Answer unknown = get("/api/topics/no-such-topic");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.error()).contains("no-such-topic");
        Answer badName = get("/api/topics/" + q("bad topic!"));
        assertThat(badName.status()).isEqualTo(400);
        Answer malformed = get("/api/messages/id/not-an-id");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.error()).contains("not-an-id").contains("hexadecimal");
        Answer badRange = get("/api/messages/range?topic=x&from=2026-13-45&to=now");
        assertThat(badRange.status()).isEqualTo(400);
        assertThat(badRange.error()).contains("is not a time");
        Answer noKey = get("/api/messages?topic=x");
        assertThat(noKey.status()).isEqualTo(400);
        assertThat(noKey.error()).contains("\"key\" is missing");
        Answer noQueues = call("POST", "/api/topics", Map.of("topic", "t", "queues", 0));
        assertThat(noQueues.status()).isEqualTo(400);
        assertThat(List.of(unknown, badName, malformed, badRange, noKey, noQueues))
                .allSatisfy(a -> assertThat(a.error()).isNotBlank());
    }
}

package dev.wharf.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.TransactionListener;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.console.ConsoleHttp.Answer;
import dev.wharf.console.login.LoginThrottle;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The console's HTTP layer against a real NameServer and broker in this JVM: every call is a real HTTP request to
 * the running console, every change is checked in the cluster. The console has a users file, so the class also
 * covers sign-in, the session cookie, CSRF tokens, the read-only role and the brake on failed sign-ins.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"wharf.console.sample-interval=200ms", "server.address=127.0.0.1",
                "wharf.console.login-max-failures=3", "wharf.console.login-window=1m"})
class ConsoleApiTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static Path dir;
    private static Path users;
    /** Signed in as an admin for the whole class, as an operator's browser would be. */
    private static ConsoleHttp admin;
    private static NameServer nameServer;
    private static Broker broker;

    @LocalServerPort
    int port;
    @Autowired
    LoginThrottle throttle;
    private Producer producer;
    private PushConsumer consumer;

    @BeforeAll
    static void startCluster() throws Exception {
        dir = Files.createTempDirectory("wharf-console-test");
        users = TestUsers.write(dir);
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
        // level 4 is long, so that a message sent with it stays pending while the test looks
        s.broker().schedule().setMessageDelayLevel("100ms 100ms 100ms 1h");
        // an undecided transaction is asked back at once and again every 200 ms, and never given up on here
        s.broker().transaction().setTransactionTimeOut(0);
        s.broker().transaction().setTransactionCheckInterval(200);
        s.broker().transaction().setTransactionCheckMax(10_000);
        broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();
    }

    @DynamicPropertySource
    static void namesrv(DynamicPropertyRegistry registry) {
        registry.add("wharf.console.namesrv", () -> nameServer.address());
        registry.add("wharf.console.users-file", () -> users.toString());
    }

    @BeforeEach
    void signIn() throws Exception {
        if (admin == null) {
            admin = new ConsoleHttp(port);
            assertThat(admin.login(TestUsers.OPS, TestUsers.OPS_PASSWORD).status()).isEqualTo(200);
        }
    }

    @AfterAll
    static void stopCluster() throws Exception {
        admin = null;
        broker.shutdown();
        nameServer.shutdown();
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @AfterEach
    void stopClients() {
        throttle.clear();
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

    private Answer call(String method, String path, Object body) throws Exception {
        return admin.call(method, path, body);
    }

    private Answer get(String path) throws Exception {
        return admin.get(path);
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
        HttpResponse<String> chartJs = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
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

    @Test
    void theOverviewShowsVersionDiskThresholdsScheduledAndHalfMessagesAndLabelsSystemTopics() throws Exception {
        createTopic("console-later");
        Message later = new Message("console-later", "in an hour".getBytes(StandardCharsets.UTF_8));
        later.setDelayTimeLevel(4);
        producer().send(later);
        TransactionProducer undecided = new TransactionProducer("console-tx-producer", clientConfig());
        undecided.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return LocalTransactionState.UNKNOW;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return LocalTransactionState.UNKNOW;
            }
        });
        undecided.start();
        try {
            undecided.sendMessageInTransaction(new Message("console-later", "half".getBytes(StandardCharsets.UTF_8)),
                    null);
            await().atMost(WAIT).until(() -> {
                JsonNode status = get("/api/cluster").json().get("brokers").get(0).get("status");
                return status.get("openTransactions").asInt() == 1 && status.get("checkBacksSent").asLong() > 0
                        && status.get("delayLevels").get(3).get("pending").asLong() == 1
                        && status.get("delayLevels").get(3).get("oldestAgeMillis").asLong() > 0
                        && status.get("oldestOpenTransactionAgeMillis").asLong() > 0;
            });
        } finally {
            undecided.shutdown();
        }
        JsonNode b = get("/api/cluster").json().get("brokers").get(0);
        JsonNode status = b.get("status");
        assertThat(status.get("version").asString()).isNotBlank().isNotEqualTo("(development build)");
        assertThat(status.get("bootTimestamp").asLong()).isEqualTo(b.get("bootTimestamp").asLong());
        assertThat(status.get("commitLogBytes").asLong()).isPositive();
        assertThat(status.get("diskTotalBytes").asLong()).isPositive();
        assertThat(status.get("diskUsableBytes").asLong()).isBetween(0L, status.get("diskTotalBytes").asLong());
        assertThat(status.get("diskMaxUsedSpaceRatio").asInt()).isEqualTo(85);
        assertThat(status.get("diskSpaceWarningLevelRatio").asInt()).isEqualTo(90);
        JsonNode levels = status.get("delayLevels");
        assertThat(levels).hasSize(4);
        assertThat(levels.get(3).get("level").asInt()).isEqualTo(4);
        assertThat(levels.get(3).get("delayMillis").asLong()).isEqualTo(3_600_000L);
        long sinceBoot = System.currentTimeMillis() - status.get("bootTimestamp").asLong();
        assertThat(levels.get(3).get("oldestAgeMillis").asLong()).isBetween(1L, sinceBoot);
        assertThat(status.get("oldestOpenTransactionAgeMillis").asLong()).isBetween(1L, sinceBoot);
        // other tests' retries may pass through the timer; -1 means it holds nothing
        assertThat(status.has("timerEarliestDue")).isTrue();
        assertThat(status.get("timerEarliestDue").asLong()).isGreaterThanOrEqualTo(-1);
        assertThat(b.get("error").isNull()).isTrue();

        Map<String, String> kinds = new HashMap<>();
        for (JsonNode t : get("/api/topics").json()) {
            kinds.put(t.get("name").asString(), t.get("kind").asString());
        }
        assertThat(kinds).containsEntry("console-later", "user").containsEntry("SCHEDULE_TOPIC_XXXX", "system")
                .containsEntry("RMQ_SYS_TRANS_HALF_TOPIC", "system").containsEntry("TBW102", "system");
    }

    // ------------------------------------------------------------------ sign-in, roles, CSRF

    @Test
    void pagesNeedASignInAndTheSessionCookieIsHttpOnlyAndSameSiteStrict() throws Exception {
        ConsoleHttp b = new ConsoleHttp(port);
        assertThat(b.get("/").status()).as("the page itself is public: it draws the sign-in form").isEqualTo(200);
        Answer before = b.get("/api/cluster");
        assertThat(before.status()).isEqualTo(401);
        assertThat(before.error()).isEqualTo("Sign in first.");
        Answer session = b.session();
        assertThat(session.json().get("loginRequired").asBoolean()).isTrue();
        assertThat(session.json().get("user").isNull()).isTrue();
        String firstCookie = session.response().headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(firstCookie).startsWith("WHARF_CONSOLE_SESSION=").contains("HttpOnly").contains("SameSite=Strict");

        Answer in = b.login(TestUsers.ROOT, TestUsers.ROOT_PASSWORD);
        assertThat(in.status()).isEqualTo(200);
        assertThat(in.json().get("user").asString()).isEqualTo("root");
        assertThat(in.json().get("role").asString()).isEqualTo("admin");
        String cookie = in.response().headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).as("a new session id at sign-in (no fixation)").isNotEqualTo(firstCookie)
                .contains("HttpOnly").contains("SameSite=Strict");
        assertThat(b.get("/api/cluster").status()).isEqualTo(200);

        assertThat(b.call("POST", "/api/logout", null).status()).isEqualTo(200);
        assertThat(b.get("/api/cluster").status()).isEqualTo(401);
    }

    @Test
    void aFailedSignInDoesNotSayWhetherTheNameOrThePasswordWasWrong() throws Exception {
        Answer wrongPassword = new ConsoleHttp(port).login(TestUsers.VIEWER, "not-the-password");
        Answer unknownUser = new ConsoleHttp(port).login("nobody-here", TestUsers.VIEWER_PASSWORD);
        assertThat(wrongPassword.status()).isEqualTo(401);
        assertThat(unknownUser.status()).isEqualTo(401);
        assertThat(wrongPassword.error()).isEqualTo(unknownUser.error())
                .isEqualTo("Sign-in failed: unknown user or wrong password.");
    }

    @Test
    void changesNeedTheSessionsCsrfTokenAndTheAdminRole() throws Exception {
        Map<String, String> reset = Map.of("topic", "orders", "to", "yesterday-ish", "confirm", "billing");
        Answer noToken = admin.send("POST", "/api/groups/billing/reset", reset, false);
        assertThat(noToken.status()).isEqualTo(403);
        assertThat(noToken.error()).contains("CSRF token");
        ConsoleHttp forger = new ConsoleHttp(port);
        forger.login(TestUsers.OPS, TestUsers.OPS_PASSWORD);
        forger.csrf = admin.csrf; // another session's token
        assertThat(forger.call("POST", "/api/groups/billing/reset", reset).status()).isEqualTo(403);

        ConsoleHttp viewer = new ConsoleHttp(port);
        Answer in = viewer.login(TestUsers.VIEWER, TestUsers.VIEWER_PASSWORD);
        assertThat(in.json().get("role").asString()).isEqualTo("read-only");
        assertThat(viewer.get("/api/cluster").status()).as("a read-only user sees everything").isEqualTo(200);
        assertThat(viewer.get("/api/topics").status()).isEqualTo(200);
        for (Answer refused : List.of(
                viewer.call("POST", "/api/groups/billing/reset", reset),
                viewer.call("POST", "/api/dlq/billing/resend", Map.of("all", true, "confirm", "billing")),
                viewer.call("POST", "/api/topics", Map.of("topic", "viewer-topic", "queues", 2)),
                viewer.call("DELETE", "/api/topics/orders?confirm=orders", null))) {
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.error()).contains("User 'viewer' is read-only").contains("admin role");
        }
        assertThat(viewer.call("POST", "/api/logout", null).status()).isEqualTo(200);
    }

    @Test
    void repeatedFailedSignInsAreStoppedEvenWithTheRightPasswordAfterwards() throws Exception {
        ConsoleHttp guesser = new ConsoleHttp(port);
        for (int i = 0; i < 3; i++) {
            assertThat(guesser.login(TestUsers.ROOT, "guess-number-" + i).status()).isEqualTo(401);
        }
        Answer stopped = guesser.login(TestUsers.ROOT, TestUsers.ROOT_PASSWORD);
        assertThat(stopped.status()).isEqualTo(429);
        assertThat(stopped.error()).startsWith("Too many failed sign-ins");
        assertThat(stopped.response().headers().firstValue("Retry-After")).isPresent();
        assertThat(new ConsoleHttp(port).login(TestUsers.OPS, TestUsers.OPS_PASSWORD).status())
                .as("the same address is stopped for every name").isEqualTo(429);
        throttle.clear();
        assertThat(new ConsoleHttp(port).login(TestUsers.ROOT, TestUsers.ROOT_PASSWORD).status()).isEqualTo(200);
    }
}

package dev.wharf.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.server.Cli;
import dev.wharf.server.cli.ExitCodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * dlq-list and dlq-resend: one dead letter made by the broker (a consumer gives up on a message), and dead letters
 * stored the way the broker stores them (topic {@code %DLQ%group}, original topic in RETRY_TOPIC, retry
 * bookkeeping), sent directly so that a test controls their queue and order.
 */
class AdminDeadLetterTest {

    @TempDir
    static Path dir;
    private static AdminServer server;
    private static Producer producer;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @BeforeAll
    static void start() throws Exception {
        server = new AdminServer(dir);
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(server.namesrv());
        config.setInstanceName("dlq-test");
        producer = new Producer("dlq-test-producer", config);
        producer.start();
    }

    @AfterAll
    static void stop() {
        producer.shutdown();
        server.close();
    }

    /** Stores a dead letter the way the broker does. */
    private static SendResult deadLetter(String group, String originTopic, String body, String keys) throws Exception {
        Message msg = new Message(SystemTopics.dlqTopic(group), "Tag1", keys, body.getBytes(StandardCharsets.UTF_8));
        if (originTopic != null) {
            msg.putProperty(MessageProperties.RETRY_TOPIC, originTopic);
        }
        msg.putProperty(MessageProperties.FIRST_FAILURE_TIME, "1");
        msg.putProperty("app-property", "kept");
        SendResult result = producer.send(msg);
        // listed (and resendable by id) once the broker dispatched it, just after the acknowledgement
        await().atMost(Duration.ofSeconds(10))
                .until(() -> server.ok("dlq-list", "--group", group).out().contains(result.msgId()));
        return result;
    }

    /** A dead-letter queue of one queue, so that its letters wait in a known order. */
    private static void oneQueue(String group) {
        server.ok("topic-create", "--topic", SystemTopics.dlqTopic(group), "--queues", "1");
    }

    private static List<String> listed(String group) {
        return AdminServer.rows(server.ok("dlq-list", "--group", group).out());
    }

    @Test
    void anEmptyDeadLetterQueueIsSaidSo() {
        assertThat(server.ok("dlq-list", "--group", "clean-group").out().trim())
                .isEqualTo("No message waits in the dead-letter queue %DLQ%clean-group.");
        assertThat(server.ok("dlq-list", "--group", "clean-group", "--json").out().trim()).isEqualTo("[]");
        assertThat(server.ok("dlq-resend", "--group", "clean-group", "--all").out().trim())
                .isEqualTo("No message waits in the dead-letter queue %DLQ%clean-group; nothing was resent.");
    }

    @Test
    void aMessageTheConsumerGaveUpOnIsListedAndResentToItsTopic() throws Exception {
        server.ok("topic-create", "--topic", "shipments", "--queues", "1");
        SendResult sent = producer.send(new Message("shipments", "Tag2", "parcel-5", "fragile".getBytes(StandardCharsets.UTF_8)));
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(server.namesrv());
        config.setInstanceName("dlq-test-consumer");
        PullConsumer consumer = new PullConsumer("shippers", config);
        consumer.start();
        try {
            MessageQueue mq = consumer.fetchSubscribeMessageQueues("shipments").iterator().next();
            MessageExt msg = consumer.pull(mq, null, 0, 1).msgFoundList().get(0);
            consumer.sendMessageBack(msg, -1);  // -1: straight to the dead-letter queue
        } finally {
            consumer.shutdown();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> server.ok("dlq-list", "--group", "shippers").out()
                .contains(sent.msgId()));
        assertThat(listed("shippers")).singleElement().asString().contains("shipments", "fragile");

        assertThat(server.ok("dlq-resend", "--group", "shippers", "--msg-id", sent.msgId().toLowerCase()).out().trim())
                .isEqualTo("Resent 1 message of %DLQ%shippers to the topic it came from.");
        assertThat(server.ok("dlq-list", "--group", "shippers").out()).contains("No message waits");
        Cli.Result again = server.ok("consume", "--topic", "shipments", "--group", "auditors", "--timeout", "1");
        assertThat(again.out()).contains("Consumed 2 messages").contains(sent.msgId());
    }

    @Test
    void listShowsEachDeadLetterWithItsOriginTopicAndMovesNoOffset() throws Exception {
        SendResult a = deadLetter("g-list", "orders", "first", "o-1");
        SendResult b = deadLetter("g-list", "orders", "second", "o-2");
        String text = server.ok("dlq-list", "--group", "g-list").out();
        assertThat(text.lines().findFirst().orElseThrow()).matches(
                "#MsgId\\s+#OffsetMsgId\\s+#Broker\\s+#QID\\s+#Offset\\s+#OriginTopic\\s+#Reconsume\\s+#StoreTime\\s+#Body");
        assertThat(AdminServer.rows(text)).hasSize(2);
        assertThat(text).contains(a.msgId(), b.msgId(), "orders", "first", "second");

        // reading twice shows the same: listing commits nothing
        assertThat(listed("g-list")).hasSize(2);
        List<?> json = JSON.readValue(server.ok("dlq-list", "--group", "g-list", "--max", "1", "--json").out(),
                List.class);
        assertThat(json).singleElement().asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("originTopic", "orders");
    }

    @Test
    void resendOneSendsItToTheOriginalTopicAndNoLongerListsIt() throws Exception {
        oneQueue("g-one");
        SendResult dead = deadLetter("g-one", "payments", "pay me", "invoice-9");
        deadLetter("g-one", "payments", "not this one", "invoice-10");
        server.ok("topic-create", "--topic", "payments", "--queues", "1");
        assertThat(listed("g-one")).hasSize(2);

        Cli.Result resent = server.ok("dlq-resend", "--group", "g-one", "--msg-id", dead.msgId(), "--json");
        assertThat(JSON.readValue(resent.out(), Map.class)).isEqualTo(Map.of("group", "g-one", "resent", 1));

        String copy = server.ok("query-id", dead.msgId(), "--topic", "payments").out();
        assertThat(copy).contains("payments", "pay me", "invoice-9", "Tag1", "app-property=kept", "UNIQ_KEY=" + dead.msgId())
                .containsPattern("ReconsumeTimes:\\s+0\\R").doesNotContain("RETRY_TOPIC", "FIRST_FAILURE_TIME");
        Cli.Result consumed = server.ok("consume", "--topic", "payments", "--group", "payers", "--timeout", "1");
        assertThat(consumed.out()).contains("Consumed 1 message of payments", "pay me").doesNotContain("not this one");

        assertThat(listed("g-one")).singleElement().asString().contains("not this one");
    }

    @Test
    void aLetterResentByIdBehindAnotherLeavesTheListAndAllResendsTheRest() throws Exception {
        oneQueue("g-order");
        server.ok("topic-create", "--topic", "t-order", "--queues", "1");
        deadLetter("g-order", "t-order", "older", null);
        deadLetter("g-order", "t-order", "middle", null);
        SendResult newer = deadLetter("g-order", "t-order", "newer", null);
        server.ok("dlq-resend", "--group", "g-order", "--msg-id", newer.offsetMsgId());
        assertThat(listed("g-order")).hasSize(2).noneMatch(row -> row.contains("newer"));

        assertThat(server.ok("dlq-resend", "--group", "g-order", "--all").out().trim())
                .isEqualTo("Resent 2 messages of %DLQ%g-order to the topics they came from.");
        assertThat(server.ok("dlq-list", "--group", "g-order").out()).contains("No message waits");
        assertThat(server.ok("dlq-resend", "--group", "g-order", "--all").out()).contains("nothing was resent");
        Cli.Result consumed = server.ok("consume", "--topic", "t-order", "--group", "c-order", "--timeout", "1");
        assertThat(consumed.out()).contains("Consumed 3 messages");
    }

    @Test
    void aDeadLetterWhoseTopicIsGoneIsReportedAndStaysListed() throws Exception {
        SendResult dead = deadLetter("g-gone", "never-created", "lost", null);
        Cli.Result r = server.admin("dlq-resend", "--group", "g-gone", "--msg-id", dead.msgId());
        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).contains("never-created", "create the topic, then resend").hasLineCount(1);
        assertThat(listed("g-gone")).hasSize(1);
    }

    @Test
    void resendRefusesUnknownIdsMissingOriginsAndBadSelections() throws Exception {
        deadLetter("g-bad", null, "orphan", null);
        Cli.Result unknown = server.admin("dlq-resend", "--group", "g-bad", "--msg-id", "0123456789ABCDEF0123456789ABCDEF");
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(unknown.err()).contains("No message with the id", "%DLQ%g-bad", "dlq-list --group g-bad");

        Cli.Result orphan = server.admin("dlq-resend", "--group", "g-bad", "--all");
        assertThat(orphan.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(orphan.err()).contains("does not name the topic it was first sent to").hasLineCount(1);
        assertThat(orphan.out()).isEmpty();
        assertThat(listed("g-bad")).hasSize(1);

        Cli.Result neither = server.admin("dlq-resend", "--group", "g-bad");
        assertThat(neither.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(neither.err()).contains("--msg-id", "--all");
        Cli.Result both = server.admin("dlq-resend", "--group", "g-bad", "--all", "--msg-id", "x");
        assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
    }
}

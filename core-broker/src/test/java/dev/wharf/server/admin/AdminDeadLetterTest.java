package dev.wharf.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.server.Cli;
import dev.wharf.server.ExitCodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * dlq-list and dlq-resend. The dead letters are stored the way the broker stores them when it gives up on a
 * message (topic {@code %DLQ%group}, original topic in RETRY_TOPIC, retry bookkeeping), sent here directly so
 * that the test does not depend on the broker's retry path or wait through a consumer's retries.
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
        return producer.send(msg);
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
        Cli.Result resend = server.admin("dlq-resend", "--group", "clean-group", "--all");
        assertThat(resend.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(resend.err()).contains("No message waits in the dead-letter queue %DLQ%clean-group");
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

        Cli.Result resent = server.ok("dlq-resend", "--group", "g-one", "--msg-id", dead.msgId());
        assertThat(AdminServer.rows(resent.out())).singleElement().asString()
                .matches(dead.msgId() + "\\s+payments\\s+broker-a\\s+0\\s+0");

        String copy = server.ok("query-id", dead.msgId(), "--topic", "payments").out();
        assertThat(copy).contains("payments", "pay me", "invoice-9", "Tag1", "app-property=kept", "UNIQ_KEY=" + dead.msgId())
                .containsPattern("ReconsumeTimes:\\s+0\\R").doesNotContain("RETRY_TOPIC", "FIRST_FAILURE_TIME");
        Cli.Result consumed = server.ok("consume", "--topic", "payments", "--group", "payers", "--timeout", "1");
        assertThat(consumed.out()).contains("Consumed 1 message of payments", "pay me").doesNotContain("not this one");

        // it was the first waiting in its queue: the group's position moved past it
        assertThat(listed("g-one")).singleElement().asString().contains("not this one");
        assertThat(server.ok("consumer-progress", "--group", "g-one").out()).containsPattern(
                "%DLQ%g-one\\s+broker-a\\s+0\\s+2\\s+1\\s+1");
    }

    @Test
    void aLetterResentByIdBehindAnotherStaysListedUntilAllAreResent() throws Exception {
        oneQueue("g-order");
        deadLetter("g-order", "t-order", "older", null);
        SendResult newer = deadLetter("g-order", "t-order", "newer", null);
        server.ok("dlq-resend", "--group", "g-order", "--msg-id", newer.offsetMsgId());
        assertThat(listed("g-order")).hasSize(2);

        Cli.Result all = server.ok("dlq-resend", "--group", "g-order", "--all", "--json");
        List<?> json = JSON.readValue(all.out(), List.class);
        assertThat(json).hasSize(2).allSatisfy(row -> assertThat(((Map<?, ?>) row).get("topic")).isEqualTo("t-order"));
        assertThat(server.ok("dlq-list", "--group", "g-order").out()).contains("No message waits");
        Cli.Result consumed = server.ok("consume", "--topic", "t-order", "--group", "c-order", "--timeout", "1");
        assertThat(consumed.out()).contains("Consumed 3 messages");
    }

    @Test
    void resendRefusesUnknownIdsMissingOriginsAndBadSelections() throws Exception {
        deadLetter("g-bad", null, "orphan", null);
        Cli.Result unknown = server.admin("dlq-resend", "--group", "g-bad", "--msg-id", "0123456789ABCDEF0123456789ABCDEF");
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(unknown.err()).contains("No message with the id", "%DLQ%g-bad", "dlq-list --group g-bad");

        Cli.Result orphan = server.admin("dlq-resend", "--group", "g-bad", "--all");
        assertThat(orphan.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(orphan.err()).contains("does not say which topic it came from", "nothing was sent");
        assertThat(orphan.out()).isEmpty();
        assertThat(listed("g-bad")).hasSize(1);

        Cli.Result neither = server.admin("dlq-resend", "--group", "g-bad");
        assertThat(neither.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(neither.err()).contains("--msg-id", "--all");
        Cli.Result both = server.admin("dlq-resend", "--group", "g-bad", "--all", "--msg-id", "x");
        assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
    }
}

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
 * message (topic {@code %DLQ%group}, original topic in RETRY_TOPIC), sent here directly so that the test does not
 * wait through a consumer's retries.
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

    private static SendResult deadLetter(String group, String originTopic, String body, String keys) throws Exception {
        Message msg = new Message(SystemTopics.dlqTopic(group), "Tag1", keys, body.getBytes(StandardCharsets.UTF_8));
        if (originTopic != null) {
            msg.putProperty(MessageProperties.RETRY_TOPIC, originTopic);
        }
        msg.putProperty("app-property", "kept");
        return producer.send(msg);
    }

    @Test
    void anEmptyDeadLetterQueueIsSaidSo() {
        assertThat(server.ok("dlq-list", "--group", "clean-group").out().trim())
                .isEqualTo("The dead-letter queue %DLQ%clean-group is empty.");
        assertThat(server.ok("dlq-list", "--group", "clean-group", "--json").out().trim()).isEqualTo("[]");
        Cli.Result resend = server.admin("dlq-resend", "--group", "clean-group", "--all");
        assertThat(resend.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(resend.err()).contains("%DLQ%clean-group is empty");
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

        // reading twice shows the same: nothing was committed
        assertThat(AdminServer.rows(server.ok("dlq-list", "--group", "g-list").out())).hasSize(2);
        List<?> json = JSON.readValue(server.ok("dlq-list", "--group", "g-list", "--max", "1", "--json").out(),
                List.class);
        assertThat(json).singleElement().asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("originTopic", "orders");
    }

    @Test
    void resendOneCopiesItToTheOriginalTopicWithANewId() throws Exception {
        SendResult dead = deadLetter("g-one", "payments", "pay me", "invoice-9");
        deadLetter("g-one", "payments", "not this one", "invoice-10");
        server.ok("topic-create", "--topic", "payments", "--queues", "1");

        Cli.Result resent = server.ok("dlq-resend", "--group", "g-one", "--msg-id", dead.msgId());
        List<String> rows = AdminServer.rows(resent.out());
        assertThat(rows).singleElement().asString().startsWith(dead.msgId()).contains("payments", "broker-a");
        String newId = AdminServer.ids(rows.get(0)).get(1);
        assertThat(newId).isNotEqualTo(dead.msgId());

        String copy = server.ok("query-id", newId, "--topic", "payments").out();
        assertThat(copy).contains("Topic:", "payments", "pay me", "invoice-9", "Tag1", "app-property=kept",
                "ORIGIN_MESSAGE_ID=" + dead.msgId()).containsPattern("ReconsumeTimes:\\s+0\\R").doesNotContain("RETRY_TOPIC");

        Cli.Result consumed = server.ok("consume", "--topic", "payments", "--group", "payers", "--timeout", "1");
        assertThat(consumed.out()).contains("Consumed 1 message of payments", "pay me").doesNotContain("not this one");
        // the dead-letter queue keeps its messages
        assertThat(AdminServer.rows(server.ok("dlq-list", "--group", "g-one").out())).hasSize(2);
    }

    @Test
    void resendAllAndByBrokerId() throws Exception {
        SendResult first = deadLetter("g-all", "t-all", "m1", null);
        deadLetter("g-all", "t-all", "m2", null);
        Cli.Result all = server.ok("dlq-resend", "--group", "g-all", "--all", "--json");
        List<?> json = JSON.readValue(all.out(), List.class);
        assertThat(json).hasSize(2).allSatisfy(row -> assertThat(((Map<?, ?>) row).get("topic")).isEqualTo("t-all"));

        Cli.Result byOffsetId = server.ok("dlq-resend", "--group", "g-all", "--msg-id", first.offsetMsgId());
        assertThat(AdminServer.rows(byOffsetId.out())).singleElement().asString().startsWith(first.msgId());
        Cli.Result consumed = server.ok("consume", "--topic", "t-all", "--group", "c-all", "--timeout", "1");
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

        Cli.Result neither = server.admin("dlq-resend", "--group", "g-bad");
        assertThat(neither.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(neither.err()).contains("--msg-id", "--all");
        Cli.Result both = server.admin("dlq-resend", "--group", "g-bad", "--all", "--msg-id", "x");
        assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
    }
}

package dev.wharf.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.server.Cli;
import dev.wharf.server.cli.ExitCodes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** send, consume, consumer-progress and reset-offset end to end. */
class AdminMessagesTest {

    @TempDir
    static Path dir;
    private static AdminServer server;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @BeforeAll
    static void start() throws IOException {
        server = new AdminServer(dir);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void sendPrintsIdQueueAndOffsetOfEachMessage() {
        server.ok("topic-create", "--topic", "send-t", "--queues", "2");
        Cli.Result sent = server.ok("send", "--topic", "send-t", "--body", "hello", "--count", "4", "--keys",
                "order-1 customer-2", "--tag", "TagA");
        assertThat(sent.out().lines().findFirst().orElseThrow())
                .matches("#MsgId\\s+#OffsetMsgId\\s+#Broker\\s+#QID\\s+#Offset\\s+#Status");
        List<String> rows = AdminServer.rows(sent.out());
        assertThat(rows).hasSize(4).allMatch(r -> r.matches("[0-9A-F]{32}\\s+[0-9A-F]{32}\\s+broker-a\\s+[01]\\s+\\d+\\s+SEND_OK"));
        assertThat(rows.stream().map(r -> AdminServer.ids(r).get(0)).distinct()).hasSize(4);

        List<?> json = JSON.readValue(server.ok("send", "--topic", "send-t", "--body", "x", "--json").out(), List.class);
        assertThat(json).singleElement().asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsKeys("msgId", "offsetMsgId", "broker", "queueId", "queueOffset")
                .containsEntry("status", "SEND_OK");
    }

    @Test
    void sendRefusesBadInput() {
        Cli.Result count = server.admin("send", "--topic", "t", "--body", "b", "--count", "0");
        assertThat(count.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(count.err()).contains("--count must be 1..1000000, got 0");

        Cli.Result noBody = server.admin("send", "--topic", "t");
        assertThat(noBody.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noBody.err()).contains("--body");

        Cli.Result internal = server.admin("send", "--topic", "SCHEDULE_TOPIC_XXXX", "--body", "b");
        assertThat(internal.exitCode()).as(internal.toString()).isNotZero();
        assertThat(internal.err()).contains("SCHEDULE_TOPIC_XXXX").hasLineCount(1);
    }

    @Test
    void consumePrintsMessagesCommitsOffsetsAndContinuesWhereItStopped() {
        server.ok("topic-create", "--topic", "consume-t", "--queues", "2");
        for (int i = 0; i < 5; i++) {
            server.ok("send", "--topic", "consume-t", "--body", "message-" + i, "--tag", "T" + i, "--keys", "k" + i);
        }
        Cli.Result first = server.ok("consume", "--topic", "consume-t", "--group", "g1", "--count", "3",
                "--timeout", "10");
        List<String> firstRows = AdminServer.rows(first.out()).stream().filter(l -> !l.startsWith("Consumed")).toList();
        assertThat(firstRows).hasSize(3).allMatch(r -> r.matches("[0-9A-F]{32}\\s+broker-a:[01]\\s+\\d+\\s+T\\d\\s+k\\d\\s+message-\\d"));
        assertThat(first.out()).contains("Consumed 3 messages of consume-t as group g1; offsets committed.");

        Cli.Result progress = server.ok("consumer-progress", "--group", "g1");
        assertThat(progress.out().lines().findFirst().orElseThrow()).matches(
                "#Topic\\s+#Broker\\s+#QID\\s+#BrokerOffset\\s+#ConsumerOffset\\s+#Diff\\s+#LastTime");
        assertThat(progress.out()).contains("Diff Total: 2");

        Cli.Result rest = server.ok("consume", "--topic", "consume-t", "--group", "g1", "--timeout", "1");
        assertThat(rest.out()).contains("Consumed 2 messages");
        List<String> all = new java.util.ArrayList<>(firstRows);
        AdminServer.rows(rest.out()).stream().filter(l -> !l.startsWith("Consumed")).forEach(all::add);
        assertThat(all.stream().map(r -> r.replaceAll(".*(message-\\d)$", "$1")))
                .containsExactlyInAnyOrder("message-0", "message-1", "message-2", "message-3", "message-4");
        assertThat(server.ok("consumer-progress", "--group", "g1").out()).contains("Diff Total: 0");

        Cli.Result nothing = server.ok("consume", "--topic", "consume-t", "--group", "g1", "--timeout", "1");
        assertThat(nothing.out()).contains("Consumed 0 messages of consume-t as group g1.");
    }

    @Test
    void consumeAsJsonPrintsOneObjectPerLine() {
        server.ok("send", "--topic", "json-t", "--body", "{\"a\":1}", "--count", "2");
        Cli.Result r = server.ok("consume", "--topic", "json-t", "--group", "gj", "--count", "2", "--json");
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(2);
        for (String line : lines) {
            Map<?, ?> msg = JSON.readValue(line, Map.class);
            assertThat(msg.get("topic")).isEqualTo("json-t");
            assertThat(msg.get("body")).isEqualTo("{\"a\":1}");
        }
    }

    @Test
    void progressOfAnUnknownGroupAndBadConsumeInputFail() {
        Cli.Result unknown = server.admin("consumer-progress", "--group", "never-seen");
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(unknown.err()).contains("never-seen").hasLineCount(1);

        Cli.Result timeout = server.admin("consume", "--topic", "t", "--group", "g", "--timeout", "0");
        assertThat(timeout.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(timeout.err()).contains("--timeout must be 1..86400 seconds");

        Cli.Result group = server.admin("consume", "--topic", "t", "--group", "a/b");
        assertThat(group.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(group.err()).contains("a/b");

        Cli.Result noTopic = server.admin("consume", "--topic", "no-such-topic", "--group", "g");
        assertThat(noTopic.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(noTopic.err()).contains("no-such-topic");
    }

    @Test
    void resetOffsetToEarliestLatestAndATime() throws Exception {
        server.ok("topic-create", "--topic", "reset-t", "--queues", "1");
        server.ok("send", "--topic", "reset-t", "--body", "before", "--count", "3");
        server.ok("consume", "--topic", "reset-t", "--group", "gr", "--timeout", "1");
        assertThat(server.ok("consumer-progress", "--group", "gr").out()).contains("Diff Total: 0");

        Cli.Result earliest = server.ok("reset-offset", "--group", "gr", "--topic", "reset-t", "--to", "earliest");
        assertThat(earliest.out()).startsWith("Offsets of group gr on topic reset-t moved to earliest:");
        assertThat(AdminServer.rows(earliest.out()).get(1)).matches("broker-a\\s+0\\s+0");
        assertThat(server.ok("consumer-progress", "--group", "gr").out()).contains("Diff Total: 3");

        Cli.Result latest = server.ok("reset-offset", "--group", "gr", "--topic", "reset-t", "--to", "LATEST");
        assertThat(AdminServer.rows(latest.out()).get(1)).matches("broker-a\\s+0\\s+3");

        Instant between = Instant.now();
        // store timestamps have millisecond resolution: make sure "after" is stored after the cut
        org.awaitility.Awaitility.await().until(() -> Instant.now().toEpochMilli() > between.toEpochMilli());
        server.ok("send", "--topic", "reset-t", "--body", "after", "--count", "2");
        server.ok("reset-offset", "--group", "gr", "--topic", "reset-t", "--to", "earliest");
        Cli.Result byTime = server.ok("reset-offset", "--group", "gr", "--topic", "reset-t", "--to",
                between.toString(), "--json");
        Map<?, ?> json = JSON.readValue(byTime.out(), Map.class);
        assertThat(json.get("offsets")).asString().contains("offset=3");
        Cli.Result consumed = server.ok("consume", "--topic", "reset-t", "--group", "gr", "--timeout", "1");
        assertThat(consumed.out()).contains("Consumed 2 messages").doesNotContain("before");
    }

    @Test
    void resetOffsetRefusesATimeItCannotRead() {
        Cli.Result r = server.admin("reset-offset", "--group", "g", "--topic", "t", "--to", "yesterday");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--to \"yesterday\"", "2026-11-29T10:00:00Z", "epoch milliseconds");
        Cli.Result local = server.admin("reset-offset", "--group", "g", "--topic", "t", "--to", "2026-11-29T10:00:00");
        assertThat(local.exitCode()).isEqualTo(ExitCodes.USAGE);
    }
}

package dev.wharf.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.server.Cli;
import dev.wharf.server.cli.ExitCodes;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** query-key and query-id. */
class AdminQueryTest {

    @TempDir
    static Path dir;
    private static AdminServer server;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static String msgId;
    private static String offsetMsgId;

    @BeforeAll
    static void start() throws IOException {
        server = new AdminServer(dir);
        server.ok("topic-create", "--topic", "query-t", "--queues", "2");
        Cli.Result sent = server.ok("send", "--topic", "query-t", "--body", "line one\nline two", "--keys",
                "order-42 customer-7", "--tag", "Paid");
        List<String> ids = AdminServer.ids(AdminServer.rows(sent.out()).get(0));
        msgId = ids.get(0);
        offsetMsgId = ids.get(1);
        server.ok("send", "--topic", "query-t", "--body", "other", "--keys", "order-43");
        // the key index is written by the dispatcher, just after the send returns
        await().atMost(Duration.ofSeconds(10)).until(() ->
                server.ok("query-key", "--topic", "query-t", "--key", "order-43").out().contains("order-43"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void queryByKeyFindsOnlyMessagesCarryingTheKey() {
        Cli.Result r = server.ok("query-key", "--topic", "query-t", "--key", "customer-7");
        List<String> rows = AdminServer.rows(r.out());
        assertThat(rows).singleElement().asString()
                .startsWith(msgId + "  " + offsetMsgId)
                .contains("broker-a", "Paid", "order-42 customer-7", "line one\\nline two");

        assertThat(server.ok("query-key", "--topic", "query-t", "--key", msgId).out()).contains(offsetMsgId);
        assertThat(server.ok("query-key", "--topic", "query-t", "--key", "order-999").out().trim())
                .isEqualTo("No message of topic query-t has the key order-999.");

        List<?> json = JSON.readValue(server.ok("query-key", "--topic", "query-t", "--key", "customer-7", "--json")
                .out(), List.class);
        assertThat(json).singleElement().asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("msgId", msgId).containsEntry("body", "line one\\nline two");
    }

    @Test
    void queryByBrokerIdOrProducerIdShowsEveryField() {
        String byOffsetId = server.ok("query-id", offsetMsgId).out();
        assertThat(byOffsetId).contains("Topic:", "query-t", "MsgId:", msgId, "OffsetMsgId:", offsetMsgId,
                "Tags:", "Paid", "Keys:", "order-42 customer-7", "StoreHost:", server.brokerAddress(),
                "Properties:", "UNIQ_KEY=" + msgId, "Body:", "line one\\nline two");

        String byProducerId = server.ok("query-id", msgId.toLowerCase()).out();
        assertThat(byProducerId).contains(offsetMsgId, "order-42");
        assertThat(server.ok("query-id", msgId, "--topic", "query-t").out()).contains(offsetMsgId);

        Map<?, ?> json = JSON.readValue(server.ok("query-id", offsetMsgId, "--json").out(), Map.class);
        assertThat(json.get("queueId")).isIn(0, 1);
        assertThat(json.get("tags")).isEqualTo("Paid");
    }

    @Test
    void badOrUnknownIdsFailWithAReason() {
        Cli.Result shape = server.admin("query-id", "not-an-id");
        assertThat(shape.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(shape.err()).contains("\"not-an-id\" is not a message id", "32 hexadecimal");

        String unknown = "0123456789ABCDEF0123456789ABCDEF";
        Cli.Result missing = server.admin("query-id", unknown);
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(missing.err()).contains("No message has the id " + unknown).hasLineCount(1);

        Cli.Result max = server.admin("query-key", "--topic", "query-t", "--key", "k", "--max", "0");
        assertThat(max.exitCode()).isEqualTo(ExitCodes.USAGE);
    }
}

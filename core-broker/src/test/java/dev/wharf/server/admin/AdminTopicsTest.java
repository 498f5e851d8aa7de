package dev.wharf.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.server.Cli;
import dev.wharf.server.cli.ExitCodes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** topics, topic-create, topic-delete, brokers; the shared options; an unreachable NameServer. */
class AdminTopicsTest {

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
    void createListAndDeleteATopic() {
        Cli.Result created = server.ok("topic-create", "--topic", "orders", "--queues", "3");
        assertThat(created.out().trim()).isEqualTo("Created topic orders with 3 queues on broker-a.");

        assertThat(server.ok("topics").out().lines()).contains("orders");
        assertThat(server.ok("topics").out().lines()).noneMatch(t -> t.equals("SCHEDULE_TOPIC_XXXX"));

        Cli.Result deleted = server.ok("topic-delete", "--topic", "orders");
        assertThat(deleted.out().trim()).isEqualTo("Deleted topic orders.");
        assertThat(server.ok("topics").out().lines()).doesNotContain("orders");

        Cli.Result again = server.admin("topic-delete", "--topic", "orders");
        assertThat(again.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(again.err()).contains("No topic named orders", "wharf admin topics").hasLineCount(1);
    }

    @Test
    void createOnANamedBrokerOrClusterAndRefuseUnknownOnes() {
        assertThat(server.ok("topic-create", "--topic", "on-broker", "--broker", "broker-a").out())
                .contains("on broker-a");
        assertThat(server.ok("topic-create", "--topic", "on-cluster", "--cluster", "DefaultCluster", "--queues", "2")
                .out()).contains("with 2 queues on broker-a");

        Cli.Result unknownBroker = server.admin("topic-create", "--topic", "t1", "--broker", "broker-zz");
        assertThat(unknownBroker.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(unknownBroker.err()).contains("No broker named broker-zz", "[broker-a]");

        Cli.Result unknownCluster = server.admin("topic-create", "--topic", "t1", "--cluster", "Nowhere");
        assertThat(unknownCluster.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(unknownCluster.err()).contains("No cluster named Nowhere", "[DefaultCluster]");
    }

    @Test
    void badTopicInputIsAUsageError() {
        Cli.Result both = server.admin("topic-create", "--topic", "t", "--broker", "broker-a", "--cluster", "C");
        assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(both.err()).contains("mutually exclusive");

        Cli.Result queues = server.admin("topic-create", "--topic", "t", "--queues", "0");
        assertThat(queues.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(queues.err()).contains("--queues must be 1..1024, got 0");

        Cli.Result name = server.admin("topic-create", "--topic", "bad topic");
        assertThat(name.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(name.err()).contains("bad topic", "position 4");

        Cli.Result missing = server.admin("topic-create");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("Missing required option: '--topic=TOPIC'", "wharf admin topic-create --help");
    }

    @Test
    void brokersAsTableAndAsJson() {
        String text = server.ok("brokers").out();
        assertThat(text.lines().findFirst().orElseThrow())
                .matches("#Cluster\\s+#Broker\\s+#BID\\s+#Address\\s+#Role\\s+#MaxOffset\\s+#LagBytes\\s+#LagMs");
        assertThat(AdminServer.rows(text)).singleElement().asString()
                .matches("DefaultCluster\\s+broker-a\\s+0\\s+" + server.brokerAddress().replace(".", "\\.")
                        + "\\s+ASYNC_MASTER\\s+\\d+\\s+-\\s+-");

        List<?> json = JSON.readValue(server.ok("brokers", "--json").out(), List.class);
        assertThat(json).singleElement().asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("cluster", "DefaultCluster").containsEntry("broker", "broker-a")
                .containsEntry("brokerId", 0).containsEntry("address", server.brokerAddress())
                .containsEntry("role", "ASYNC_MASTER").containsEntry("lagBytes", null).containsKey("maxOffset");
    }

    @Test
    void sharedOptionsWorkBeforeAndAfterTheCommand() {
        server.ok("topic-create", "--topic", "placed");
        Cli.Result after = Cli.run("admin", "topics", "-n", server.namesrv(), "--json");
        assertThat(after.exitCode()).as(after.toString()).isZero();
        assertThat(JSON.readValue(after.out(), List.class)).contains("placed");
    }

    @Test
    void anUnreachableNameServerIsExitCode3WithAHint() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Cli.Result r = Cli.run("admin", "-n", "127.0.0.1:" + port, "topics");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(r.err().trim()).isEqualTo("Cannot reach the NameServer at 127.0.0.1:" + port
                + ": is it running? (start one with: wharf namesrv)");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aMalformedNameServerAddressIsAUsageError() {
        Cli.Result r = Cli.run("admin", "-n", "localhost", "topics");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("-n/--namesrv", "\"localhost\"", "host:port").hasLineCount(1);
    }

    @Test
    void adminWithoutACommandListsThem() {
        Cli.Result r = Cli.run("admin");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("Missing admin command", "topics", "consumer-progress", "dlq-resend");
    }
}

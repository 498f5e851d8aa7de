package dev.wharf.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.protocol.ResponseCode;
import dev.wharf.server.Cli;
import dev.wharf.server.ForegroundRun;
import dev.wharf.server.ReadyLine;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code wharf controller}, the controller inside {@code wharf namesrv}, and the controller admin commands. */
@Timeout(90)
class ControllerCommandsTest {

    @TempDir
    Path dir;

    @Test
    void aControllerNodeServesTheAdminCommands() throws Exception {
        String peers = "n0=127.0.0.1:" + ControllerNodes.freePort();
        try (ForegroundRun run = ForegroundRun.start("controller", "--peers", peers, "--id", "n0", "--port", "0",
                "--data", dir.resolve("n0").toString())) {
            String addr = ReadyLine.controllerAddress(run.readyLine())
                    .orElseThrow(() -> new AssertionError(run.describe()));
            assertThat(run.readyLine()).contains("Raft 127.0.0.1:").contains("peers n0");
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                Cli.Result status = Cli.run("admin", "controller-status", "-c", addr);
                assertThat(status.exitCode()).as(status.toString()).isZero();
                assertThat(status.out()).contains("n0").contains("LEADER").contains(addr);
            });

            try (RawBroker a = new RawBroker(addr, "grp-a", "127.0.0.1:27001");
                 RawBroker b = new RawBroker(addr, "grp-a", "127.0.0.1:27002")) {
                a.register();
                a.beat();
                a.becomeMaster();
                b.register();
                b.beat();

                Cli.Result groups = Cli.run("admin", "broker-groups", "-c", addr);
                assertThat(groups.exitCode()).as(groups.toString()).isZero();
                assertThat(groups.out()).contains("grp-a").contains("1@127.0.0.1:27001").contains("[1]")
                        .contains("2@127.0.0.1:27002 alive");

                Cli.Result refused = Cli.run("admin", "elect-master", "-c", addr, "--broker-name", "grp-a",
                        "--broker-id", "2");
                assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
                assertThat(refused.err()).contains("broker 2 of grp-a is not in the sync-state set [1]");

                Cli.Result kept = Cli.run("admin", "elect-master", "-c", addr, "--broker-name", "grp-a",
                        "--broker-id", "1");
                assertThat(kept.exitCode()).as(kept.toString()).isZero();
                assertThat(kept.out()).contains("Broker 1 (127.0.0.1:27001) is master of grp-a at epoch 1");

                Cli.Result json = Cli.run("admin", "broker-groups", "-c", addr, "--json", "--broker-name", "grp-a");
                assertThat(json.out()).contains("\"masterEpoch\":1");
            }
        }
    }

    @Test
    void badSettingsAndUnreachableControllersAreReportedClearly() throws Exception {
        Cli.Result badPeers = Cli.run("controller", "--peers", "n0=127.0.0.1", "--id", "n0", "--port", "0",
                "--data", dir.toString());
        assertThat(badPeers.exitCode()).isEqualTo(2);
        assertThat(badPeers.err()).contains("is not host:port");
        Cli.Result badId = Cli.run("controller", "--peers", "n0=127.0.0.1:1", "--id", "n9", "--port", "0",
                "--data", dir.toString());
        assertThat(badId.exitCode()).isEqualTo(2);
        assertThat(badId.err()).contains("--id n9 is not one of the --peers [n0]");
        int nobody = ControllerNodes.freePort();
        Cli.Result unreachable = Cli.run("admin", "broker-groups", "-c", "127.0.0.1:" + nobody);
        assertThat(unreachable.exitCode()).isEqualTo(3);
        assertThat(unreachable.err()).contains("No controller leader answered");
    }

    @Test
    void aNameServerCanRunTheControllerOnItsOwnPort() throws Exception {
        String peers = "ns0=127.0.0.1:" + ControllerNodes.freePort();
        try (ForegroundRun run = ForegroundRun.start("namesrv", "--port", "0", "--controller-peers", peers,
                "--controller-id", "ns0", "--controller-data", dir.resolve("ns0").toString())) {
            String addr = run.nameServerAddress();
            assertThat(run.readyLine()).contains("controller ns0");
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                Cli.Result status = Cli.run("admin", "controller-status", "-c", addr);
                assertThat(status.exitCode()).as(status.toString()).isZero();
                assertThat(status.out()).contains("ns0").contains("LEADER");
            });
            try (RawBroker a = new RawBroker(addr, "ns-grp", "127.0.0.1:28001")) {
                a.register();
                a.beat();
                a.becomeMaster();
            }
            // the NameServer still answers its own requests on the same port
            Cli.Result brokers = Cli.run("admin", "brokers", "-n", addr);
            assertThat(brokers.exitCode()).as(brokers.toString()).isZero();
        }
    }
}

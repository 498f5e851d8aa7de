package dev.wharf.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.server.cli.ExitCodes;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** namesrv, broker and standalone run in this JVM on port 0, stopped as SIGTERM would stop them. */
class ServerCommandsTest {

    @TempDir
    Path dir;

    @Test
    void standalonePrintsItsAddressesServesAdminCommandsAndStopsGracefully() throws Exception {
        Path store = dir.resolve("store");
        Path conf = TestStores.smallConfig(dir);
        try (ForegroundRun server = ForegroundRun.start("standalone", "--port", "0", "--broker-port", "0",
                "--store", store.toString(), "--config", conf.toString())) {
            assertThat(server.readyLine()).as(server.describe())
                    .startsWith("Wharf standalone ready: NameServer at 127.0.0.1:")
                    .contains("broker broker-a at 127.0.0.1:", "store " + store, "ASYNC_FLUSH");
            assertThat(server.nameServerAddress()).doesNotEndWith(":0").isNotEqualTo(server.brokerAddress());
            assertThat(store.resolve("abort")).exists();

            Cli.Result brokers = Cli.run("admin", "-n", server.nameServerAddress(), "brokers");
            assertThat(brokers.exitCode()).as(brokers.toString()).isZero();
            assertThat(brokers.out()).contains("DefaultCluster", "broker-a", server.brokerAddress());

            Cli.Result sent = Cli.run("admin", "-n", server.nameServerAddress(), "send", "--topic", "standalone-t",
                    "--body", "hello");
            assertThat(sent.exitCode()).as(sent.toString()).isZero();

            assertThat(server.stop()).isZero();
        }
        assertThat(store.resolve("abort")).doesNotExist();
        assertThat(store.resolve("commitlog")).isDirectory();
    }

    @Test
    void namesrvAndBrokerRunSeparatelyAndTheBrokerRegisters() throws Exception {
        try (ForegroundRun namesrv = ForegroundRun.start("namesrv", "--port", "0")) {
            assertThat(namesrv.readyLine()).as(namesrv.describe()).startsWith("Wharf NameServer ready at 127.0.0.1:");
            String ns = namesrv.nameServerAddress();
            Path store = dir.resolve("b");
            try (ForegroundRun broker = ForegroundRun.start("broker", "--namesrv", ns, "--port", "0",
                    "--store", store.toString(), "--name", "broker-x", "--flush", "sync",
                    "--config", TestStores.smallConfig(dir).toString())) {
                assertThat(broker.readyLine()).as(broker.describe())
                        .startsWith("Wharf broker broker-x ready at 127.0.0.1:")
                        .contains("cluster DefaultCluster", "NameServers " + ns, "SYNC_FLUSH");
                Cli.Result brokers = Cli.run("admin", "brokers", "-n", ns);
                assertThat(brokers.out()).as(brokers.toString()).contains("broker-x", broker.brokerAddress());
                assertThat(broker.stop()).isZero();
            }
            assertThat(store.resolve("abort")).doesNotExist();
            assertThat(namesrv.stop()).isZero();
        }
    }

    @Test
    void aMasterAndASlaveRunFromTheCommandLine() throws Exception {
        Path conf = TestStores.smallConfig(dir);
        try (ForegroundRun master = ForegroundRun.start("broker", "--port", "0", "--store",
                dir.resolve("m").toString(), "--name", "broker-r", "--config", conf.toString(),
                "--role", "SYNC_MASTER", "--broker-id", "0", "--ha-port", "0")) {
            assertThat(master.readyLine()).as(master.describe()).contains("SYNC_MASTER", "HA port ");
            String haPort = master.readyLine().replaceAll(".*HA port (\\d+).*", "$1");
            try (ForegroundRun slave = ForegroundRun.start("broker", "--port", "0", "--store",
                    dir.resolve("s").toString(), "--name", "broker-r", "--config", conf.toString(),
                    "--role", "SLAVE", "--broker-id", "1", "--ha-master", "127.0.0.1:" + haPort)) {
                assertThat(slave.readyLine()).as(slave.describe()).contains("SLAVE");
                assertThat(slave.stop()).isZero();
            }
            assertThat(master.stop()).isZero();
        }
        Cli.Result bad = Cli.run("broker", "--port", "0", "--store", dir.resolve("x").toString(), "--role", "SLAVE");
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.err()).contains("brokerRole is SLAVE but brokerId is 0");
    }

    @Test
    void flagsOverrideTheConfigurationFileWhichOverridesTheDefaults() throws Exception {
        Path conf = TestStores.smallConfig(dir, "brokerName=from-file", "flushDiskType=SYNC_FLUSH",
                "brokerClusterName=FileCluster");
        try (ForegroundRun server = ForegroundRun.start("standalone", "--port", "0", "--broker-port", "0",
                "--store", dir.resolve("s").toString(), "--config", conf.toString(), "--name", "from-flag")) {
            assertThat(server.readyLine()).as(server.describe()).contains("broker from-flag at", "SYNC_FLUSH");
            Cli.Result brokers = Cli.run("admin", "-n", server.nameServerAddress(), "brokers");
            assertThat(brokers.out()).contains("FileCluster", "from-flag");
        }
    }

    @Test
    void aSecondServerOnTheSameStoreIsRefusedWithAReason() throws Exception {
        Path store = dir.resolve("shared");
        Path conf = TestStores.smallConfig(dir);
        try (ForegroundRun first = ForegroundRun.start("standalone", "--port", "0", "--broker-port", "0",
                "--store", store.toString(), "--config", conf.toString())) {
            assertThat(first.readyLine()).as(first.describe()).isNotEmpty();
            ForegroundRun second = ForegroundRun.start("standalone", "--port", "0", "--broker-port", "0",
                    "--store", store.toString(), "--config", conf.toString());
            assertThat(second.exitCode()).isEqualTo(ExitCodes.FAILED);
            assertThat(second.err()).contains(store.toString()).hasLineCount(1);
        }
    }

    @Test
    void aPortInUseIsReportedWithTheOptionToChange() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            ForegroundRun run = ForegroundRun.start("namesrv", "--port", String.valueOf(taken.getLocalPort()));
            assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
            assertThat(run.err()).startsWith("Cannot start the NameServer on 127.0.0.1:" + taken.getLocalPort())
                    .contains("--port").hasLineCount(1);
        }
    }

    @Test
    void badFlagsAndFilesAreUsageErrorsOnOneLine() throws IOException {
        Cli.Result flush = Cli.run("broker", "--flush", "sometimes");
        assertThat(flush.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(flush.err()).contains("--flush", "sometimes", "wharf broker --help").hasLineCount(1);

        Cli.Result port = Cli.run("namesrv", "--port", "70000");
        assertThat(port.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(port.err()).contains("--port must be a port from 0 to 65535");

        Cli.Result missing = Cli.run("standalone", "--config", dir.resolve("nope.conf").toString());
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(missing.err()).contains("nope.conf does not exist").hasLineCount(1);

        Path typo = dir.resolve("typo.conf");
        Files.writeString(typo, "listenPortt=10911\n");
        Cli.Result unknown = Cli.run("broker", "--config", typo.toString());
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("listenPortt", "listenPort", typo.toString()).hasLineCount(1);

        Path twice = dir.resolve("twice.conf");
        Files.writeString(twice, "brokerName=a\nlistenPort=0\nbrokerName=b\n");
        Cli.Result duplicate = Cli.run("broker", "--config", twice.toString());
        assertThat(duplicate.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(duplicate.err()).contains("brokerName appears twice", "line 1 and on line 3", twice.toString())
                .hasLineCount(1);

        Cli.Result badName = Cli.run("standalone", "--name", "no spaces", "--store", dir.toString());
        assertThat(badName.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(badName.err()).contains("brokerName", "no spaces");
    }

    @Test
    void missingOrMisspelledCommandsPointAtHelp() {
        Cli.Result none = Cli.run();
        assertThat(none.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).contains("Missing command", "wharf --help");

        Cli.Result typo = Cli.run("standalon");
        assertThat(typo.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(typo.err()).contains("standalon", "Did you mean", "standalone");

        Cli.Result help = Cli.run("standalone", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains(System.getProperty("user.home") + "/wharf/store", "--broker-port", "--flush");
    }
}

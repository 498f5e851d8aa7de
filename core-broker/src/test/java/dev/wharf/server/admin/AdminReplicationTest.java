package dev.wharf.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.broker.ha.BrokerRole;
import dev.wharf.common.message.HostAddress;
import dev.wharf.namesrv.NameServer;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.server.Cli;
import dev.wharf.server.cli.ExitCodes;
import dev.wharf.store.MessageToStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code admin brokers} and {@code admin cluster-check} with a master and a real slave that replicated part of the
 * master's log and then lost its replication stream, so it stays behind by a known number of bytes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdminReplicationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path root;

    private NameServer nameServer;
    private Broker master;
    private Broker slave;

    private Broker start(String dir, long id) throws Exception {
        return start(dir, "broker-a", id, null);
    }

    private Broker start(String dir, String name, long id, BrokerRole role) throws Exception {
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(root.resolve(dir).toString());
        s.store().setMappedFileSizeCommitLog(4 * 1024 * 1024);
        s.store().setMaxMessageSize(256 * 1024);
        s.store().setMappedFileSizeConsumeQueue(20 * 4_000);
        s.store().setMaxHashSlotNum(1_000);
        s.store().setMaxIndexNum(4_000);
        s.netty().setListenPort(0);
        s.netty().setSelectorThreads(1);
        s.broker().setBrokerName(name);
        if (role != null) {
            s.ha().setBrokerRole(role);
        }
        s.broker().setBrokerId(id); // no brokerRole: brokerId 0 is an ASYNC_MASTER, 1 a SLAVE
        s.ha().setHaListenPort(0);
        s.broker().setNamesrvAddr(nameServer.address());
        s.broker().executors().setAdminBrokerThreadPoolNums(1);
        Broker b = new Broker(s);
        b.start();
        b.registerWithNameServers().join();
        return b;
    }

    private static void put(Broker broker, int count) {
        for (int i = 0; i < count; i++) {
            MessageToStore msg = new MessageToStore();
            msg.setTopic("lagging");
            msg.setQueueId(0);
            msg.setBody(("message " + i).getBytes(StandardCharsets.UTF_8));
            msg.setPropertiesString("");
            msg.setBornTimestamp(System.currentTimeMillis());
            msg.setBornHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 5555));
            msg.setStoreHost(HostAddress.pack(broker.address()));
            assertThat(broker.store().putMessage(msg).isOk()).isTrue();
        }
    }

    @BeforeEach
    void start() throws Exception {
        nameServer = NameServer.onPort(0);
        nameServer.start();
        master = start("m", 0);
        slave = start("s", 1);
        assertThat(slave.ha().role()).isEqualTo(BrokerRole.SLAVE);
        master.topics().update(new TopicConfig("lagging", 1));
        put(master, 10);
        long replicated = master.store().getMaxPhyOffset();
        // the slave learns the master's HA address from its registration answers and copies the 10 messages
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> slave.store().getMaxPhyOffset() == replicated
                && slave.store().dispatchBehindBytes() == 0);
        // its replication stream stops (as when the link to the master breaks): what follows stays on the master
        slave.ha().shutdown();
        put(master, 20);
        assertThat(slave.store().getMaxPhyOffset()).isEqualTo(replicated);
    }

    @AfterEach
    void stop() {
        if (slave != null) {
            slave.shutdown();
        }
        if (master != null) {
            master.shutdown();
        }
        nameServer.shutdown();
    }

    @Test
    void brokersShowsEachGroupsMasterAndSlavesWithTheSlavesLag() throws Exception {
        long lag = master.store().getMaxPhyOffset() - slave.store().getMaxPhyOffset();
        assertThat(lag).isPositive();
        Cli.Result text = Cli.run("admin", "-n", nameServer.address(), "brokers");
        assertThat(text.exitCode()).as(text.toString()).isZero();
        List<String> rows = AdminServer.rows(text.out());
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).matches("DefaultCluster\\s+broker-a\\s+0\\s+" + master.address().replace(".", "\\.")
                + "\\s+ASYNC_MASTER\\s+" + master.store().getMaxPhyOffset() + "\\s+-\\s+-");
        assertThat(rows.get(1)).matches("DefaultCluster\\s+broker-a\\s+1\\s+" + slave.address().replace(".", "\\.")
                + "\\s+SLAVE\\s+" + slave.store().getMaxPhyOffset() + "\\s+" + lag + "\\s+\\d+");

        List<?> json = JSON.readValue(Cli.run("admin", "-n", nameServer.address(), "brokers", "--json").out(),
                List.class);
        assertThat(json).hasSize(2);
        Map<?, ?> slaveRow = (Map<?, ?>) json.get(1);
        assertThat(slaveRow.get("role")).isEqualTo("SLAVE");
        assertThat(slaveRow.get("brokerId")).isEqualTo(1);
        assertThat(((Number) slaveRow.get("lagBytes")).longValue()).isEqualTo(lag);
    }

    @Test
    void clusterCheckSaysWhetherEveryGroupHasAMasterAndSlavesWithinTheLimit() throws Exception {
        long lag = master.store().getMaxPhyOffset() - slave.store().getMaxPhyOffset();
        Cli.Result ok = Cli.run("admin", "-n", nameServer.address(), "cluster-check");
        assertThat(ok.exitCode()).as(ok.toString()).isEqualTo(ExitCodes.OK);
        assertThat(ok.out()).contains("broker-a", "OK", "All 1 broker group(s) have a master");

        Cli.Result lagging = Cli.run("admin", "-n", nameServer.address(), "cluster-check", "--max-lag-bytes",
                Long.toString(lag - 1));
        assertThat(lagging.exitCode()).as(lagging.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(lagging.out()).contains("NOT_IN_SYNC", "NOT IN SYNC: broker-a slave 1 is " + lag + " bytes behind");

        master.shutdown();
        master = null;
        Cli.Result headless = Cli.run("admin", "-n", nameServer.address(), "cluster-check", "--json");
        assertThat(headless.exitCode()).as(headless.toString()).isEqualTo(ExitCodes.FAILED);
        Map<?, ?> result = JSON.readValue(headless.out(), Map.class);
        assertThat(result.get("ok")).isEqualTo(false);
        assertThat(result.get("groups").toString()).contains("broker-a has no master registered");

        Cli.Result bad = Cli.run("admin", "-n", nameServer.address(), "cluster-check", "--max-lag-bytes", "-5");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("--max-lag-bytes is -5");
    }

    @Test
    void clusterCheckFailsForASyncMasterWithoutItsSlave() throws Exception {
        Broker alone = start("b", "broker-b", 0, BrokerRole.SYNC_MASTER);
        try {
            Cli.Result brokers = Cli.run("admin", "-n", nameServer.address(), "brokers");
            assertThat(AdminServer.rows(brokers.out())).anySatisfy(row -> assertThat(row).matches(
                    "DefaultCluster\\s+broker-b\\s+0\\s+" + alone.address().replace(".", "\\.") + "\\s+SYNC_MASTER\\s+.*"));

            Cli.Result check = Cli.run("admin", "-n", nameServer.address(), "cluster-check");
            assertThat(check.exitCode()).as(check.toString()).isEqualTo(ExitCodes.FAILED);
            assertThat(check.out()).contains("NOT IN SYNC: broker-b master " + alone.address()
                    + " is a SYNC_MASTER with 0 slave(s) in sync and 1 needed (minInSyncReplicas)");
            assertThat(check.out()).doesNotContain("NOT IN SYNC: broker-a");
        } finally {
            alone.shutdown();
        }
    }
}

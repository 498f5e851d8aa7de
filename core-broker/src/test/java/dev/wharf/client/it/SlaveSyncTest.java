package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.broker.Broker;
import dev.wharf.broker.group.SubscriptionGroupConfig;
import dev.wharf.broker.slave.SlaveSynchronizer;
import dev.wharf.namesrv.NameServer;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BrokerRuntime;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.protocol.header.SyncHeaders;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/** A slave copies its master's topics, groups, offsets and progress documents, and follows their changes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlaveSyncTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path root;

    private NameServer nameServer;
    private Broker master;
    private Broker slave;

    @BeforeEach
    void start() throws Exception {
        nameServer = NameServer.onPort(0);
        nameServer.start();
        master = Replicas.start(root.resolve("m"), nameServer.address(), "broker-a", 0);
        slave = Replicas.start(root.resolve("s"), nameServer.address(), "broker-a", 1);
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
    void topicsGroupsOffsetsAndProgressDocumentsReachTheSlave() throws Exception {
        master.topics().update(new TopicConfig("orders", 3));
        master.topics().update(new TopicConfig("audit", 1));
        master.subscriptionGroups().update(new SubscriptionGroupConfig("billing", true, false, 1, 5, true));
        master.offsets().commitOffset("billing", "orders", 0, 42);
        master.offsets().commitOffset("billing", "orders", 2, 7);
        master.ack().snapshotNow();

        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(slave.topics().find("orders")).isEqualTo(master.topics().find("orders"));
            assertThat(slave.topics().find("audit")).isNotNull();
            assertThat(slave.subscriptionGroups().find("billing")).isEqualTo(master.subscriptionGroups().find("billing"));
            assertThat(slave.offsets().offsets("billing", "orders")).isEqualTo(Map.of(0, 42L, 2, 7L));
        });
        Path masterConfig = root.resolve("m").resolve("config");
        Path slaveConfig = root.resolve("s").resolve("config");
        for (String doc : new String[] {SyncHeaders.DELAY_OFFSET, SyncHeaders.ACK_STATE}) {
            assertThat(masterConfig.resolve(doc)).as(doc + " on the master").exists();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(slaveConfig.resolve(doc))
                    && JSON.readTree(slaveConfig.resolve(doc).toFile())
                    .equals(JSON.readTree(masterConfig.resolve(doc).toFile())));
        }
        SlaveSynchronizer.Round round = slave.replica().synchronizer().lastRound();
        assertThat(round.ok()).as(round.toString()).isTrue();
        assertThat(round.master()).isEqualTo(master.address());

        // changes follow: a deleted topic and group go, a moved offset moves (also backwards, as a reset)
        master.topics().delete("audit");
        master.subscriptionGroups().delete("billing");
        master.offsets().resetOffsets("billing", "orders", Map.of(0, 3L));
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(slave.topics().find("audit")).isNull();
            assertThat(slave.subscriptionGroups().find("billing")).isNull();
            assertThat(slave.offsets().queryOffset("billing", "orders", 0)).isEqualTo(3);
        });
    }

    @Test
    void aSlaveRefusesAcknowledgementRequestsAndProgressDocumentsAreServedByNameOnly() throws Exception {
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try {
            RemotingCommand pop = client.invokeSync(slave.address(),
                    RemotingCommand.createRequest(RequestCode.POP_MESSAGE), 3_000);
            assertThat(pop.code()).isEqualTo(ResponseCode.SERVICE_NOT_AVAILABLE);
            assertThat(pop.remark()).contains("broker-a id=1 is a slave", "POP_MESSAGE", "master");

            RemotingCommand sneaky = RemotingCommand.createRequest(RequestCode.GET_PROGRESS_DOCUMENT);
            sneaky.writeHeader(new SyncHeaders.ProgressDocumentRequest("../config/topics.json"));
            RemotingCommand refused = client.invokeSync(master.address(), sneaky, 3_000);
            assertThat(refused.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
            assertThat(refused.remark()).contains("../config/topics.json", SyncHeaders.ACK_STATE);

            RemotingCommand runtime = client.invokeSync(slave.address(),
                    RemotingCommand.createRequest(RequestCode.GET_BROKER_RUNTIME_INFO), 3_000);
            BrokerRuntime info = Json.decode(runtime.body(), BrokerRuntime.class);
            assertThat(info.brokerId()).isEqualTo(1);
            assertThat(info.brokerAddr()).isEqualTo(slave.address());
            assertThat(info.masterAddr()).isEqualTo(master.address());
            assertThat(info.commitLogMaxOffset()).isEqualTo(slave.store().getMaxPhyOffset());
        } finally {
            client.shutdown();
        }
        assertThat(master.replica().runtime().masterAddr()).isNull();
        // the master still serves what it serves
        assertThat(master.isSlave()).isFalse();
    }
}

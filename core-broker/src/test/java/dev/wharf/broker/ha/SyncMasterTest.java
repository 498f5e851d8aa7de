package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.PutMessageResult;
import dev.wharf.store.PutMessageStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** SYNC_MASTER's promise on loopback: acknowledged means on a slave; nothing unreplicated is delivered. */
@Timeout(120)
class SyncMasterTest {

    private static final String TOPIC = Workload.TOPIC;

    @TempDir
    Path dir;
    private HaCluster cluster;

    @BeforeEach
    void start() {
        cluster = new HaCluster();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private Producer producer() throws Exception {
        Producer producer = new Producer("sync-producers", cluster.clientConfig());
        producer.setRetryTimesWhenSendFailed(0);
        producer.start();
        cluster.track(producer::shutdown);
        return producer;
    }

    @Test
    void sendsWaitForTheSlaveAndUnreplicatedMessagesAreNotDelivered() throws Exception {
        Broker master = cluster.startMaster(dir.resolve("master"), BrokerRole.SYNC_MASTER, s -> { });
        Broker slave = cluster.startSlave(dir.resolve("slave"), 1, master.haAddress(), s -> { });
        cluster.createTopic(TOPIC, 4);
        await().atMost(Duration.ofSeconds(10)).until(() -> master.ha().inSyncReplicaCount() == 1);
        Producer producer = producer();
        for (int i = 0; i < 200; i++) {
            SendResult result = producer.send(Workload.message(TOPIC, "sync-" + i));
            assertThat(result.sendStatus()).isEqualTo(SendStatus.SEND_OK);
            // acknowledged means the slave holds the record already
            assertThat(slave.store().readMessageAt(offsetOf(result))).isNotNull();
        }
        // the master's dispatcher builds the consume queues just after the acknowledgement: wait for it
        await().atMost(Duration.ofSeconds(10)).until(() -> ReplicationTest.topicCount(master.store(), TOPIC) == 200);

        slave.shutdown();
        await().atMost(Duration.ofSeconds(10)).until(() -> master.ha().inSyncReplicaCount() == 0);
        long before = master.store().getMaxPhyOffset();
        SendResult refused = producer.send(Workload.message(TOPIC, "lonely"));
        assertThat(refused.sendStatus()).isEqualTo(SendStatus.SLAVE_NOT_AVAILABLE);
        assertThat(master.store().getMaxPhyOffset()).as("stored on the master").isGreaterThan(before);
        assertThat(master.store().awaitDispatched(1_000)).isTrue();
        assertThat(ReplicationTest.topicCount(master.store(), TOPIC)).as("but not delivered").isEqualTo(200);

        Broker back = cluster.startSlave(dir.resolve("slave"), 1, master.haAddress(), s -> { });
        ReplicationTest.awaitCaughtUp(master, back);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ReplicationTest.topicCount(master.store(), TOPIC) == 201);
        assertThat(producer.send(Workload.message(TOPIC, "again")).sendStatus()).isEqualTo(SendStatus.SEND_OK);
    }

    @Test
    void everyKindOfWriteIsReplicatedBeforeItCounts() throws Exception {
        Broker master = cluster.startMaster(dir.resolve("master"), BrokerRole.SYNC_MASTER, s -> { });
        Broker slave = cluster.startSlave(dir.resolve("slave"), 1, master.haAddress(), s -> { });
        await().atMost(Duration.ofSeconds(10)).until(() -> master.ha().inSyncReplicaCount() == 1);
        // sends, batches, delayed re-puts, transaction halves and commits, retries: each answered only once replicated
        int expected = Workload.run(cluster, 2_000);
        ReplicationTest.awaitTopicCount(master.store(), expected);
        ReplicationTest.awaitCaughtUp(master, slave);
        ReplicationTest.awaitTopicCount(slave.store(), expected);
        ReplicationTest.assertSameCommitLog(dir.resolve("master"), dir.resolve("slave"));
    }

    @Test
    void aSlaveThatStopsAckingMakesSendsTimeOutNeverSucceed() throws Exception {
        Broker master = cluster.startMaster(dir.resolve("master"), BrokerRole.SYNC_MASTER,
                s -> s.ha().setSlaveTimeout(300));
        cluster.createTopic(TOPIC, 4);
        try (FakePeer silent = FakePeer.connect(master.haAddress())) {
            silent.handshake(HaCluster.NAME, 7, 0, -1, 0, 0);
            silent.read();
            assertThat(silent.type).isEqualTo(HaFrame.TYPE_ACCEPTED);
            silent.ack(0); // in sync (within haMaxGapNotInSync) but it never acks again
            await().atMost(Duration.ofSeconds(5)).until(() -> master.ha().inSyncReplicaCount() == 1);
            Producer producer = producer();
            SendResult result = producer.send(Workload.message(TOPIC, "unconfirmed"));
            assertThat(result.sendStatus()).isEqualTo(SendStatus.FLUSH_SLAVE_TIMEOUT);
            MessageToStore direct = new MessageToStore();
            direct.setTopic(TOPIC);
            direct.setBody("direct".getBytes(StandardCharsets.UTF_8));
            PutMessageResult put = master.store().putMessage(direct);
            assertThat(put.status()).isEqualTo(PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
            assertThat(put.errorMessage()).contains("slaveTimeout");
            assertThat(ReplicationTest.topicCount(master.store(), TOPIC)).isZero();
        }
    }

    @Test
    void degradingToAsyncWithoutASlaveMustBeAskedFor() throws Exception {
        Broker master = cluster.startMaster(dir.resolve("master"), BrokerRole.SYNC_MASTER,
                s -> s.ha().setSyncMasterDegradeToAsync(true));
        cluster.createTopic(TOPIC, 4);
        Producer producer = producer();
        assertThat(producer.send(Workload.message(TOPIC, "degraded")).sendStatus()).isEqualTo(SendStatus.SEND_OK);
        await().atMost(Duration.ofSeconds(5)).until(() -> ReplicationTest.topicCount(master.store(), TOPIC) == 1);
    }

    @Test
    void aSlaveRefusesWritesWithAClearError() throws Exception {
        Broker master = cluster.startMaster(dir.resolve("master"), BrokerRole.ASYNC_MASTER, s -> { });
        Broker slave = cluster.startSlave(dir.resolve("slave"), 1, master.haAddress(), s -> { });
        NettyRemotingClient client = new NettyRemotingClient(new NettyClientConfig());
        client.start();
        try {
            SendMessageRequest header = new SendMessageRequest("pg", TOPIC, 4, 0, 0, System.currentTimeMillis(), 0,
                    "", 0, null, false);
            RemotingCommand request = RemotingCommand.createRequest(RequestCode.SEND_MESSAGE);
            HeaderCodec.encode(header).forEach(request::putExt);
            request.setBody("to a slave".getBytes(StandardCharsets.UTF_8));
            RemotingCommand response = client.invokeSync(slave.address(), request, 5_000);
            assertThat(response.code()).isNotEqualTo(ResponseCode.SUCCESS);
            assertThat(response.remark()).contains("is a SLAVE").contains("brokerId 0");
        } finally {
            client.shutdown();
        }
        assertThat(slave.store().getMaxPhyOffset()).isEqualTo(master.store().getMaxPhyOffset());
    }

    static long offsetOf(SendResult result) {
        // offsetMsgId: 16 hex digits of the store host, 16 of the commit-log offset
        String id = result.offsetMsgId();
        return Long.parseUnsignedLong(id.substring(id.length() - 16), 16);
    }
}

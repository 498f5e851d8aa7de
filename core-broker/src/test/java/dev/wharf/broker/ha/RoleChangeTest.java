package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.common.message.HostAddress;
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

/**
 * Roles switched at runtime, as a controller's election does: the slave becomes master of a new epoch, the old
 * master becomes its slave and cuts the tail it wrote alone; a fenced master refuses writes naming why.
 */
@Timeout(120)
class RoleChangeTest {

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

    private static MessageToStore message(String body) {
        MessageToStore msg = new MessageToStore();
        msg.setTopic(TOPIC);
        msg.setQueueId(0);
        msg.setBody(body.getBytes(StandardCharsets.UTF_8));
        msg.setBornTimestamp(System.currentTimeMillis());
        msg.setBornHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 5555));
        return msg;
    }

    @Test
    void aSlavePromotedAtRuntimeLeadsAndTheOldMasterFollowsAfterCuttingItsTail() throws Exception {
        Path storeA = dir.resolve("a");
        EpochFile.open(storeA).append(1, 0);
        Broker a = cluster.startMaster(storeA, BrokerRole.ASYNC_MASTER, s -> { });
        Broker b = cluster.startSlave(dir.resolve("b"), 1, a.haAddress(), s -> { });
        cluster.createTopic(TOPIC, 4);
        Producer producer = new Producer("role-producers", cluster.clientConfig());
        producer.start();
        cluster.track(producer::shutdown);
        for (int i = 0; i < 100; i++) {
            assertThat(producer.send(Workload.message(TOPIC, "one-" + i)).sendStatus()).isEqualTo(SendStatus.SEND_OK);
        }
        ReplicationTest.awaitCaughtUp(a, b);
        long common = b.store().getMaxPhyOffset();

        // B is elected for epoch 2; A has not heard yet and takes writes alone
        b.ha().changeToMaster(2, BrokerRole.ASYNC_MASTER);
        assertThat(b.ha().role()).isEqualTo(BrokerRole.ASYNC_MASTER);
        assertThat(b.ha().epochs().entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(2, common));
        for (int i = 0; i < 40; i++) {
            SendResult r = producer.send(Workload.message(TOPIC, "alone-" + i));
            assertThat(r.sendStatus()).isEqualTo(SendStatus.SEND_OK);
        }
        assertThat(a.store().getMaxPhyOffset()).isGreaterThan(common);
        for (int i = 0; i < 30; i++) {
            PutMessageResult r = b.store().putMessage(message("two-" + i));
            assertThat(r.status()).isEqualTo(PutMessageStatus.PUT_OK);
        }

        // A learns of epoch 2 and follows B: its 40 lone messages are cut, B's 30 copied
        a.ha().changeToSlave(b.haAddress(), 2);
        PutMessageResult refused = a.store().putMessage(message("to-a-slave"));
        assertThat(refused.status()).isEqualTo(PutMessageStatus.SERVICE_NOT_AVAILABLE);
        ReplicationTest.awaitCaughtUp(b, a);
        ReplicationTest.awaitTopicCount(a.store(), 130);
        assertThat(a.ha().epochs().entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(2, common));
        assertThat(b.ha().replicas()).singleElement()
                .satisfies(r -> assertThat(r.ackedOffset()).isEqualTo(b.store().getMaxPhyOffset()));

        // a master whose lease lapsed refuses writes, saying why, and takes them again once renewed
        b.ha().setFenced("the lease with the controller lapsed");
        PutMessageResult fenced = b.store().putMessage(message("fenced"));
        assertThat(fenced.status()).isEqualTo(PutMessageStatus.SERVICE_NOT_AVAILABLE);
        assertThat(fenced.errorMessage()).contains("lease");
        b.ha().setFenced(null);
        assertThat(b.store().putMessage(message("renewed")).status()).isEqualTo(PutMessageStatus.PUT_OK);
        await().atMost(Duration.ofSeconds(30)).until(() -> a.store().getMaxPhyOffset() == b.store().getMaxPhyOffset());
        a.shutdown();
        b.shutdown();
        ReplicationTest.assertSameCommitLog(dir.resolve("b"), storeA);
    }
}

package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.SendStatus;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An old master that comes back as a replica of the master elected after it cuts its unreplicated tail back to
 * the last point both epoch histories share, then copies the new master's log byte for byte. The terms are
 * written here as an election would (epoch 1 for the first master, epoch 2 for the next).
 */
@Timeout(120)
class EpochTruncationTest {

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

    private void send(String prefix, int count) throws Exception {
        Producer producer = new Producer("epoch-producers-" + prefix, cluster.clientConfig());
        producer.setRetryTimesWhenSendFailed(2);
        producer.start();
        try {
            for (int i = 0; i < count; i++) {
                SendResult result = producer.send(Workload.message(TOPIC, prefix + "-" + i));
                assertThat(result.sendStatus()).isEqualTo(SendStatus.SEND_OK);
            }
        } finally {
            producer.shutdown();
        }
    }

    @Test
    void anOldMasterComingBackAsReplicaCutsItsDivergentTail() throws Exception {
        Path storeA = dir.resolve("a");
        Path storeB = dir.resolve("b");
        EpochFile.open(storeA).append(1, 0); // A is elected first
        Broker a = cluster.startMaster(storeA, BrokerRole.ASYNC_MASTER, s -> { });
        Broker b = cluster.startSlave(storeB, 1, a.haAddress(), s -> { });
        cluster.createTopic(TOPIC, 4);
        send("first", 300);
        ReplicationTest.awaitCaughtUp(a, b);
        assertThat(b.ha().epochs().entries()).as("the replica adopts its master's history")
                .containsExactly(new EpochEntry(1, 0));

        // B loses A; A takes writes nobody replicates (its unconfirmed tail), then dies
        b.shutdown();
        long common = b.store().getMaxPhyOffset();
        send("lost", 200);
        long aEnd = a.store().getMaxPhyOffset();
        assertThat(aEnd).isGreaterThan(common);
        a.shutdown();

        // B is elected in epoch 2 starting at its end, and takes new writes
        EpochFile.open(storeB).append(2, common);
        Broker newMaster = cluster.startMaster(storeB, BrokerRole.ASYNC_MASTER, s -> { });
        send("second", 150);
        assertThat(newMaster.store().getMaxPhyOffset()).as("B's log is shorter than A's at first")
                .isLessThan(aEnd);

        // A comes back as B's replica: it cuts [common, aEnd) and copies B's epoch-2 records
        Broker oldMaster = cluster.startSlave(storeA, 2, newMaster.haAddress(), s -> { });
        ReplicationTest.awaitCaughtUp(newMaster, oldMaster);
        assertThat(oldMaster.ha().epochs().entries()).containsExactly(new EpochEntry(1, 0), new EpochEntry(2, common));
        ReplicationTest.awaitTopicCount(oldMaster.store(), 300 + 150);
        assertThat(ReplicationTest.topicCount(oldMaster.store(), TOPIC)).isEqualTo(450);
        oldMaster.shutdown();
        newMaster.shutdown();
        ReplicationTest.assertSameCommitLog(storeB, storeA);
    }
}

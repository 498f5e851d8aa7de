package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.common.message.HostAddress;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.PutMessageResult;
import dev.wharf.store.PutMessageStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master whose heartbeats stop being accepted (the renewal time stands still, as when the controller is
 * unreachable) refuses writes once its lease runs out, and takes them again when a heartbeat gets through.
 */
@Timeout(60)
class MasterLeaseTest {

    private static final long LEASE = 400;

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
        msg.setTopic("lease");
        msg.setQueueId(0);
        msg.setBody(body.getBytes(StandardCharsets.UTF_8));
        msg.setBornTimestamp(System.currentTimeMillis());
        msg.setBornHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 5555));
        return msg;
    }

    @Test
    void anUnrenewedLeaseFencesWritesWithinTheLease() throws Exception {
        Broker master = cluster.startMaster(dir.resolve("m"), BrokerRole.ASYNC_MASTER, s -> { });
        AtomicLong renewed = new AtomicLong(System.nanoTime());
        try (MasterLease lease = new MasterLease(master.ha(), LEASE, 3_000, renewed::get)) {
            renewed.set(System.nanoTime()); // a heartbeat was accepted
            assertThat(master.store().putMessage(message("held")).status()).isEqualTo(PutMessageStatus.PUT_OK);

            long lastRenewal = System.nanoTime();
            renewed.set(lastRenewal); // from here on no heartbeat gets through
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                    .until(() -> master.store().putMessage(message("probe")).status()
                            == PutMessageStatus.SERVICE_NOT_AVAILABLE);
            long fencedAfterMillis = (System.nanoTime() - lastRenewal) / 1_000_000;
            assertThat(fencedAfterMillis).as("fenced once the lease ran out, well before the 3 s heartbeat timeout")
                    .isLessThan(3_000);
            PutMessageResult refused = master.store().putMessage(message("refused"));
            assertThat(refused.status()).isEqualTo(PutMessageStatus.SERVICE_NOT_AVAILABLE);
            assertThat(refused.errorMessage()).contains("master lease");

            renewed.set(System.nanoTime()); // the controller is reachable again
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                    .until(() -> master.store().putMessage(message("again")).status() == PutMessageStatus.PUT_OK);
        }
        assertThatThrownBy(() -> new MasterLease(master.ha(), 3_000, 3_000, System::nanoTime))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("controllerHeartBeatTimeoutMills");
    }

    /**
     * A SYNC_MASTER whose lease lapses while a put waits for its slave (a pause, or a partition from the controller
     * while another replica is elected) neither acknowledges the put nor shows it to readers when the slave's ack
     * arrives afterwards: the old master will cut it when it rejoins, and the new one may reuse its queue offsets.
     * Once a heartbeat answer names it master again, what the slave confirmed becomes visible.
     */
    @Test
    void aPutConfirmedAfterTheLeaseLapsedIsNeitherAcknowledgedNorDelivered() throws Exception {
        Broker master = cluster.startMaster(dir.resolve("m"), BrokerRole.SYNC_MASTER,
                s -> s.ha().setSlaveTimeout(10_000));
        AtomicLong renewed = new AtomicLong(System.nanoTime());
        try (FakePeer slave = FakePeer.connect(master.haAddress());
                MasterLease lease = new MasterLease(master.ha(), LEASE, 3_000, renewed::get)) {
            slave.handshake(HaCluster.NAME, 7, 0, -1, 0, 0);
            slave.read();
            assertThat(slave.type).isEqualTo(HaFrame.TYPE_ACCEPTED);
            slave.ack(0);
            await().atMost(Duration.ofSeconds(5)).until(() -> master.ha().inSyncReplicaCount() == 1);

            renewed.set(System.nanoTime());
            CompletableFuture<PutMessageResult> put = master.store().asyncPutMessage(message("in flight"));
            long end = master.store().getMaxPhyOffset();
            assertThat(put).isNotDone(); // stored, waiting for the slave

            renewed.set(System.nanoTime() - TimeUnit.SECONDS.toNanos(10)); // the controller stops answering
            await().atMost(Duration.ofSeconds(5)).until(lease::lapsed);
            slave.ack(end); // the slave confirms only now

            PutMessageResult result = put.get(5, TimeUnit.SECONDS);
            assertThat(result.status()).isEqualTo(PutMessageStatus.FLUSH_SLAVE_TIMEOUT);
            assertThat(result.errorMessage()).contains("lost its lease");
            assertThat(master.store().awaitDispatched(1_000)).isTrue();
            assertThat(ReplicationTest.topicCount(master.store(), "lease")).as("not shown to readers").isZero();

            renewed.set(System.nanoTime()); // a heartbeat answer names it master again
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> ReplicationTest.topicCount(master.store(), "lease") == 1);
        }
    }
}

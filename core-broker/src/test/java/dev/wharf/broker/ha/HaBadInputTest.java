package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.store.commitlog.RecordFingerprint;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the HA port does with what it should never get: each bad peer is refused with a reason, nothing is
 * overwritten, and the master keeps serving its real slave.
 */
@Timeout(120)
class HaBadInputTest {

    @TempDir
    Path dir;
    private HaCluster cluster;
    private Broker master;
    private Broker slave;

    @BeforeEach
    void start() throws Exception {
        cluster = new HaCluster();
        master = cluster.startMaster(dir.resolve("master"), BrokerRole.ASYNC_MASTER, s -> { });
        slave = cluster.startSlave(dir.resolve("slave"), 1, master.haAddress(), s -> { });
        Workload.run(cluster, 500);
        ReplicationTest.awaitCaughtUp(master, slave);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    /** The real slave still follows new writes. */
    private void masterStillServes() throws Exception {
        long before = master.store().getMaxPhyOffset();
        Workload.run(cluster, 200);
        assertThat(master.store().getMaxPhyOffset()).isGreaterThan(before);
        ReplicationTest.awaitCaughtUp(master, slave);
        assertThat(master.ha().replicas()).extracting(ReplicaStatus::brokerId).containsExactly(1L);
    }

    @Test
    void garbageOnTheHaPortIsRefused() throws Exception {
        try (FakePeer garbage = FakePeer.connect(master.haAddress())) {
            garbage.writeRaw(ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: wharf\r\n\r\n".getBytes()));
            assertThat(garbage.readRefusal()).startsWith("bad frame").contains("not an HA frame");
            assertThat(garbage.closedByPeer()).isTrue();
        }
        try (FakePeer huge = FakePeer.connect(master.haAddress())) {
            ByteBuffer header = ByteBuffer.allocate(HaFrame.HEADER_SIZE);
            HaFrame.putHeader(header, HaFrame.TYPE_HANDSHAKE, Integer.MAX_VALUE, 0);
            huge.writeRaw(header.flip());
            assertThat(huge.readRefusal()).contains("at most");
        }
        masterStillServes();
    }

    @Test
    void aSlaveOfAnotherBrokerNameIsRefusedOnBothSides() throws Exception {
        Broker stranger = cluster.startSlave(dir.resolve("stranger"), 2, master.haAddress(),
                s -> s.broker().setBrokerName("broker-other"));
        await().atMost(Duration.ofSeconds(10)).until(() -> stranger.ha().slaveStatus().lastRefusal() != null);
        assertThat(stranger.ha().slaveStatus().lastRefusal()).startsWith("wrong broker")
                .contains("broker-other").contains(HaCluster.NAME);
        assertThat(stranger.ha().slaveStatus().connected()).isFalse();
        assertThat(stranger.store().getMaxPhyOffset()).isZero();
        masterStillServes();
    }

    @Test
    void anAckBeyondWhatWasSentIsRefused() throws Exception {
        try (FakePeer liar = FakePeer.connect(master.haAddress())) {
            long end = master.store().getMaxPhyOffset();
            RecordFingerprint last = master.store() instanceof dev.wharf.store.ReplicableStore r
                    ? r.lastRecordFingerprint() : null;
            liar.handshake(HaCluster.NAME, 9, end, last.offset(), last.size(), last.crc());
            liar.read();
            assertThat(liar.type).isEqualTo(HaFrame.TYPE_ACCEPTED);
            liar.ack(end + 1_000_000); // claims bytes it was never sent
            assertThat(liar.readRefusal()).startsWith("wrong offset").contains("acked offset");
        }
        masterStillServes();
    }

    @Test
    void aDivergedSlaveIsRefusedAndKeepsItsLog() throws Exception {
        // a fake slave whose last record differs from the master's at the same offset
        RecordFingerprint last = ((dev.wharf.store.ReplicableStore) master.store()).lastRecordFingerprint();
        try (FakePeer diverged = FakePeer.connect(master.haAddress())) {
            diverged.handshake(HaCluster.NAME, 5, last.end(), last.offset(), last.size(), last.crc() ^ 1);
            assertThat(diverged.readRefusal()).startsWith("logs diverge").contains("Nothing was overwritten");
        }
        // a real slave whose log is ahead of this master's (it followed another master with more data)
        Broker otherMaster = cluster.startMaster(dir.resolve("other"), BrokerRole.ASYNC_MASTER, s -> { });
        Broker ahead = cluster.startSlave(dir.resolve("ahead"), 3, otherMaster.haAddress(), s -> { });
        // the NameServer keeps routing to the first master (a live broker keeps its name and id), so the other
        // master's log grows through its store
        while (otherMaster.store().getMaxPhyOffset() <= master.store().getMaxPhyOffset() + 64 * 1024) {
            dev.wharf.store.MessageToStore msg = new dev.wharf.store.MessageToStore();
            msg.setTopic("ahead");
            msg.setBody(new byte[1024]);
            msg.setBornTimestamp(System.currentTimeMillis());
            assertThat(otherMaster.store().putMessage(msg).status())
                    .isEqualTo(dev.wharf.store.PutMessageStatus.PUT_OK);
        }
        await().atMost(Duration.ofSeconds(60))
                .until(() -> ahead.store().getMaxPhyOffset() > master.store().getMaxPhyOffset()
                        && ahead.store().getMaxPhyOffset() == otherMaster.store().getMaxPhyOffset());
        ahead.shutdown();
        otherMaster.shutdown();
        String before = digest(dir.resolve("ahead").resolve("commitlog"));
        Broker again = cluster.startSlave(dir.resolve("ahead"), 3, master.haAddress(), s -> { });
        await().atMost(Duration.ofSeconds(10)).until(() -> again.ha().slaveStatus().lastRefusal() != null);
        assertThat(again.ha().slaveStatus().lastRefusal()).startsWith("slave ahead of master")
                .contains("Nothing was overwritten");
        again.shutdown();
        assertThat(digest(dir.resolve("ahead").resolve("commitlog"))).isEqualTo(before);
    }

    @Test
    void aTransferForAnotherOffsetIsRefusedBySlave() throws Exception {
        try (ServerSocketChannel fakeMaster = ServerSocketChannel.open()) {
            fakeMaster.bind(new InetSocketAddress("127.0.0.1", 0));
            String address = "127.0.0.1:" + ((InetSocketAddress) fakeMaster.getLocalAddress()).getPort();
            long slaveEnd = slave.store().getMaxPhyOffset();
            slave.ha().setMasterAddress(address);
            try (FakePeer peer = FakePeer.of(fakeMaster.accept())) {
                peer.read();
                assertThat(peer.type).isEqualTo(HaFrame.TYPE_HANDSHAKE);
                assertThat(peer.body.getLong(HaFrame.HANDSHAKE_MAX_OFFSET)).isEqualTo(slaveEnd);
                peer.write(HaFrame.TYPE_ACCEPTED, ByteBuffer.allocate(16).putLong(slaveEnd).putLong(slaveEnd).flip());
                ByteBuffer transfer = ByteBuffer.allocate(HaFrame.TRANSFER_FIXED_SIZE + 100);
                transfer.putLong(slaveEnd + 64).putLong(slaveEnd + 164).putLong(0).put(new byte[100]).flip();
                peer.write(HaFrame.TYPE_TRANSFER, transfer);
                assertThat(peer.readRefusal()).startsWith("wrong offset").contains(String.valueOf(slaveEnd));
            }
            assertThat(slave.store().getMaxPhyOffset()).isEqualTo(slaveEnd);
            assertThat(slave.ha().slaveStatus().lastRefusal()).contains("wrong offset");
        }
        slave.ha().setMasterAddress(master.haAddress());
        masterStillServes();
    }

    private static String digest(Path folder) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.sorted().toList()) {
                sha.update(f.getFileName().toString().getBytes());
                sha.update(Files.readAllBytes(f));
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}

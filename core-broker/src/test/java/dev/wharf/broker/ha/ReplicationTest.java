package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.store.MessageStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Master/slave replication end to end on loopback: byte-identical logs, catch-up, restarts. */
@Timeout(180)
class ReplicationTest {

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

    @Test
    void aMixedWorkloadLeavesByteIdenticalCommitLogs() throws Exception {
        Broker master = cluster.startMaster(dir.resolve("master"), BrokerRole.ASYNC_MASTER, s -> { });
        Broker slave = cluster.startSlave(dir.resolve("slave"), 1, master.haAddress(), s -> { });
        int expected = Workload.run(cluster, Integer.getInteger("wharf.ha.messages", 20_000));

        awaitTopicCount(master.store(), expected);
        awaitCaughtUp(master, slave);
        awaitTopicCount(slave.store(), expected);
        assertSameCommitLog(dir.resolve("master"), dir.resolve("slave"));
        try (Stream<Path> files = Files.list(dir.resolve("slave").resolve("commitlog"))) {
            assertThat(files.count()).as("the workload crosses file boundaries").isGreaterThan(1);
        }
        assertThat(master.ha().replicas()).singleElement()
                .satisfies(r -> assertThat(r.ackedOffset()).isEqualTo(master.store().getMaxPhyOffset()));
    }

    @Test
    void aSlaveAddedToARunningMasterCatchesUpFromDiskAndAfterItsRestart() throws Exception {
        Broker master = cluster.startMaster(dir.resolve("master"), BrokerRole.ASYNC_MASTER, s -> { });
        int expected = Workload.run(cluster, 3_000);
        awaitTopicCount(master.store(), expected);

        Broker slave = cluster.startSlave(dir.resolve("slave"), 1, master.haAddress(), s -> { });
        awaitCaughtUp(master, slave);
        awaitTopicCount(slave.store(), expected);

        slave.shutdown();
        int more = Workload.run(cluster, 3_000); // the slave is behind by a whole second workload
        awaitTopicCount(master.store(), expected + more);
        Broker restarted = cluster.startSlave(dir.resolve("slave"), 1, master.haAddress(), s -> { });
        awaitCaughtUp(master, restarted);
        awaitTopicCount(restarted.store(), expected + more);
        assertSameCommitLog(dir.resolve("master"), dir.resolve("slave"));
    }

    @Test
    void slavesFollowAMasterThatRestarts() throws Exception {
        Path masterStore = dir.resolve("master");
        Broker master = cluster.startMaster(masterStore, BrokerRole.ASYNC_MASTER, s -> { });
        int haPort = master.ha().haPort();
        Broker slave = cluster.startSlave(dir.resolve("slave"), 1, master.haAddress(), s -> { });
        int expected = Workload.run(cluster, 2_000);
        awaitCaughtUp(master, slave);

        master.shutdown();
        await().atMost(Duration.ofSeconds(10)).until(() -> !slave.ha().slaveStatus().connected());
        Broker again = cluster.startMaster(masterStore, BrokerRole.ASYNC_MASTER, s -> s.ha().setHaListenPort(haPort));
        int more = Workload.run(cluster, 2_000);
        awaitTopicCount(again.store(), expected + more);
        awaitCaughtUp(again, slave);
        awaitTopicCount(slave.store(), expected + more);
        assertSameCommitLog(masterStore, dir.resolve("slave"));
    }

    static void awaitCaughtUp(Broker master, Broker slave) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() ->
                slave.store().getMaxPhyOffset() == master.store().getMaxPhyOffset()
                        && slave.store().dispatchBehindBytes() == 0);
    }

    static void awaitTopicCount(MessageStore store, long expected) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> topicCount(store, Workload.TOPIC) == expected);
    }

    static long topicCount(MessageStore store, String topic) {
        long sum = 0;
        for (int q = 0; q < 4; q++) {
            sum += store.getMaxOffsetInQueue(topic, q);
        }
        return sum;
    }

    static void assertSameCommitLog(Path masterStore, Path slaveStore) throws IOException {
        List<Path> masterFiles = files(masterStore.resolve("commitlog"));
        List<Path> slaveFiles = files(slaveStore.resolve("commitlog"));
        assertThat(slaveFiles.stream().map(p -> p.getFileName().toString()).toList())
                .isEqualTo(masterFiles.stream().map(p -> p.getFileName().toString()).toList());
        for (int i = 0; i < masterFiles.size(); i++) {
            assertThat(Files.mismatch(masterFiles.get(i), slaveFiles.get(i)))
                    .as("first differing byte of %s", masterFiles.get(i).getFileName()).isEqualTo(-1L);
        }
    }

    private static List<Path> files(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.sorted().toList();
        }
    }
}

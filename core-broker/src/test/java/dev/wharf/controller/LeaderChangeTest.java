package dev.wharf.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.controller.client.ControllerClient;
import dev.wharf.controller.client.ControllerClientConfig;
import dev.wharf.controller.client.ReplicaStatus;
import dev.wharf.controller.state.GroupRecord;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change of controller leader deposes no healthy master. Liveness lives in the leader's memory only, so a new
 * leader has heard from nobody; it presumes every registered replica alive for one heartbeat timeout from its
 * leadership, and a master that heartbeats to it meanwhile keeps its role, its epoch and its lease.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(90)
class LeaderChangeTest {

    /** The controllers' heartbeat timeout: how long a new leader presumes replicas alive. */
    private static final long PRESUMED_MILLIS = 4_000;

    @TempDir
    static Path dir;

    private ControllerNodes nodes;
    private String stopped;

    @BeforeAll
    void startCluster() throws Exception {
        nodes = new ControllerNodes(dir, 3, PRESUMED_MILLIS).startAll();
    }

    @AfterEach
    void restartStopped() {
        if (stopped != null) {
            nodes.start(stopped);
            stopped = null;
        }
    }

    @AfterAll
    void stopCluster() {
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    void aHeartbeatingMasterKeepsItsRoleEpochAndLeaseAcrossALeaderChange() throws Exception {
        Controller leader = nodes.awaitLeader();
        List<Integer> epochsSeen = new CopyOnWriteArrayList<>();
        ControllerClientConfig config = new ControllerClientConfig();
        config.setControllerAddr(nodes.addresses());
        config.setBrokerHeartbeatInterval(200);
        config.setControllerHeartBeatTimeoutMills(ControllerNodes.HEARTBEAT_TIMEOUT);
        config.setControllerRequestTimeoutMillis(15_000); // a loaded machine may take seconds to commit a registration
        try (ControllerClient master = new ControllerClient(config, "C", "change-a", "127.0.0.1:27001", 0,
                ReplicaStatus.EMPTY, (name, masterId, address, epoch, set) -> epochsSeen.add(epoch));
             RawBroker slave = new RawBroker(nodes.addresses(), "change-a", "127.0.0.1:27002")) {
            master.start();
            await().atMost(Duration.ofSeconds(20)).until(master::isMaster);
            registered(slave);
            slave.beat();
            master.alterSyncStateSet(Set.of(master.brokerId(), slave.brokerId));
            GroupRecord before = group(leader, "change-a");
            assertThat(before.syncStateSet()).hasSize(2);

            long stoppedAt = System.nanoTime();
            stop(leader);
            Controller newLeader = nodes.awaitLeader();
            // the master's heartbeats reach the new leader: its lease is renewed there
            await().atMost(Duration.ofSeconds(20)).until(() -> master.lastAcceptedHeartbeatNanos() > stoppedAt);
            // and past the end of the new leader's presumption nobody is elected
            await().during(Duration.ofMillis(PRESUMED_MILLIS + 1_000))
                    .atMost(Duration.ofMillis(PRESUMED_MILLIS + 20_000))
                    .until(() -> {
                        GroupRecord g = group(newLeader, "change-a");
                        return g.masterBrokerId() == master.brokerId() && g.masterEpoch() == before.masterEpoch()
                                && g.syncStateSet().equals(before.syncStateSet());
                    });
            assertThat(master.isMaster()).isTrue();
            assertThat(master.masterEpoch()).isEqualTo(before.masterEpoch());
            assertThat(epochsSeen).containsExactly(before.masterEpoch());
        }
    }

    @Test
    void aNewLeaderPresumesAMasterItHasNotHeardFromAliveForOneHeartbeatTimeout() throws Exception {
        Controller leader = nodes.awaitLeader();
        try (RawBroker a = new RawBroker(nodes.addresses(), "change-b", "127.0.0.1:27011");
             RawBroker b = new RawBroker(nodes.addresses(), "change-b", "127.0.0.1:27012")) {
            registered(a);
            a.beat();
            AtomicReference<BrokerGroupInfo> elected = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> elected.set(a.becomeMaster()));
            BrokerGroupInfo g = elected.get();
            registered(b);
            b.beat();
            RawBroker.expect(a.alter(g.masterEpoch(), g.syncStateSetEpoch(), List.of(a.brokerId, b.brokerId)),
                    ResponseCode.SUCCESS);
            // the master goes quiet (paused, or slow to find the new leader); the slave too, for now
            a.silence();
            b.silence();

            stop(leader);
            Controller newLeader = nodes.awaitLeader();
            // the slave finds the new leader first and asks for the master's place: the master is presumed alive
            RawBroker.expect(b.heartbeat(), ResponseCode.SUCCESS);
            // asked the moment it took over, a new leader may answer "not ready to judge, retry": ask again
            AtomicReference<RemotingCommand> answer = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
                answer.set(b.electSelf());
                return answer.get().code() != ResponseCode.CONTROLLER_ELECT_MASTER_FAILED
                        || answer.get().remark() == null || !answer.get().remark().contains("not ready");
            });
            RemotingCommand refused = answer.get();
            assertThat(refused.code()).as(refused.remark()).isEqualTo(ResponseCode.CONTROLLER_MASTER_STILL_EXIST);
            assertThat(RawBroker.group(refused).masterAlive()).isTrue();
            assertThat(group(newLeader, "change-b").masterEpoch()).isEqualTo(g.masterEpoch());

            // a master that never turns up is replaced once the presumption ends, by the in-sync slave
            b.beat();
            await().atMost(Duration.ofMillis(PRESUMED_MILLIS + 20_000))
                    .until(() -> group(newLeader, "change-b").masterBrokerId() == b.brokerId);
            assertThat(group(newLeader, "change-b").masterEpoch()).isEqualTo(g.masterEpoch() + 1);
        }
    }

    /** Registers, again while a loaded machine keeps the change from committing within the controllers' timeout. */
    private static void registered(RawBroker broker) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(broker::register);
    }

    private void stop(Controller leader) {
        stopped = leader.selfId();
        nodes.stop(stopped);
    }

    private static GroupRecord group(Controller node, String brokerName) {
        return node.localGroups().stream().filter(r -> r.brokerName().equals(brokerName)).findFirst().orElseThrow();
    }
}

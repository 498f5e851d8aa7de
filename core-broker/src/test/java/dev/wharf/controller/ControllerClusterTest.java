package dev.wharf.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.controller.client.ControllerClient;
import dev.wharf.controller.client.ControllerClientConfig;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.controller.client.ReplicaStatus;
import dev.wharf.controller.state.GroupRecord;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.protocol.body.ControllerData.ControllerMetadata;
import dev.wharf.protocol.header.ControllerHeaders.NotLeaderHeader;
import dev.wharf.protocol.header.ControllerHeaders.ReplicaInfoRequest;
import dev.wharf.remoting.NettyClientConfig;
import dev.wharf.remoting.NettyRemotingClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A three-node controller cluster in this JVM: leader election, registration, heartbeats, master election, failover
 * from the sync-state set only, fencing of stale changes, redirects from followers, and a node that restarts and
 * catches up. Each test uses its own broker name on one shared cluster.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class ControllerClusterTest {

    @TempDir
    static Path dir;

    private ControllerNodes nodes;
    private NettyRemotingClient raw;

    @BeforeAll
    void startCluster() throws Exception {
        nodes = new ControllerNodes(dir, 3).startAll();
        raw = new NettyRemotingClient(new NettyClientConfig());
        raw.start();
    }

    @AfterAll
    void stopCluster() {
        if (raw != null) {
            raw.shutdown();
        }
        if (nodes != null) {
            nodes.close();
        }
    }

    @Test
    void oneLeaderAndFollowersPointToIt() throws Exception {
        Controller leader = nodes.awaitLeader();
        Controller follower = nodes.aFollower();
        // the leader publishes its address through the log; then a follower's refusal names it
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            RemotingCommand r = raw.invokeSync(follower.address(),
                    RemotingCommand.createRequest(RequestCode.CONTROLLER_GET_REPLICA_INFO)
                            .writeHeader(new ReplicaInfoRequest(null)), 3_000);
            assertThat(r.code()).isEqualTo(ResponseCode.CONTROLLER_NOT_LEADER);
            NotLeaderHeader h = r.readHeader(NotLeaderHeader.class);
            assertThat(h.leaderId()).isEqualTo(leader.selfId());
            assertThat(h.leaderAddress()).isEqualTo(leader.address());
            assertThat(r.remark()).contains("the leader is " + leader.selfId() + " at " + leader.address());
        });
        try (ControllerAdmin admin = new ControllerAdmin(follower.address() + ";" + leader.address(), 5_000)) {
            for (Controller c : nodes.running()) {
                ControllerMetadata m = admin.metadata(c.address());
                assertThat(m.leaderId()).isEqualTo(leader.selfId());
                assertThat(m.selfId()).isEqualTo(c.selfId());
                assertThat(m.members()).hasSize(3);
            }
            // asked through a follower first, the admin still reaches the leader
            assertThat(admin.brokerGroups(null)).isNotNull();
        }
    }

    @Test
    void aSilentMasterIsReplacedOnlyByAnInSyncReplicaWithAHigherEpoch() throws Exception {
        nodes.awaitLeader();
        String addrs = nodes.addresses();
        List<Object[]> told = new CopyOnWriteArrayList<>();
        try (RawBroker a = new RawBroker(addrs, "fail-a", "127.0.0.1:20001")) {
            a.register();
            a.beat();
            BrokerGroupInfo first = a.becomeMaster();
            assertThat(first.masterBrokerId()).isEqualTo(a.brokerId);
            assertThat(first.masterEpoch()).isEqualTo(1);
            assertThat(first.syncStateSet()).containsExactly(a.brokerId);

            ControllerClient b = client(addrs, "fail-a", "127.0.0.1:20002",
                    (name, master, address, epoch, set) -> told.add(new Object[] {master, address, epoch, set}));
            try {
                assertThat(b.brokerId()).isNotEqualTo(a.brokerId);
                await().atMost(Duration.ofSeconds(5)).until(() -> !told.isEmpty());
                assertThat(told.get(0)).containsExactly(a.brokerId, "127.0.0.1:20001", 1, Set.of(a.brokerId));
                assertThat(b.isMaster()).isFalse();

                // the master takes b into the set; a second proposal on the old set epoch is fenced
                RemotingCommand ok = a.alter(1, first.syncStateSetEpoch(), List.of(a.brokerId, b.brokerId()));
                RawBroker.expect(ok, ResponseCode.SUCCESS);
                RemotingCommand stale = a.alter(1, first.syncStateSetEpoch(), List.of(a.brokerId));
                RawBroker.expect(stale, ResponseCode.CONTROLLER_FENCED_SYNC_STATE_SET_EPOCH);
                assertThat(stale.remark()).contains("stale");
                RemotingCommand staleMaster = a.alter(0, first.syncStateSetEpoch() + 1, List.of(a.brokerId));
                RawBroker.expect(staleMaster, ResponseCode.CONTROLLER_FENCED_MASTER_EPOCH);

                // the master goes silent with its connection open: only its lapsed heartbeats tell
                long silentAt = System.currentTimeMillis();
                a.silence();
                await().atMost(Duration.ofSeconds(10)).until(() -> b.isMaster());
                long failover = System.currentTimeMillis() - silentAt;
                System.out.printf("silent master replaced %d ms after its last heartbeat (timeout %d ms)%n", failover,
                        ControllerNodes.HEARTBEAT_TIMEOUT);
                assertThat(failover).as("failover after %d ms", failover)
                        .isBetween(ControllerNodes.HEARTBEAT_TIMEOUT - 500, ControllerNodes.HEARTBEAT_TIMEOUT + 4_000);
                BrokerGroupInfo after = b.replicaInfo();
                assertThat(after.masterBrokerId()).isEqualTo(b.brokerId());
                assertThat(after.masterEpoch()).isEqualTo(2);
                assertThat(after.syncStateSet()).containsExactly(b.brokerId());
                assertThat(after.syncStateSetEpoch()).isEqualTo(first.syncStateSetEpoch() + 2);
                await().atMost(Duration.ofSeconds(5)).until(() -> told.size() == 2);
                assertThat(told.get(1)).containsExactly(b.brokerId(), "127.0.0.1:20002", 2, Set.of(b.brokerId()));

                // the old master comes back: it stays a replica, the new master keeps its epoch
                a.beat();
                RawBroker.expect(a.electSelf(), ResponseCode.CONTROLLER_MASTER_STILL_EXIST);
                assertThat(b.replicaInfo().masterEpoch()).isEqualTo(2);
                // once caught up, the new master takes it back into the set through its client
                var grown = b.alterSyncStateSet(Set.of(b.brokerId(), a.brokerId));
                assertThat(grown.members()).containsExactlyInAnyOrder(a.brokerId, b.brokerId());
                assertThat(b.syncStateSetEpoch()).isEqualTo(grown.epoch());
                assertThat(b.syncStateSet()).containsExactlyInAnyOrder(a.brokerId, b.brokerId());
            } finally {
                b.shutdown();
            }
        }
    }

    @Test
    void withNoReplicaInSyncTheMasterIsClearedAndNoUncleanElectionHappens() throws Exception {
        nodes.awaitLeader();
        String addrs = nodes.addresses();
        try (RawBroker a = new RawBroker(addrs, "unclean-a", "127.0.0.1:21001");
             RawBroker b = new RawBroker(addrs, "unclean-a", "127.0.0.1:21002");
             ControllerAdmin admin = new ControllerAdmin(addrs, 5_000)) {
            a.register();
            a.beat();
            a.becomeMaster();
            b.register();
            b.maxOffset = 1_000_000; // even ahead of everyone, it is not in sync
            b.beat();

            // an admin cannot make an out-of-sync replica master
            assertThatThrownBy(() -> admin.electMaster("unclean-a", b.brokerId))
                    .isInstanceOfSatisfying(ControllerException.class, e -> {
                        assertThat(e.code()).isEqualTo(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED);
                        assertThat(e.getMessage()).contains("is not in the sync-state set [" + a.brokerId + "]")
                                .contains("enableElectUncleanMaster");
                    });
            assertThatThrownBy(() -> admin.electMaster("unclean-a", 99))
                    .hasMessageContaining("not a registered replica");

            a.silence();
            await().atMost(Duration.ofSeconds(10)).until(() -> !admin.brokerGroups("unclean-a").get(0).hasMaster());
            BrokerGroupInfo g = admin.brokerGroups("unclean-a").get(0);
            assertThat(g.masterEpoch()).isEqualTo(2);
            assertThat(g.syncStateSet()).as("the set is kept for the member's return").containsExactly(a.brokerId);
            RemotingCommand selfElect = b.electSelf();
            RawBroker.expect(selfElect, ResponseCode.CONTROLLER_ELECT_MASTER_FAILED);

            // the in-sync member comes back and is elected again, with a new epoch
            a.beat();
            await().atMost(Duration.ofSeconds(10)).until(() -> admin.brokerGroups("unclean-a").get(0).hasMaster());
            g = admin.brokerGroups("unclean-a").get(0);
            assertThat(g.masterBrokerId()).isEqualTo(a.brokerId);
            assertThat(g.masterEpoch()).isEqualTo(3);
        }
    }

    @Test
    void anAdminMovesTheMasterToAnInSyncReplica() throws Exception {
        nodes.awaitLeader();
        String addrs = nodes.addresses();
        try (RawBroker a = new RawBroker(addrs, "move-a", "127.0.0.1:22001");
             RawBroker b = new RawBroker(addrs, "move-a", "127.0.0.1:22002");
             ControllerAdmin admin = new ControllerAdmin(addrs, 5_000)) {
            a.register();
            a.beat();
            BrokerGroupInfo g = a.becomeMaster();
            b.register();
            b.beat();
            RawBroker.expect(a.alter(g.masterEpoch(), g.syncStateSetEpoch(), List.of(a.brokerId, b.brokerId)),
                    ResponseCode.SUCCESS);
            BrokerGroupInfo moved = admin.electMaster("move-a", b.brokerId);
            assertThat(moved.masterBrokerId()).isEqualTo(b.brokerId);
            assertThat(moved.masterEpoch()).isEqualTo(g.masterEpoch() + 1);
            assertThat(moved.syncStateSet()).containsExactly(b.brokerId);
            // the old master's proposals are fenced now
            RawBroker.expect(a.alter(g.masterEpoch(), moved.syncStateSetEpoch(), List.of(a.brokerId)),
                    ResponseCode.CONTROLLER_INVALID_MASTER);
        }
    }

    @Test
    void registrationIsIdempotentAndValidated() throws Exception {
        nodes.awaitLeader();
        String addrs = nodes.addresses();
        try (RawBroker a = new RawBroker(addrs, "reg-a", "127.0.0.1:23001")) {
            long id = a.register().brokerId();
            a.brokerId = 0; // a retry of the same registration (same check code) gets the same id
            assertThat(a.register().brokerId()).isEqualTo(id);
            RemotingCommand unknown = a.heartbeat();
            a.brokerId = 77;
            RemotingCommand notRegistered = a.heartbeat();
            RawBroker.expect(notRegistered, ResponseCode.CONTROLLER_BROKER_NEED_TO_BE_REGISTERED);
            assertThat(notRegistered.remark()).contains("register first");
            RawBroker.expect(unknown, ResponseCode.SUCCESS);
        }
        try (RawBroker other = new RawBroker(addrs, "reg-a", "127.0.0.1:23002")) {
            RemotingCommand wrongCluster = raw.invokeSync(nodes.awaitLeader().address(),
                    RemotingCommand.createRequest(RequestCode.CONTROLLER_REGISTER_BROKER).writeHeader(
                            new dev.wharf.protocol.header.ControllerHeaders.RegisterRequest("OTHER", "reg-a",
                                    other.address, 0, "x")), 5_000);
            RawBroker.expect(wrongCluster, ResponseCode.CONTROLLER_INVALID_REQUEST);
            assertThat(wrongCluster.remark()).contains("belongs to cluster C");
        }
    }

    @Test
    void aRestartedNodeCatchesUpFromSnapshotAndLog() throws Exception {
        Controller leader = nodes.awaitLeader();
        Controller follower = nodes.aFollower();
        String followerId = follower.selfId();
        nodes.stop(followerId);
        String addrs = nodes.addresses();
        // enough changes for several snapshots (threshold 20) while the node is down: the log it missed is purged
        for (int i = 0; i < 50; i++) {
            try (RawBroker r = new RawBroker(addrs, "catch-up", "127.0.0.1:" + (24000 + i))) {
                r.register();
            }
        }
        Controller restarted = nodes.start(followerId);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(restarted.localGroups())
                .isEqualTo(nodes.awaitLeader().localGroups()));
        GroupRecord g = restarted.localGroups().stream().filter(x -> x.brokerName().equals("catch-up"))
                .findFirst().orElseThrow();
        assertThat(g.replicas()).hasSize(50);
        try (Stream<Path> files = Files.walk(dir.resolve(followerId))) {
            assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("snapshot."));
        }
        assertThat(leader).isNotNull();
    }

    private static ControllerClient client(String addrs, String name, String address,
                                           dev.wharf.controller.client.RoleChangeListener listener) throws Exception {
        ControllerClientConfig c = new ControllerClientConfig();
        c.setControllerAddr(addrs);
        c.setBrokerHeartbeatInterval(200);
        c.setControllerHeartBeatTimeoutMills(ControllerNodes.HEARTBEAT_TIMEOUT);
        c.setSyncBrokerMetadataPeriod(1_000);
        c.setControllerRequestTimeoutMillis(10_000);
        ControllerClient client = new ControllerClient(c, "C", name, address, 0, ReplicaStatus.EMPTY, listener);
        client.start();
        return client;
    }
}

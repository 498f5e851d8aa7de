package dev.wharf.controller.elect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.controller.state.GroupRecord;
import dev.wharf.controller.state.Replica;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.ControllerHeaders;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ElectPolicyTest {

    private static final long NONE = ControllerHeaders.NO_BROKER;
    private final Map<Long, LiveBroker> alive = new HashMap<>();

    private static GroupRecord group(long master, int epoch, List<Long> set, long... replicas) {
        TreeMap<Long, Replica> r = new TreeMap<>();
        for (long id : replicas) {
            r.put(id, new Replica(id, "127.0.0.1:" + (10_000 + id), "c" + id));
        }
        return new GroupRecord("C", "b", master, epoch, set, 1, r, replicas.length + 1);
    }

    private void alive(long id, int epoch, long maxOffset, int priority) {
        alive.put(id, new LiveBroker("C", "b", id, "a", 0, 1000, epoch, maxOffset, 0, priority, null));
    }

    private ElectDecision decide(boolean unclean, GroupRecord g, long designated, long requester) {
        return new ElectPolicy(unclean).decide(g, alive::get, designated, requester);
    }

    @Test
    void anAliveMasterIsKept() {
        alive(1, 1, 100, 0);
        alive(2, 1, 200, 0);
        ElectDecision d = decide(false, group(1, 1, List.of(1L, 2L), 1, 2), NONE, 2);
        assertThat(d.kind()).isEqualTo(ElectDecision.Kind.KEEP_MASTER);
        assertThat(d.brokerId()).isEqualTo(1);
    }

    @Test
    void onlyAliveSyncMembersQualifyOrderedByEpochThenOffsetThenPriority() {
        alive(2, 3, 100, 5);
        alive(3, 4, 50, 5);
        alive(4, 9, 999_999, 0); // not in the set: never chosen while a member is alive
        GroupRecord g = group(1, 4, List.of(1L, 2L, 3L), 1, 2, 3, 4);
        assertThat(decide(false, g, NONE, NONE).brokerId()).as("higher epoch wins").isEqualTo(3);
        alive(3, 3, 50, 5);
        assertThat(decide(false, g, NONE, NONE).brokerId()).as("then higher offset").isEqualTo(2);
        alive(3, 3, 100, 1);
        assertThat(decide(false, g, NONE, NONE).brokerId()).as("then lower priority").isEqualTo(3);
        alive(3, 3, 100, 5);
        assertThat(decide(false, g, NONE, NONE).brokerId()).as("then lower id").isEqualTo(2);
        // offsets past 2 GiB still compare right
        alive(2, 3, 1L << 33, 5);
        alive(3, 3, 1, 5);
        assertThat(decide(false, g, NONE, NONE).brokerId()).isEqualTo(2);
    }

    @Test
    void noAliveMemberMeansNoCandidateUnlessUncleanIsEnabled() {
        alive(2, 9, 1_000, 0);
        GroupRecord g = group(1, 2, List.of(1L), 1, 2);
        ElectDecision clean = decide(false, g, NONE, 2);
        assertThat(clean.kind()).isEqualTo(ElectDecision.Kind.NO_CANDIDATE);
        assertThat(clean.reason()).contains("enableElectUncleanMaster=false");
        ElectDecision unclean = decide(true, g, NONE, NONE);
        assertThat(unclean.kind()).isEqualTo(ElectDecision.Kind.NEW_MASTER);
        assertThat(unclean.brokerId()).isEqualTo(2);
        assertThat(unclean.reason()).startsWith("UNCLEAN");
    }

    @Test
    void aDesignatedBrokerMustBeAliveAndInSync() {
        alive(1, 1, 10, 0);
        alive(2, 1, 10, 0);
        alive(3, 1, 10, 0);
        GroupRecord g = group(1, 1, List.of(1L, 2L), 1, 2, 3);
        assertThat(decide(false, g, 2, NONE).kind()).isEqualTo(ElectDecision.Kind.NEW_MASTER);
        ElectDecision outOfSync = decide(false, g, 3, NONE);
        assertThat(outOfSync.kind()).isEqualTo(ElectDecision.Kind.REFUSED);
        assertThat(outOfSync.refusalCode()).isEqualTo(ResponseCode.CONTROLLER_ELECT_MASTER_FAILED);
        assertThat(outOfSync.reason()).contains("not in the sync-state set [1, 2]");
        alive.remove(2L);
        assertThat(decide(false, g, 2, NONE).refusalCode()).isEqualTo(ResponseCode.CONTROLLER_BROKER_NOT_ALIVE);
        assertThat(decide(false, g, 7, NONE).refusalCode()).isEqualTo(ResponseCode.CONTROLLER_INVALID_REQUEST);
        assertThat(decide(false, g, 1, NONE).kind()).isEqualTo(ElectDecision.Kind.KEEP_MASTER);
    }

    @Test
    void theFirstElectionTakesTheAskingReplicaOrAnyAliveOne() {
        alive(2, 0, 0, 0);
        alive(1, 0, 0, 0);
        GroupRecord fresh = group(NONE, 0, List.of(), 1, 2);
        assertThat(decide(false, fresh, NONE, 2).brokerId()).isEqualTo(2);
        assertThat(decide(false, fresh, NONE, NONE).brokerId()).isEqualTo(1);
        alive.clear();
        assertThat(decide(false, fresh, NONE, 2).kind()).isEqualTo(ElectDecision.Kind.NO_CANDIDATE);
    }
}

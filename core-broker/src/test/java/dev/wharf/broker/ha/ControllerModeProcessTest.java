package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.broker.ha.ControllerModeCluster.Replica;
import dev.wharf.broker.ha.FailoverRun.Fault;
import dev.wharf.broker.ha.FailoverRun.Outcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Controller mode with real broker processes: three Raft controllers and a NameServer in this JVM, one broker name
 * with three replica processes (SYNC_MASTER when elected, minInSyncReplicas=2), producers that follow the routes.
 * The master is killed with SIGKILL, or paused with SIGSTOP, under load: a member of the sync-state set is elected,
 * the routes follow it, every send the producers saw acknowledged is consumable from the new master, and the old
 * master (restarted on its store, or resumed) comes back as a slave holding the new master's log: whatever it had
 * written without an acknowledgement is cut.
 */
@Timeout(150)
class ControllerModeProcessTest {

    private static final String TOPIC = "ctrl-failover";

    @TempDir
    Path dir;
    private ControllerModeCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = new ControllerModeCluster(dir);
        for (String name : List.of("a", "b", "c")) {
            cluster.start(cluster.replica(name));
        }
        cluster.awaitSyncStateSet(3, Duration.ofSeconds(60));
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void killedMasterIsReplacedAndLosesNoAcknowledgedSend() throws Exception {
        check(Fault.KILL);
    }

    @Test
    void pausedMasterIsReplacedAndComesBackAsASlave() throws Exception {
        check(Fault.PAUSE);
    }

    private void check(Fault fault) throws Exception {
        FailoverRun run = new FailoverRun(cluster, TOPIC);
        Outcome o = run.run(fault, 2, 500, 100);
        System.out.printf("Controller mode, %s of the master: sends succeeded again %d ms later (%d acknowledged,"
                + " %d failures reported to the producers)%n", fault, o.failoverMillis(), o.acked().size(),
                o.failures());
        Replica old = o.oldMaster();
        assertThat(o.after().masterAddress()).isNotEqualTo(old.address);
        assertThat(o.after().masterEpoch()).isGreaterThan(o.before().masterEpoch());
        assertThat(o.before().syncStateSet()).contains(o.after().masterBrokerId());

        Set<String> lost = new HashSet<>(o.acked());
        lost.removeAll(run.consumeAll());
        assertThat(lost).as("sends acknowledged but not consumable from the new master").isEmpty();
    }
}

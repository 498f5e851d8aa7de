package dev.wharf.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.chaos.check.Report;
import dev.wharf.chaos.nemesis.FaultEvent;
import dev.wharf.chaos.nemesis.FaultKind;
import dev.wharf.chaos.nemesis.Partitioner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short chaos run of the normal suite, in controller mode: a NameServer, three Raft controllers and two broker
 * names of three SYNC_MASTER replicas (minInSyncReplicas=2) as real processes, about a minute of faults (kill -9
 * and restart of masters, slaves and the controller leader, SIGSTOP/SIGCONT, and iptables partitions when running
 * as root), then the checker: nothing acknowledged may be lost, no epoch may have two masters, every group must
 * serve again at the end; the figures are printed.
 */
class ShortChaosRunTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(420)
    void aMinuteOfFaultsLosesNoAcknowledgedMessage() throws Exception {
        List<FaultKind> kinds = new ArrayList<>(List.of(FaultKind.KILL_MASTER, FaultKind.PAUSE_MASTER,
                FaultKind.KILL_CONTROLLER_LEADER, FaultKind.KILL_SLAVE));
        if (Partitioner.unavailableReason() == null) {
            kinds.add(FaultKind.PARTITION_MASTER_KEEP_CLIENTS);
            kinds.add(FaultKind.PARTITION_MASTER);
        }
        RunOptions options = new RunOptions(dir, true, 1, 2, 3, 3, kinds, 60, 3_000, 5_000, 3, 10, 90, 4, 200,
                3_000, 4, 128, 11L, 30_000, Map.of(), Map.of());
        Report report = new ChaosRun(options, ProcessHandle.current().info().command().orElse("java"),
                System.getProperty("java.class.path")).run();
        report.print(System.out);

        List<FaultEvent> injected = report.observations().faults().stream()
                .filter(f -> !f.note().startsWith("skipped")).toList();
        assertThat(injected).as("faults injected").hasSizeGreaterThanOrEqualTo(4);
        assertThat(injected).allSatisfy(f -> assertThat(f.note()).as("repair of %s", f).isEmpty());
        assertThat(report.acked()).isGreaterThan(1_000);
        assertThat(report.lostCount()).as("acknowledged but never delivered: %s", report.lost()).isZero();
        assertThat(report.phantoms()).isZero();
        assertThat(report.unrecovered()).isEmpty();
        assertThat(report.hardFailures()).isEmpty();
        assertThat(report.observations().epochConflicts()).isEmpty();
        // a killed, paused or partitioned master makes its group refuse sends (or, when the client rides through,
        // answer late) until another one is elected
        assertThat(report.failoverAll().count() + report.slowAcks()).as("failures or slow acknowledgements")
                .isPositive();
        assertThat(report.observations().epochsSeen().values().stream().mapToInt(Integer::intValue).sum())
                .as("master epochs seen: every election is a new epoch").isGreaterThan(2);
    }
}

package dev.wharf.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.chaos.check.Checker;
import dev.wharf.chaos.check.Observations;
import dev.wharf.chaos.check.Report;
import dev.wharf.chaos.nemesis.FaultEvent;
import dev.wharf.chaos.nemesis.FaultKind;
import dev.wharf.chaos.workload.Ledger;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checker on hand-written ledgers: every anomaly it looks for, counted exactly. */
class CheckerTest {

    @TempDir
    Path dir;

    private static Observations calm(boolean controllerMode) {
        return new Observations(controllerMode, List.of(), List.of(), 0, null, Map.of(), 10, 0);
    }

    @Test
    void aCleanLedgerPasses() throws Exception {
        try (Ledger l = new Ledger(dir)) {
            l.acked("0-0", "broker-a", 0, 0, 1_000, 1_010);
            l.acked("0-1", "broker-a", 0, 1, 1_020, 2_500); // rode through a failover: slow, no error
            l.delivered("0-0", "broker-a", 0, 0, 1_050);
            l.delivered("0-1", "broker-a", 0, 1, 2_560);
        }
        Report r = Checker.check(dir, calm(false));
        assertThat(r.passed()).isTrue();
        assertThat(r.acked()).isEqualTo(2);
        assertThat(r.lostCount()).isZero();
        assertThat(r.duplicates()).isZero();
        assertThat(r.orderViolations()).isZero();
        assertThat(r.failoverAll().count()).isZero();
        assertThat(r.ackLatency().max()).isEqualTo(1_480);
        assertThat(r.slowAcks()).isEqualTo(1);
    }

    @Test
    void everyAnomalyIsCounted() throws Exception {
        try (Ledger l = new Ledger(dir)) {
            // producer 0 to broker-a/0: seq 0..3; seq 2 acknowledged but never delivered
            l.acked("0-0", "broker-a", 0, 0, 1_000, 1_010);
            l.acked("0-1", "broker-a", 0, 1, 1_020, 1_030);
            l.acked("0-2", "broker-a", 0, 2, 1_040, 1_050);
            l.acked("0-3", "broker-a", 0, 3, 1_060, 1_070);
            // broker-b fails from 2000 to the ack at 5500, then fails again and never recovers
            l.failed("1-0", "broker-b", 1, 2_000, 5_000, "RemotingTimeoutException");
            l.failed("1-1", "broker-b", 1, 3_000, 4_000, "SLAVE_NOT_AVAILABLE");
            l.acked("1-2", "broker-b", 1, 7, 5_400, 5_500);
            l.failed("1-3", "broker-b", 1, 6_000, 9_000, "RemotingConnectException");
            // delivered out of order (3 before 1), a duplicate of 0, a failed send that was stored, a phantom,
            // and offset 7 of broker-b/1 delivered with two ids
            l.delivered("0-0", "broker-a", 0, 0, 2_000);
            l.delivered("0-3", "broker-a", 0, 3, 2_001);
            l.delivered("0-1", "broker-a", 0, 1, 2_002);
            l.delivered("0-0", "broker-a", 0, 0, 2_003);
            l.delivered("1-0", "broker-b", 1, 6, 6_000);
            l.delivered("1-2", "broker-b", 1, 7, 6_001);
            l.delivered("9-9", "broker-b", 1, 7, 6_002);
        }
        Report r = Checker.check(dir, calm(true));
        assertThat(r.attempts()).isEqualTo(8);
        assertThat(r.acked()).isEqualTo(5);
        assertThat(r.lostCount()).isEqualTo(1);
        assertThat(r.lost()).containsExactly("0-2@broker-a/0:2");
        assertThat(r.duplicates()).isEqualTo(1);
        assertThat(r.phantoms()).isEqualTo(1);
        assertThat(r.recoveredUnacked()).isEqualTo(1);
        assertThat(r.orderViolations()).isEqualTo(1);
        assertThat(r.offsetConflicts()).isEqualTo(1);
        assertThat(r.failover().get("broker-b").count()).isEqualTo(1);
        assertThat(r.failover().get("broker-b").max()).isEqualTo(3_500);
        assertThat(r.unrecovered()).containsExactly("broker-b since 6000");
        assertThat(r.failoverByFault()).containsOnlyKeys("no fault");
        assertThat(r.hardFailures()).hasSize(3).anySatisfy(f -> assertThat(f).contains("never delivered"))
                .anySatisfy(f -> assertThat(f).contains("no producer sent"))
                .anySatisfy(f -> assertThat(f).contains("still failing"));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        r.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("VERDICT: FAIL")
                .containsPattern("acknowledged, never delivered +\\| 1 ");
    }

    @Test
    void aWindowIsChargedToTheLatestFaultBegunBeforeIt() throws Exception {
        try (Ledger l = new Ledger(dir)) {
            l.failed("0-0", "broker-a", 0, 10_000, 13_000, "NO_ANSWER");
            l.acked("0-1", "broker-a", 0, 0, 14_000, 14_500);
            l.failed("0-2", "broker-a", 0, 100_000, 100_010, "SERVICE_NOT_AVAILABLE");
            l.acked("0-3", "broker-a", 0, 1, 100_100, 100_200);
            l.delivered("0-1", "broker-a", 0, 0, 15_000);
            l.delivered("0-3", "broker-a", 0, 1, 101_000);
        }
        Observations faults = new Observations(true, List.of(
                new FaultEvent(FaultKind.PAUSE_SLAVE, "broker-a-2", 1_000, 7_000, ""),
                new FaultEvent(FaultKind.PAUSE_MASTER, "broker-a-0", 10_500, 16_000, "")),
                List.of(), 0, null, Map.of(), 10, 0);
        Report r = Checker.check(dir, faults);
        assertThat(r.failoverByFault()).containsOnlyKeys("pause-master", "no fault");
        assertThat(r.failoverByFault().get("pause-master").max()).isEqualTo(4_500);
        assertThat(r.failoverByFault().get("no fault").max()).isEqualTo(200);
    }

    @Test
    void twoMastersInOneEpochIsAHardFailure() throws Exception {
        try (Ledger l = new Ledger(dir)) {
            l.acked("0-0", "broker-a", 0, 0, 1_000, 1_010);
            l.delivered("0-0", "broker-a", 0, 0, 1_050);
        }
        Observations split = new Observations(true, List.of(), List.of("broker-a epoch 3: masters [1, 2]"), 2,
                "broker-a: [broker-a-1, broker-a-2]", Map.of("broker-a", 3), 10, 0);
        assertThat(Checker.check(dir, split).hardFailures()).singleElement().asString()
                .contains("two masters in one epoch");
        // without a controller the brokers' own claims decide
        Observations classic = new Observations(false, List.of(), List.of(), 1, "broker-a: [broker-a-0, broker-a-1]",
                Map.of(), 10, 0);
        assertThat(Checker.check(dir, classic).hardFailures()).singleElement().asString()
                .contains("acted as master at once");
    }
}

package dev.wharf.chaos.check;

import dev.wharf.chaos.nemesis.FaultEvent;
import dev.wharf.chaos.nemesis.FaultKind;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checker's findings and the verdict. Hard failures (exit code 1): an acknowledged message never delivered, a
 * delivered message nobody sent, two masters of one broker name in one epoch (and, without a controller, two
 * brokers of one name acting as master at once), a group that still refused sends when the run ended, or a run in
 * which no send was acknowledged at all.
 */
public record Report(long attempts, long acked, long failed, long deliveredDistinct, long deliveries,
                     List<String> lost, long lostCount, long phantoms, long duplicates, long recoveredUnacked,
                     long orderViolations, long offsetConflicts, long offsetMoved, Map<String, Durations> failover,
                     Durations failoverAll, Map<String, Durations> failoverByFault, List<String> unrecovered, Map<String, Long> failureReasons,
                     Durations ackLatency, long slowAcks, Observations observations) {

    /** The reasons the run failed; empty when it passed. */
    public List<String> hardFailures() {
        List<String> out = new ArrayList<>();
        if (lostCount > 0) {
            out.add(lostCount + " acknowledged messages never delivered, e.g. " + lost);
        }
        if (phantoms > 0) {
            out.add(phantoms + " delivered messages that no producer sent");
        }
        if (!observations.epochConflicts().isEmpty()) {
            out.add("two masters in one epoch: " + observations.epochConflicts());
        }
        if (!observations.controllerMode() && observations.overlapRounds() > 0) {
            out.add("two brokers of one name acted as master at once (" + observations.overlapRounds()
                    + " sampling rounds, first " + observations.firstOverlap() + ")");
        }
        if (!unrecovered.isEmpty()) {
            out.add("sends still failing when the run ended: " + unrecovered);
        }
        if (acked == 0) {
            out.add("no send was acknowledged: the cluster never worked");
        }
        return out;
    }

    public boolean passed() {
        return hardFailures().isEmpty();
    }

    /** The summary table and the verdict. */
    public void print(PrintStream out) {
        String mode = observations.controllerMode() ? "controller mode (automatic failover)"
                : "master/slave, fixed roles (failover = master restart)";
        out.println();
        out.println("Wharf chaos run: " + mode);
        Map<FaultKind, Integer> byKind = new TreeMap<>();
        for (FaultEvent f : observations.faults()) {
            if (f.note().startsWith("skipped")) {
                continue;
            }
            byKind.merge(f.kind(), 1, Integer::sum);
        }
        StringBuilder faults = new StringBuilder();
        byKind.forEach((k, v) -> faults.append(faults.length() == 0 ? "" : ", ").append(k.optionName()).append(" ")
                .append(v));
        int injected = byKind.values().stream().mapToInt(Integer::intValue).sum();
        row(out, "faults injected", injected + (injected == 0 ? "" : " (" + faults + ")"), "");
        row(out, "send attempts", String.valueOf(attempts), "");
        row(out, "acknowledged (SEND_OK)", String.valueOf(acked), acked == 0 ? "FAIL" : "");
        row(out, "acknowledged send time p50 / max (ms)", ackLatency.p50() + " / " + ackLatency.max() + " ("
                + slowAcks + " took 1 s or more)", "");
        row(out, "failed or unanswered", String.valueOf(failed), "");
        failureReasons.forEach((reason, n) -> row(out, "  " + reason, String.valueOf(n), ""));
        row(out, "delivered (distinct ids)", deliveredDistinct + " of " + deliveries + " deliveries", "");
        row(out, "acknowledged, never delivered", String.valueOf(lostCount), lostCount == 0 ? "ok" : "FAIL");
        row(out, "delivered, never sent", String.valueOf(phantoms), phantoms == 0 ? "ok" : "FAIL");
        row(out, "duplicates (extra deliveries)", String.valueOf(duplicates), "counted");
        row(out, "unacknowledged but delivered", String.valueOf(recoveredUnacked), "counted");
        row(out, "per-queue order violations", String.valueOf(orderViolations), orderViolations == 0 ? "ok" : "counted");
        row(out, "queue offsets reused", String.valueOf(offsetConflicts), offsetConflicts == 0 ? "ok" : "counted");
        row(out, "acked offset != delivered offset", String.valueOf(offsetMoved), offsetMoved == 0 ? "ok" : "counted");
        row(out, "offset resets (OFFSET_ILLEGAL)", String.valueOf(observations.offsetResets()), "counted");
        row(out, "masters per name and epoch", observations.epochConflicts().isEmpty() ? "<= 1"
                : observations.epochConflicts().toString(), observations.epochConflicts().isEmpty() ? "ok" : "FAIL");
        boolean overlapFails = !observations.controllerMode() && observations.overlapRounds() > 0;
        row(out, "rounds with 2 master claims", observations.overlapRounds() + " of " + observations.roleRounds(),
                overlapFails ? "FAIL" : observations.overlapRounds() == 0 ? "ok" : "counted");
        if (observations.controllerMode()) {
            row(out, "master epochs seen", observations.epochsSeen().toString(), "");
        }
        row(out, "unavailability windows", String.valueOf(failoverAll.count()), "");
        boolean targetMet = failoverAll.p50() <= 5_000 && failoverAll.max() <= 10_000;
        row(out, "failover p50 / max (ms)", failoverAll.p50() + " / " + failoverAll.max()
                + " (target 5000 / 10000)", observations.controllerMode() ? targetMet ? "met" : "missed" : "");
        failover.forEach((broker, d) -> row(out, "  " + broker + " p50 / max (ms)", d.p50() + " / " + d.max()
                + " (" + d.count() + " windows)", ""));
        failoverByFault.forEach((fault, d) -> row(out, "  during " + fault + " (ms)", d.p50() + " / " + d.max()
                + " (" + d.count() + " windows)", ""));
        row(out, "still failing at the end", unrecovered.isEmpty() ? "none" : unrecovered.toString(),
                unrecovered.isEmpty() ? "ok" : "FAIL");
        List<String> failures = hardFailures();
        out.println(failures.isEmpty() ? "VERDICT: PASS" : "VERDICT: FAIL");
        failures.forEach(f -> out.println("  - " + f));
    }

    private static void row(PrintStream out, String metric, String value, String verdict) {
        out.printf("| %-34s | %-52s | %-7s |%n", metric, value, verdict);
    }
}

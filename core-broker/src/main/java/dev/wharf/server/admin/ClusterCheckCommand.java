package dev.wharf.server.admin;

import dev.wharf.client.admin.ReplicaGroups;
import dev.wharf.server.cli.CliException;
import dev.wharf.server.cli.ExitCodes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin cluster-check}. */
@Command(name = "cluster-check", mixinStandardHelpOptions = true,
        description = "Checks that every broker group has a master that answers and that each of its slaves answers "
                + "and is within the lag limits. Prints one line per group and exits 0 when all are in sync, 1 when "
                + "one is not.")
final class ClusterCheckCommand implements Callable<Integer> {

    @ParentCommand
    AdminCommand admin;

    @Option(names = "--max-lag-bytes", paramLabel = "BYTES", defaultValue = "268435456",
            description = "Largest commit-log gap a slave may have and count as in sync (default: ${DEFAULT-VALUE}, "
                    + "haMaxGapNotInSync's default).")
    long maxLagBytes;

    @Option(names = "--max-lag-ms", paramLabel = "MILLIS", defaultValue = "-1",
            description = "Largest store-time gap a slave may have, in milliseconds (default: no limit).")
    long maxLagMillis;

    @Override
    public Integer call() throws Exception {
        if (maxLagBytes < 0) {
            throw CliException.usage("--max-lag-bytes is " + maxLagBytes + "; give 0 or more bytes.");
        }
        List<ReplicaGroups.Group> groups;
        try (AdminSession session = admin.open()) {
            groups = session.admin().replicaGroups();
        }
        Output out = admin.output();
        if (groups.isEmpty()) {
            out.result("No broker is registered with the NameServer at " + admin.namesrv + ": nothing can serve.",
                    Map.of("ok", false, "groups", List.of()));
            return ExitCodes.FAILED;
        }
        Table table = new Table(Table.text("Cluster", "cluster"), Table.text("Broker", "broker"),
                Table.text("Master", "master"), Table.number("Slaves", "slaves"),
                Table.number("MaxLagBytes", "maxLagBytes"), Table.number("MaxLagMs", "maxLagMillis"),
                Table.text("Status", "status"));
        List<String> problems = new ArrayList<>();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (ReplicaGroups.Group g : groups) {
            List<String> own = g.problems(maxLagBytes, maxLagMillis);
            problems.addAll(own);
            Long lagBytes = null;
            Long lagMillis = null;
            for (ReplicaGroups.Replica s : g.slaves()) {
                lagBytes = max(lagBytes, s.lagBytes());
                lagMillis = max(lagMillis, s.lagMillis());
            }
            String status = own.isEmpty() ? "OK" : "NOT_IN_SYNC";
            String master = g.master() == null ? "none" : g.master().address();
            table.add(g.cluster(), g.brokerName(), master, g.slaves().size(), lagBytes, lagMillis, status);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("cluster", g.cluster());
            row.put("broker", g.brokerName());
            row.put("master", g.master() == null ? null : g.master().address());
            row.put("slaves", g.slaves().size());
            row.put("maxLagBytes", lagBytes);
            row.put("maxLagMillis", lagMillis);
            row.put("problems", own);
            rows.add(row);
        }
        boolean ok = problems.isEmpty();
        if (out.json()) {
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("ok", ok);
            result.put("groups", rows);
            out.println(Output.toJson(result));
        } else {
            out.table(table);
            if (ok) {
                out.println("All " + groups.size() + " broker group(s) have a master and every slave is within "
                        + maxLagBytes + " bytes" + (maxLagMillis >= 0 ? " and " + maxLagMillis + " ms" : "") + ".");
            } else {
                for (String p : problems) {
                    out.println("NOT IN SYNC: " + p + ".");
                }
            }
        }
        return ok ? ExitCodes.OK : ExitCodes.FAILED;
    }

    private static Long max(Long a, Long b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : Math.max(a, b);
    }
}

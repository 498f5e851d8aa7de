package dev.wharf.server.admin;

import dev.wharf.client.admin.ReplicaGroups;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin brokers}. */
@Command(name = "brokers", mixinStandardHelpOptions = true,
        description = "Lists the brokers registered with the NameServer: cluster, broker name, broker id (0 = master) "
                + "and address, each group's master first; its role, commit-log end (bytes) and, for a slave, how far "
                + "it is behind its master in bytes and in milliseconds of store time ('-' when unknown, "
                + "'unreachable' when the broker did not answer).")
final class BrokersCommand implements Callable<Integer> {

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        List<ReplicaGroups.Group> groups;
        try (AdminSession session = admin.open()) {
            groups = session.admin().replicaGroups();
        }
        Table table = new Table(Table.text("Cluster", "cluster"), Table.text("Broker", "broker"),
                Table.number("BID", "brokerId"), Table.text("Address", "address"), Table.text("Role", "role"),
                Table.number("MaxOffset", "maxOffset"), Table.number("LagBytes", "lagBytes"),
                Table.number("LagMs", "lagMillis"));
        for (ReplicaGroups.Group g : groups) {
            List<ReplicaGroups.Replica> members = new ArrayList<>();
            if (g.master() != null) {
                members.add(g.master());
            }
            members.addAll(g.slaves());
            for (ReplicaGroups.Replica r : members) {
                Object maxOffset = r.runtime() == null ? "unreachable" : r.runtime().commitLogMaxOffset();
                table.add(g.cluster(), g.brokerName(), r.brokerId(), r.address(), r.role(),
                        maxOffset, r.lagBytes(), r.lagMillis());
            }
        }
        Output out = admin.output();
        if (table.isEmpty() && !out.json()) {
            out.println("No broker is registered with the NameServer at " + admin.namesrv
                    + " (start one with: wharf broker --namesrv " + admin.namesrv + ").");
        } else {
            out.table(table);
        }
        return 0;
    }
}

package dev.wharf.server.admin;

import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin brokers}. */
@Command(name = "brokers", mixinStandardHelpOptions = true,
        description = "Lists the brokers registered with the NameServer: cluster, broker name, broker id (0 = master) "
                + "and address.")
final class BrokersCommand implements Callable<Integer> {

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        ClusterInfo cluster;
        try (AdminSession session = admin.open()) {
            cluster = session.cluster();
        }
        Table table = new Table(Table.text("Cluster", "cluster"), Table.text("Broker", "broker"),
                Table.number("BID", "brokerId"), Table.text("Address", "address"));
        Map<String, BrokerData> brokers = cluster.brokerAddrTable() == null ? Map.of() : cluster.brokerAddrTable();
        Map<String, Set<String>> clusters = cluster.clusterAddrTable() == null ? Map.of() : cluster.clusterAddrTable();
        for (Map.Entry<String, Set<String>> c : new TreeMap<>(clusters).entrySet()) {
            for (String name : new TreeSet<>(c.getValue())) {
                BrokerData data = brokers.get(name);
                if (data == null || data.brokerAddrs() == null) {
                    continue;
                }
                new TreeMap<>(data.brokerAddrs()).forEach((id, address) -> table.add(c.getKey(), name, id, address));
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

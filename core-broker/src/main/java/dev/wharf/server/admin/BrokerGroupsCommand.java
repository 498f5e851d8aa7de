package dev.wharf.server.admin;

import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import dev.wharf.protocol.body.ControllerData.ReplicaInfo;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin broker-groups}. */
@Command(name = "broker-groups", mixinStandardHelpOptions = true,
        description = "Per broker name, as the controller leader holds it: the master, the master epoch, the "
                + "sync-state set with its epoch, and every replica (id, address, alive or not, epoch and max offset "
                + "from its last heartbeat).")
final class BrokerGroupsCommand implements Callable<Integer> {

    @ParentCommand
    AdminCommand admin;

    @Mixin
    ControllerOption option;

    @Option(names = "--broker-name", paramLabel = "NAME", description = "Only this broker name.")
    String brokerName;

    @Override
    public Integer call() throws Exception {
        List<BrokerGroupInfo> groups;
        try (ControllerAdmin c = option.open(admin)) {
            groups = c.brokerGroups(brokerName);
        } catch (ControllerException e) {
            throw option.failure(e);
        }
        Table table = new Table(Table.text("Broker", "brokerName"), Table.text("Cluster", "cluster"),
                Table.text("Master", "master"), Table.number("Epoch", "masterEpoch"),
                Table.text("Sync-state set", "syncStateSet"), Table.number("Set epoch", "syncStateSetEpoch"),
                Table.text("Replicas", "replicas"));
        for (BrokerGroupInfo g : groups) {
            String master = g.hasMaster() ? g.masterBrokerId() + "@" + g.masterAddress()
                    + (g.masterAlive() ? "" : " (silent)") : "none";
            String replicas = g.replicas().stream().map(BrokerGroupsCommand::replica)
                    .collect(Collectors.joining(", "));
            table.add(g.brokerName(), g.clusterName(), master, g.masterEpoch(), g.syncStateSet().toString(),
                    g.syncStateSetEpoch(), replicas);
        }
        Output out = admin.output();
        if (table.isEmpty() && !out.json()) {
            out.println("No broker has registered with the controller at " + option.controller
                    + (brokerName == null ? "" : " under the name " + brokerName)
                    + " (brokers register when they run with enableControllerMode=true).");
        } else {
            out.table(table);
        }
        return 0;
    }

    private static String replica(ReplicaInfo r) {
        return r.brokerId() + "@" + r.address() + (r.alive() ? " alive epoch " + r.epoch() + " offset " + r.maxOffset()
                : " not alive");
    }
}

package dev.wharf.server.admin;

import dev.wharf.controller.client.ControllerAdmin;
import dev.wharf.controller.client.ControllerException;
import dev.wharf.protocol.body.ControllerData.ControllerMetadata;
import dev.wharf.server.cli.CliException;
import dev.wharf.server.cli.ExitCodes;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin controller-status}. */
@Command(name = "controller-status", mixinStandardHelpOptions = true,
        description = "Asks every given controller node for its role, Raft term, applied index and the leader it "
                + "knows.")
final class ControllerStatusCommand implements Callable<Integer> {

    @ParentCommand
    AdminCommand admin;

    @Mixin
    ControllerOption option;

    @Override
    public Integer call() throws Exception {
        Table table = new Table(Table.text("Address", "address"), Table.text("Node", "node"),
                Table.text("Role", "role"), Table.number("Term", "term"), Table.text("Leader", "leader"),
                Table.text("Leader address", "leaderAddress"), Table.number("Applied", "appliedIndex"),
                Table.text("Problem", "problem"));
        int answered = 0;
        try (ControllerAdmin c = option.open(admin)) {
            for (String address : c.addresses()) {
                try {
                    ControllerMetadata m = c.metadata(address);
                    answered++;
                    table.add(address, m.selfId(), m.role() + (m.leaderReady() ? "" : m.role().equals("LEADER")
                                    ? " (not ready)" : ""), m.term(), m.leaderId() == null ? "none" : m.leaderId(),
                            m.leaderAddress() == null ? "unknown" : m.leaderAddress(), m.lastAppliedIndex(), "");
                } catch (ControllerException e) {
                    table.add(address, "?", "unreachable", 0, "", "", 0, e.getMessage());
                }
            }
        }
        admin.output().table(table);
        if (answered == 0) {
            throw new CliException(ExitCodes.UNREACHABLE, "No controller answered at " + option.controller
                    + " (start one with: wharf controller --help)");
        }
        return 0;
    }
}

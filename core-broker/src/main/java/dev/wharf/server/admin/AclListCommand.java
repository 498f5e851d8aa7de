package dev.wharf.server.admin;

import dev.wharf.security.Policy;
import dev.wharf.security.User;
import dev.wharf.server.cli.CliException;
import picocli.CommandLine.Command;

/** {@code wharf admin acl-list}: the users and their policies (never a password or hash). */
@Command(name = "acl-list", mixinStandardHelpOptions = true,
        description = "Lists the users of the users file and their policies.")
final class AclListCommand extends UsersFileCommand {

    @Override
    public Integer call() throws CliException {
        Table table = new Table(Table.text("USER", "user"), Table.text("DECISION", "decision"),
                Table.text("ACTIONS", "actions"), Table.text("RESOURCE", "resource"));
        for (User u : acl.read()) {
            if (u.superUser()) {
                table.add(u.name(), "ALLOW", "ALL", "* (super user)");
            }
            if (u.policies().isEmpty() && !u.superUser()) {
                table.add(u.name(), "-", "-", "(no rights yet)");
            }
            for (Policy p : u.policies()) {
                table.add(u.name(), p.allow() ? "ALLOW" : "DENY", String.join(",", p.actions().stream()
                        .map(Enum::name).sorted().toList()), p.resource().toString());
            }
        }
        admin.output().table(table);
        return 0;
    }
}

package dev.wharf.server.admin;

import dev.wharf.security.User;
import dev.wharf.server.cli.CliException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin user-delete}. */
@Command(name = "user-delete", mixinStandardHelpOptions = true,
        description = "Removes a user and its policies from the users file; its requests are refused from then on.")
final class UserDeleteCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "NAME", description = "User name.")
    String name;

    @Mixin
    AclFileOption acl;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws CliException {
        List<User> users = acl.read();
        int at = AclFileOption.indexOf(users, name);
        if (at < 0) {
            throw CliException.failed("No user named " + name + " in " + acl.file + " (see: wharf admin acl-list).");
        }
        users.remove(at);
        acl.write(users);
        admin.output().result("Deleted user " + name + ".", Map.of("user", name, "deleted", true));
        return 0;
    }
}

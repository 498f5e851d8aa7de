package dev.wharf.server.admin;

import dev.wharf.security.User;
import dev.wharf.server.cli.CliException;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code wharf admin user-delete}. */
@Command(name = "user-delete", mixinStandardHelpOptions = true,
        description = "Removes a user and its policies from the users file; its requests are refused from then on.")
final class UserDeleteCommand extends UsersFileCommand {

    @Parameters(index = "0", paramLabel = "NAME", description = "User name.")
    String name;

    @Override
    public Integer call() throws CliException {
        List<User> users = acl.read();
        int at = AclFileOption.indexOf(users, name);
        if (at < 0) {
            throw CliException.failed("No user named " + name + " in " + acl.file + " (see: wharf admin acl-list).");
        }
        users.remove(at);
        save(users, "Deleted user " + name + ".", Map.of("user", name, "deleted", true));
        return 0;
    }
}

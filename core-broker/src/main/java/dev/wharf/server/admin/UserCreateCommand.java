package dev.wharf.server.admin;

import dev.wharf.security.PasswordHasher;
import dev.wharf.security.User;
import dev.wharf.server.cli.CliException;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code wharf admin user-create}: adds a user, or sets a known user's password (its policies stay). */
@Command(name = "user-create", mixinStandardHelpOptions = true,
        description = "Adds a user to the users file, or sets the password of one it has (keeping its policies)."
                + " Only a salted PBKDF2 hash of the password is written.")
final class UserCreateCommand extends UsersFileCommand {

    @Parameters(index = "0", paramLabel = "NAME", description = "User name.")
    String name;

    @Option(names = "--new-password", arity = "0..1", interactive = true, paramLabel = "PASSWORD",
            defaultValue = "${env:WHARF_NEW_PASSWORD}",
            description = "The user's password (8 characters or more): give --new-password alone to be asked for it,"
                    + " or set WHARF_NEW_PASSWORD.")
    String newPassword;

    @Option(names = "--super", description = "A super user: every right on every resource (administrators and"
            + " the brokers' own credential).")
    boolean superUser;

    @Override
    public Integer call() throws CliException {
        if (newPassword == null || newPassword.isEmpty()) {
            throw CliException.usage("user-create " + name + " needs a password: give --new-password (to be asked)"
                    + " or set WHARF_NEW_PASSWORD");
        }
        String hash;
        try {
            hash = PasswordHasher.hash(name, newPassword.toCharArray());
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
        List<User> users = acl.read();
        int at = AclFileOption.indexOf(users, name);
        boolean known = at >= 0;
        if (known) {
            User old = users.get(at);
            users.set(at, new User(name, hash, superUser || old.superUser(), old.policies()));
        } else {
            users.add(new User(name, hash, superUser, List.of()));
        }
        save(users, (known ? "Set the password of user " : "Created user ") + name
                + (superUser ? " (super user)" : "") + " in " + acl.file + ".",
                Map.of("user", name, "created", !known, "super", superUser));
        return 0;
    }
}

package dev.wharf.server.admin;

import dev.wharf.security.User;
import dev.wharf.server.cli.CliException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/**
 * A command on the users file ({@code user-create}, {@code user-delete}, {@code acl-set}, {@code acl-list}): the
 * {@code --acl-file} option and the admin command's output, and how an edit is saved and reported.
 */
abstract class UsersFileCommand implements Callable<Integer> {

    @Mixin
    AclFileOption acl;

    @ParentCommand
    AdminCommand admin;

    /** Writes the edited users to the file, then prints what changed. */
    void save(List<User> users, String text, Map<String, ?> fields) throws CliException {
        acl.write(users);
        admin.output().result(text, fields);
    }
}

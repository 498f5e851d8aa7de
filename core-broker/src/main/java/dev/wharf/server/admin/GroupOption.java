package dev.wharf.server.admin;

import dev.wharf.common.TopicValidator;
import dev.wharf.server.cli.CliException;
import picocli.CommandLine.Option;

/** The {@code --group} option of the admin commands that act on one consumer group, checked the same way everywhere. */
final class GroupOption {

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "Consumer group.")
    String group;

    /**
     * The group.
     *
     * @throws CliException a usage error saying what is wrong with the name
     */
    String checked() throws CliException {
        String error = TopicValidator.checkGroup(group);
        if (error != null) {
            throw CliException.usage(error);
        }
        return group;
    }
}

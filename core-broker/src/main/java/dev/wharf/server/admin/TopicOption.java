package dev.wharf.server.admin;

import dev.wharf.common.TopicValidator;
import dev.wharf.server.cli.CliException;
import picocli.CommandLine.Option;

/** The {@code --topic} option of the admin commands that act on one topic, checked the same way everywhere. */
final class TopicOption {

    @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "Topic name.")
    String topic;

    /**
     * The topic.
     *
     * @throws CliException a usage error saying what is wrong with the name
     */
    String checked() throws CliException {
        String error = TopicValidator.check(topic);
        if (error != null) {
            throw CliException.usage(error);
        }
        return topic;
    }
}

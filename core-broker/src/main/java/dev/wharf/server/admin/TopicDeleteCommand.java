package dev.wharf.server.admin;

import dev.wharf.common.TopicValidator;
import dev.wharf.server.cli.CliException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin topic-delete}. */
@Command(name = "topic-delete", mixinStandardHelpOptions = true,
        description = "Deletes a topic from every broker that serves it and from the NameServer.")
final class TopicDeleteCommand implements Callable<Integer> {

    @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "Topic name.")
    String topic;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        String error = TopicValidator.check(topic);
        if (error != null) {
            throw CliException.usage(error);
        }
        try (AdminSession session = admin.open()) {
            if (!session.admin().topics().contains(topic)) {
                throw CliException.failed("No topic named " + topic + " is known to the NameServer at "
                        + session.namesrv() + " (see: wharf admin topics).");
            }
            session.admin().deleteTopic(topic);
        }
        admin.output().result("Deleted topic " + topic + ".", Map.of("topic", topic, "deleted", true));
        return 0;
    }
}

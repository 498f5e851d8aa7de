package dev.wharf.server.admin;

import dev.wharf.server.cli.CliException;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin topic-delete}. */
@Command(name = "topic-delete", mixinStandardHelpOptions = true,
        description = "Deletes a topic from every broker that serves it and from the NameServer.")
final class TopicDeleteCommand implements Callable<Integer> {

    @Mixin
    TopicOption topicOption;

    /** The checked {@code --topic}. */
    private String topic;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        topic = topicOption.checked();
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

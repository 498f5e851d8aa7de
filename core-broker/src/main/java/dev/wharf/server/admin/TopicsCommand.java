package dev.wharf.server.admin;

import dev.wharf.common.SystemTopics;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin topics}. */
@Command(name = "topics", mixinStandardHelpOptions = true,
        description = "Lists the topics the NameServer knows, one per line (retry and dead-letter topics included; "
                + "the broker's internal topics only with --all).")
final class TopicsCommand implements Callable<Integer> {

    @Option(names = "--all", description = "Also list the broker's internal topics (scheduled and transaction messages).")
    boolean all;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        List<String> topics;
        try (AdminSession session = admin.open()) {
            topics = session.admin().topics().stream()
                    .filter(t -> all || !SystemTopics.isInternal(t))
                    .toList();
        }
        Output out = admin.output();
        if (out.json()) {
            out.println(Output.toJson(topics));
        } else {
            topics.forEach(out::println);
        }
        return 0;
    }
}

package dev.wharf.server.admin;

import dev.wharf.protocol.body.Stats.QueueOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin reset-offset}. */
@Command(name = "reset-offset", mixinStandardHelpOptions = true,
        description = {"Moves a consumer group's offsets of a topic on every broker that serves it; online members "
                + "continue from the new offsets.",
                "--to earliest (first stored message), latest (skip everything not consumed yet), or a time: the "
                        + "first message stored at or after it (ISO-8601 with a zone, e.g. 2026-11-29T10:00:00Z, or "
                        + "epoch milliseconds)."})
final class ResetOffsetCommand implements Callable<Integer> {

    @Mixin
    GroupOption groupOption;

    @Mixin
    TopicOption topicOption;

    @Option(names = "--to", required = true, paramLabel = "earliest|latest|TIME", description = "Target position.")
    String to;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        String group = groupOption.checked();
        String topic = topicOption.checked();
        OffsetTarget target = OffsetTarget.parse(to);
        List<QueueOffset> offsets;
        try (AdminSession session = admin.open()) {
            offsets = session.admin().resetOffset(group, topic, target.value());
        }
        Table table = new Table(Table.text("Broker", "broker"), Table.number("QID", "queueId"),
                Table.number("Offset", "offset"));
        for (QueueOffset o : offsets) {
            table.add(o.mq().brokerName(), o.mq().queueId(), o.offset());
        }
        Output out = admin.output();
        if (out.json()) {
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("group", group);
            result.put("topic", topic);
            result.put("to", target.describe());
            result.put("offsets", table.rows());
            out.println(Output.toJson(result));
        } else {
            out.println("Offsets of group " + group + " on topic " + topic + " moved to " + target.describe() + ":");
            out.table(table);
        }
        return 0;
    }
}

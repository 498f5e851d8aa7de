package dev.wharf.server.admin;

import dev.wharf.common.TopicValidator;
import dev.wharf.protocol.body.Stats.QueueProgress;
import dev.wharf.server.cli.CliException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin consumer-progress}. */
@Command(name = "consumer-progress", mixinStandardHelpOptions = true,
        description = {"Shows how far a consumer group is behind, per queue of every topic it consumes: the "
                + "queue's end on the broker, the group's committed offset, the difference (lag) and when the group "
                + "last pulled the queue; then the total lag."})
final class ConsumerProgressCommand implements Callable<Integer> {

    @Mixin
    GroupOption groupOption;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "Only the queues of this topic.")
    String topic;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        String group = groupOption.checked();
        String error = topic == null ? null : TopicValidator.check(topic);
        if (error != null) {
            throw CliException.usage(error);
        }
        List<QueueProgress> progress;
        try (AdminSession session = admin.open()) {
            progress = session.admin().consumerProgress(group).stream()
                    .filter(p -> topic == null || topic.equals(p.mq().topic()))
                    .toList();
        }
        Table table = new Table(Table.text("Topic", "topic"), Table.text("Broker", "broker"),
                Table.number("QID", "queueId"), Table.number("BrokerOffset", "brokerOffset"),
                Table.number("ConsumerOffset", "consumerOffset"), Table.number("Diff", "diff"),
                Table.text("LastTime", "lastTime"));
        long total = 0;
        for (QueueProgress p : progress) {
            table.add(p.mq().topic(), p.mq().brokerName(), p.mq().queueId(), p.brokerOffset(), p.consumerOffset(),
                    p.lag(), Texts.time(p.lastTimestamp()));
            total += p.lag();
        }
        Output out = admin.output();
        if (out.json()) {
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("group", group);
            result.put("queues", table.rows());
            result.put("diffTotal", total);
            out.println(Output.toJson(result));
        } else if (progress.isEmpty()) {
            out.println("Group " + group + " has no queues" + (topic == null ? "" : " of topic " + topic)
                    + " on any broker.");
        } else {
            out.table(table);
            out.println("");
            out.println("Diff Total: " + total);
        }
        return 0;
    }
}

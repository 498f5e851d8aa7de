package dev.wharf.server.admin;

import dev.wharf.common.message.MessageExt;
import dev.wharf.server.cli.CliException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin query-key}. */
@Command(name = "query-key", mixinStandardHelpOptions = true,
        description = "Finds the messages of a topic that carry a key (one of their --keys, or the producer's message "
                + "id), newest first.")
final class QueryKeyCommand implements Callable<Integer> {

    @Mixin
    TopicOption topicOption;

    /** The checked {@code --topic}. */
    private String topic;

    @Option(names = "--key", required = true, paramLabel = "KEY", description = "Message key or producer message id.")
    String key;

    @Option(names = "--max", defaultValue = "32", paramLabel = "N",
            description = "Most messages to show, 1..1000 (default: ${DEFAULT-VALUE}).")
    int max;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        topic = topicOption.checked();
        if (key.isBlank()) {
            throw CliException.usage("--key is empty; give a message key or a producer message id.");
        }
        if (max < 1 || max > 1000) {
            throw CliException.usage("--max must be 1..1000, got " + max + ".");
        }
        List<MessageExt> found;
        try (AdminSession session = admin.open()) {
            found = session.admin().queryByKey(topic, key.trim(), max, 0, Long.MAX_VALUE);
        }
        Output out = admin.output();
        if (out.json()) {
            out.println(Output.toJson(found.stream().map(m -> MessageView.summary(m, null)).toList()));
        } else if (found.isEmpty()) {
            out.println("No message of topic " + topic + " has the key " + key.trim() + ".");
        } else {
            Table table = new Table(Table.text("MsgId", "msgId"), Table.text("OffsetMsgId", "offsetMsgId"),
                    Table.text("Broker", "broker"), Table.number("QID", "queueId"), Table.number("Offset", "queueOffset"),
                    Table.text("StoreTime", "storeTime"), Table.text("Tag", "tags"), Table.text("Keys", "keys"),
                    Table.text("Body", "body"));
            for (MessageExt m : found) {
                table.add(m.getMsgId(), m.getOffsetMsgId(), m.getBrokerName(), m.getQueueId(), m.getQueueOffset(),
                        Texts.time(m.getStoreTimestamp()), m.getTags(), m.getKeys(),
                        Texts.body(m.getBody(), MessageView.BODY_PREVIEW));
            }
            out.table(table);
        }
        return 0;
    }
}

package dev.wharf.server.admin;

import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageExt;
import dev.wharf.server.CliException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin dlq-list}. */
@Command(name = "dlq-list", mixinStandardHelpOptions = true,
        description = "Lists the messages waiting in a consumer group's dead-letter queue (%%DLQ%%GROUP) that were "
                + "not resent yet, with the topic each came from and how often it was redelivered.")
final class DlqListCommand implements Callable<Integer> {

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "Consumer group.")
    String group;

    @Option(names = "--max", defaultValue = "100", paramLabel = "N",
            description = "Most messages to show, 1..100000 (default: ${DEFAULT-VALUE}).")
    int max;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        String error = TopicValidator.checkGroup(group);
        if (error != null) {
            throw CliException.usage(error);
        }
        if (max < 1 || max > 100_000) {
            throw CliException.usage("--max must be 1..100000, got " + max + ".");
        }
        List<DeadLetters.Letter> letters;
        String topic;
        try (AdminSession session = admin.open()) {
            DeadLetters dlq = new DeadLetters(session, group);
            topic = dlq.topic();
            letters = dlq.waiting(max);
        }
        Output out = admin.output();
        Table table = new Table(Table.text("MsgId", "msgId"), Table.text("OffsetMsgId", "offsetMsgId"),
                Table.text("Broker", "broker"), Table.number("QID", "queueId"), Table.number("Offset", "queueOffset"),
                Table.text("OriginTopic", "originTopic"), Table.number("Reconsume", "reconsumeTimes"),
                Table.text("StoreTime", "storeTime"), Table.text("Body", "body"));
        for (DeadLetters.Letter letter : letters) {
            MessageExt m = letter.msg();
            table.add(m.getMsgId(), m.getOffsetMsgId(), m.getBrokerName(), m.getQueueId(), m.getQueueOffset(),
                    DeadLetters.originalTopic(m), m.getReconsumeTimes(), Texts.time(m.getStoreTimestamp()),
                    Texts.body(m.getBody(), out.json() ? 0 : MessageView.BODY_PREVIEW));
        }
        if (letters.isEmpty() && !out.json()) {
            out.result("No message waits in the dead-letter queue " + topic + ".", Map.of());
        } else {
            out.table(table);
        }
        return 0;
    }
}

package dev.wharf.server.admin;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.server.cli.CliException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin dlq-list}. */
@Command(name = "dlq-list", mixinStandardHelpOptions = true,
        description = "Lists the messages waiting in a consumer group's dead-letter queue (%%DLQ%%GROUP): neither "
                + "resent nor consumed from it, oldest first in each queue, with the topic each came from and how "
                + "often it was redelivered. Listing acknowledges nothing.")
final class DlqListCommand implements Callable<Integer> {

    @Mixin
    GroupOption groupOption;

    @Option(names = "--max", defaultValue = "100", paramLabel = "N",
            description = "Most messages to show, 1..100000 (default: ${DEFAULT-VALUE}).")
    int max;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        String group = groupOption.checked();
        if (max < 1 || max > 100_000) {
            throw CliException.usage("--max must be 1..100000, got " + max + ".");
        }
        List<MessageExt> letters;
        try (AdminSession session = admin.open()) {
            letters = session.admin().dlqMessages(group, max);
        }
        Output out = admin.output();
        Table table = new Table(Table.text("MsgId", "msgId"), Table.text("OffsetMsgId", "offsetMsgId"),
                Table.text("Broker", "broker"), Table.number("QID", "queueId"), Table.number("Offset", "queueOffset"),
                Table.text("OriginTopic", "originTopic"), Table.number("Reconsume", "reconsumeTimes"),
                Table.text("StoreTime", "storeTime"), Table.text("Body", "body"));
        for (MessageExt m : letters) {
            table.add(m.getMsgId(), m.getOffsetMsgId(), m.getBrokerName(), m.getQueueId(), m.getQueueOffset(),
                    originTopic(m), m.getReconsumeTimes(), Texts.time(m.getStoreTimestamp()),
                    Texts.body(m.getBody(), out.json() ? 0 : MessageView.BODY_PREVIEW));
        }
        if (letters.isEmpty() && !out.json()) {
            out.result("No message waits in the dead-letter queue " + SystemTopics.dlqTopic(group) + ".", Map.of());
        } else {
            out.table(table);
        }
        return 0;
    }

    /**
     * The topic a dead letter was first sent to, as dlq-resend will read it: RETRY_TOPIC for messages retried by
     * the broker, DLQ_ORIGIN_TOPIC for per-message acknowledgement, REAL_TOPIC for scheduled ones; null if none.
     */
    static String originTopic(MessageExt msg) {
        for (String name : new String[] {MessageProperties.RETRY_TOPIC, MessageProperties.DLQ_ORIGIN_TOPIC,
                MessageProperties.REAL_TOPIC}) {
            String topic = msg.getProperty(name);
            if (topic != null && !topic.isBlank()) {
                return SystemTopics.isRetryTopic(topic) || SystemTopics.isDlqTopic(topic) ? null : topic;
            }
        }
        return null;
    }
}

package dev.wharf.server.admin;

import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.message.Message;
import dev.wharf.server.cli.CliException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin send}. */
@Command(name = "send", mixinStandardHelpOptions = true,
        description = {"Sends messages (synchronously, one after another) and prints for each its message id "
                + "(the producer's id, for query-key), its broker message id (for query-id), queue and offset.",
                "On a failure the messages sent so far are printed, then the reason."})
final class SendCommand implements Callable<Integer> {

    private static final int MAX_COUNT = 1_000_000;

    @Mixin
    TopicOption topicOption;

    /** The checked {@code --topic}. */
    private String topic;

    @Option(names = "--body", required = true, paramLabel = "TEXT", description = "Message body (sent as UTF-8).")
    String body;

    @Option(names = "--count", defaultValue = "1", paramLabel = "N",
            description = "How many copies to send (default: ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--keys", paramLabel = "KEYS", description = "Business keys, separated by spaces (for query-key).")
    String keys;

    @Option(names = "--tag", paramLabel = "TAG", description = "Message tag (consumers can filter on it).")
    String tag;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        topic = topicOption.checked();
        if (count < 1 || count > MAX_COUNT) {
            throw CliException.usage("--count must be 1.." + MAX_COUNT + ", got " + count + ".");
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        Table table = new Table(Table.text("MsgId", "msgId"), Table.text("OffsetMsgId", "offsetMsgId"),
                Table.text("Broker", "broker"), Table.number("QID", "queueId"), Table.number("Offset", "queueOffset"),
                Table.text("Status", "status"));
        try (AdminSession session = admin.open()) {
            Producer producer = session.producer();
            for (int i = 0; i < count; i++) {
                Message msg = new Message(topic, blankToNull(tag), blankToNull(keys), bytes);
                SendResult r = producer.send(msg);
                table.add(r.msgId(), r.offsetMsgId(), r.messageQueue().brokerName(), r.messageQueue().queueId(),
                        r.queueOffset(), r.sendStatus().name());
            }
        } finally {
            // what was sent is printed even when a later send failed
            if (!table.isEmpty()) {
                admin.output().table(table);
            }
        }
        return 0;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}

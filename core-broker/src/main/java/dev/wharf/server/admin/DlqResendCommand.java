package dev.wharf.server.admin;

import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageExt;
import dev.wharf.server.CliException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin dlq-resend}. */
@Command(name = "dlq-resend", mixinStandardHelpOptions = true,
        description = {"Sends copies of dead letters of a consumer group back to the topics they were first sent to, "
                + "as new messages (new message id, redelivery count 0; ORIGIN_MESSAGE_ID names the first message).",
                "The dead-letter queue keeps its messages: resending the same one again sends another copy."})
final class DlqResendCommand implements Callable<Integer> {

    /** Most dead letters one --all run resends. */
    private static final int MAX_ALL = 100_000;

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "Consumer group.")
    String group;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Selection selection;

    static final class Selection {
        @Option(names = "--msg-id", paramLabel = "ID",
                description = "The dead letter to resend: its MsgId or OffsetMsgId as dlq-list prints them.")
        String msgId;

        @Option(names = "--all", description = "Resend every message of the dead-letter queue.")
        boolean all;
    }

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        String error = TopicValidator.checkGroup(group);
        if (error != null) {
            throw CliException.usage(error);
        }
        String dlq = SystemTopics.dlqTopic(group);
        Table table = new Table(Table.text("DlqMsgId", "dlqMsgId"), Table.text("Topic", "topic"),
                Table.text("NewMsgId", "msgId"), Table.text("Broker", "broker"), Table.number("QID", "queueId"),
                Table.number("Offset", "queueOffset"));
        try (AdminSession session = admin.open()) {
            List<MessageExt> chosen = choose(DeadLetters.read(session, group, MAX_ALL), dlq);
            for (MessageExt m : chosen) {
                if (DeadLetters.originalTopic(m) == null) {
                    throw CliException.failed("The dead letter " + m.getMsgId() + " does not say which topic it came "
                            + "from (no RETRY_TOPIC or REAL_TOPIC property), so it cannot be resent; nothing was sent.");
                }
            }
            Producer producer = session.producer();
            for (MessageExt m : chosen) {
                String topic = DeadLetters.originalTopic(m);
                SendResult r = producer.send(DeadLetters.copyForResend(m, topic));
                table.add(m.getMsgId(), topic, r.msgId(), r.messageQueue().brokerName(), r.messageQueue().queueId(),
                        r.queueOffset());
            }
        } finally {
            if (!table.isEmpty()) {
                admin.output().table(table);
            }
        }
        return 0;
    }

    private List<MessageExt> choose(List<MessageExt> letters, String dlq) throws CliException {
        if (selection.all) {
            if (letters.isEmpty()) {
                throw CliException.failed("The dead-letter queue " + dlq + " is empty; nothing to resend.");
            }
            return letters;
        }
        String id = selection.msgId.trim();
        List<MessageExt> out = new ArrayList<>();
        for (MessageExt m : letters) {
            if (DeadLetters.hasId(m, id)) {
                out.add(m);
                break;
            }
        }
        if (out.isEmpty()) {
            throw CliException.failed("No message with the id " + id + " is in the dead-letter queue " + dlq
                    + " (see: wharf admin dlq-list --group " + group + ").");
        }
        return out;
    }
}

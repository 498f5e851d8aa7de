package dev.wharf.server.admin;

import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.TopicValidator;
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
        description = {"Sends dead letters of a consumer group back to the topics they were first sent to, with "
                + "their message id and properties and a redelivery count of 0.",
                "What was resent is remembered as the group's offset on its dead-letter queue, so dlq-list and "
                        + "--all no longer show it (a message resent by id stays listed while older ones wait "
                        + "before it)."})
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

        @Option(names = "--all", description = "Resend every message waiting in the dead-letter queue.")
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
        Table table = new Table(Table.text("MsgId", "msgId"), Table.text("Topic", "topic"),
                Table.text("Broker", "broker"), Table.number("QID", "queueId"), Table.number("Offset", "queueOffset"));
        try (AdminSession session = admin.open()) {
            DeadLetters dlq = new DeadLetters(session, group);
            List<DeadLetters.Letter> chosen = choose(dlq.waiting(MAX_ALL), dlq.topic());
            for (DeadLetters.Letter letter : chosen) {
                if (DeadLetters.originalTopic(letter.msg()) == null) {
                    throw CliException.failed("The dead letter " + letter.msg().getMsgId() + " does not say which "
                            + "topic it came from (no RETRY_TOPIC or REAL_TOPIC property), so it cannot be resent; "
                            + "nothing was sent.");
                }
            }
            Producer producer = session.producer();
            for (DeadLetters.Letter letter : chosen) {
                String topic = DeadLetters.originalTopic(letter.msg());
                SendResult r = producer.send(DeadLetters.copyForResend(letter.msg(), topic));
                dlq.resent(letter, selection.all);
                table.add(r.msgId(), topic, r.messageQueue().brokerName(), r.messageQueue().queueId(),
                        r.queueOffset());
            }
        } finally {
            // what was resent is printed even when a later send failed
            if (!table.isEmpty()) {
                admin.output().table(table);
            }
        }
        return 0;
    }

    private List<DeadLetters.Letter> choose(List<DeadLetters.Letter> letters, String dlq) throws CliException {
        if (selection.all) {
            if (letters.isEmpty()) {
                throw CliException.failed("No message waits in the dead-letter queue " + dlq + "; nothing to resend.");
            }
            return letters;
        }
        String id = selection.msgId.trim();
        List<DeadLetters.Letter> out = new ArrayList<>();
        for (DeadLetters.Letter letter : letters) {
            if (DeadLetters.hasId(letter.msg(), id)) {
                out.add(letter);
            }
        }
        if (out.isEmpty()) {
            throw CliException.failed("No message with the id " + id + " waits in the dead-letter queue " + dlq
                    + " (see: wharf admin dlq-list --group " + group + ").");
        }
        return out;
    }
}

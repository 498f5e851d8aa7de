package dev.wharf.server.admin;

import dev.wharf.client.ClientException;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageId;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.server.cli.CliException;
import dev.wharf.server.cli.ExitCodes;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin dlq-resend}. */
@Command(name = "dlq-resend", mixinStandardHelpOptions = true,
        description = {"Sends dead letters of a consumer group back to the topics they were first sent to, with "
                + "their message id and properties and a redelivery count of 0.",
                "A resent message is acknowledged on the dead-letter queue (read as the JMS queue %%DLQ%%GROUP), so "
                        + "dlq-list and --all no longer show it. If a message cannot be resent, the ones before it "
                        + "were."})
final class DlqResendCommand implements Callable<Integer> {

    @Mixin
    GroupOption groupOption;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Selection selection;

    static final class Selection {
        @Option(names = "--msg-id", paramLabel = "ID",
                description = "The dead letter to resend: its MsgId or OffsetMsgId as dlq-list prints them, or the "
                        + "id of the message it was made from.")
        String msgId;

        @Option(names = "--all", description = "Resend every message waiting in the dead-letter queue.")
        boolean all;
    }

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        String group = groupOption.checked();
        String id = selection.all ? null : normalized(selection.msgId);
        if (id != null && id.isEmpty()) {
            throw CliException.usage("--msg-id is empty; give an id printed by dlq-list.");
        }
        String dlq = SystemTopics.dlqTopic(group);
        int resent;
        try (AdminSession session = admin.open()) {
            resent = session.admin().dlqResend(group, id);
        } catch (ClientException e) {
            if (e.responseCode() == ResponseCode.MESSAGE_ILLEGAL || e.responseCode() == ResponseCode.TOPIC_NOT_EXIST) {
                // a dead letter that cannot go back is a fact about the message, not bad input
                throw new CliException(ExitCodes.FAILED, e.getMessage(), e);
            }
            throw e;
        }
        if (resent == 0 && id != null) {
            throw CliException.failed("No message with the id " + id + " waits in the dead-letter queue " + dlq
                    + " (see: wharf admin dlq-list --group " + group + ").");
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("group", group);
        fields.put("resent", resent);
        admin.output().result(resent == 0
                ? "No message waits in the dead-letter queue " + dlq + "; nothing was resent."
                : "Resent " + resent + (resent == 1 ? " message of " + dlq + " to the topic it came from."
                        : " messages of " + dlq + " to the topics they came from."), fields);
        return 0;
    }

    /** Message ids are upper-case hexadecimal; accept them as pasted in either case. */
    private static String normalized(String id) {
        String trimmed = id.trim();
        return MessageId.isValid(trimmed) ? trimmed.toUpperCase(Locale.ROOT) : trimmed;
    }
}

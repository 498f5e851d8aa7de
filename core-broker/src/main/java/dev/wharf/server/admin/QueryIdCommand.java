package dev.wharf.server.admin;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageId;
import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.server.cli.CliException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin query-id}. */
@Command(name = "query-id", mixinStandardHelpOptions = true,
        description = {"Shows one message with every field and property.",
                "MSGID is a broker message id (OffsetMsgId, read directly from the broker it names) or a producer "
                        + "message id (MsgId, looked up in the key index of --topic, or of every topic when none is given)."})
final class QueryIdCommand implements Callable<Integer> {

    @Parameters(paramLabel = "MSGID", description = "Message id: 32 hexadecimal characters.")
    String msgId;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "Topic of a producer message id (faster lookup).")
    String topic;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        String id = msgId.trim().toUpperCase(Locale.ROOT);
        if (!MessageId.isValid(id)) {
            throw CliException.usage("\"" + msgId + "\" is not a message id: expected " + MessageId.LENGTH
                    + " hexadecimal characters, as printed by send, consume or query-key.");
        }
        if (topic != null && TopicValidator.check(topic) != null) {
            throw CliException.usage(TopicValidator.check(topic));
        }
        MessageExt msg;
        try (AdminSession session = admin.open()) {
            msg = isBrokerAddress(session.cluster(), HostAddress.toString(MessageId.storeHost(id)))
                    ? session.admin().viewMessage(id)
                    : byProducerId(session, id);
        }
        Output out = admin.output();
        if (out.json()) {
            out.println(Output.toJson(MessageView.detail(msg)));
        } else {
            out.println(MessageView.detailText(msg).stripTrailing());
        }
        return 0;
    }

    private static boolean isBrokerAddress(ClusterInfo cluster, String address) {
        if (cluster.brokerAddrTable() == null) {
            return false;
        }
        for (BrokerData data : cluster.brokerAddrTable().values()) {
            if (data.brokerAddrs() != null && data.brokerAddrs().containsValue(address)) {
                return true;
            }
        }
        return false;
    }

    private MessageExt byProducerId(AdminSession session, String id) throws Exception {
        List<String> topics = new ArrayList<>();
        if (topic != null) {
            topics.add(topic);
        } else {
            session.admin().topics().stream().filter(t -> !SystemTopics.isInternal(t)).forEach(topics::add);
        }
        for (String t : topics) {
            List<MessageExt> found = session.admin().queryByKey(t, id, 1, 0, Long.MAX_VALUE);
            if (!found.isEmpty()) {
                return found.get(0);
            }
        }
        throw CliException.failed("No message has the id " + id + ": it is not the broker message id of a registered "
                + "broker, and no message " + (topic == null ? "of any topic" : "of topic " + topic)
                + " has it as its producer message id.");
    }
}

package dev.wharf.server.admin;

import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.server.cli.CliException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code wharf admin consume}. */
@Command(name = "consume", mixinStandardHelpOptions = true,
        description = {"Consumes messages of a topic as a consumer group and prints each one; the group's offsets "
                + "are committed up to the last message printed.",
                "Each queue starts at the group's committed offset; a queue the group never consumed starts at its "
                        + "first stored message. Stops after --count messages, or when no message arrived for "
                        + "--timeout seconds."})
final class ConsumeCommand implements Callable<Integer> {

    private static final String LINE = "%-32s  %-14s  %8s  %-10s  %-24s  %s";

    @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "Topic to consume.")
    String topic;

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "Consumer group.")
    String group;

    @Option(names = "--count", paramLabel = "N", description = "Stop after N messages (default: no limit).")
    Integer count;

    @Option(names = "--timeout", defaultValue = "5", paramLabel = "SEC",
            description = "Stop when no message arrived for this many seconds (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @ParentCommand
    AdminCommand admin;

    @Override
    public Integer call() throws Exception {
        checkInput();
        Output out = admin.output();
        long limit = count == null ? Long.MAX_VALUE : count;
        long consumed = 0;
        try (AdminSession session = admin.open()) {
            PullConsumer consumer = session.pullConsumer(group);
            // short holds: an idle queue answers within a second, so stopping never waits long
            consumer.setBrokerSuspendMaxTimeMillis(1_000);
            consumer.setConsumerTimeoutMillisWhenSuspend(5_000);
            Map<MessageQueue, Long> start = startOffsets(consumer);
            out.text(String.format(LINE, "#MsgId", "#Queue", "#Offset", "#Tag", "#Keys", "#Body"));
            try (QueueFeed feed = new QueueFeed(consumer, start)) {
                feed.start();
                while (consumed < limit) {
                    QueueFeed.Batch batch = feed.poll(timeoutSeconds * 1000);
                    if (batch == null) {
                        break;
                    }
                    if (batch.error() != null) {
                        throw batch.error();
                    }
                    for (MessageExt msg : batch.messages()) {
                        if (consumed == limit) {
                            break;
                        }
                        print(out, batch.queue(), msg);
                        consumer.updateConsumeOffset(batch.queue(), msg.getQueueOffset() + 1);
                        consumed++;
                    }
                }
            }
        }
        out.text("Consumed " + consumed + " message" + (consumed == 1 ? "" : "s") + " of " + topic + " as group "
                + group + (consumed > 0 ? "; offsets committed." : "."));
        return 0;
    }

    private void checkInput() throws CliException {
        String error = TopicValidator.check(topic);
        if (error == null) {
            error = TopicValidator.checkGroup(group);
        }
        if (error != null) {
            throw CliException.usage(error);
        }
        if (count != null && count < 1) {
            throw CliException.usage("--count must be at least 1, got " + count + ".");
        }
        if (timeoutSeconds < 1 || timeoutSeconds > 86_400) {
            throw CliException.usage("--timeout must be 1..86400 seconds, got " + timeoutSeconds + ".");
        }
    }

    /** The group's committed offset of each queue, or the queue's first offset when it has none. */
    private Map<MessageQueue, Long> startOffsets(PullConsumer consumer) throws Exception {
        Map<MessageQueue, Long> start = new LinkedHashMap<>();
        for (MessageQueue mq : new TreeSet<>(consumer.fetchSubscribeMessageQueues(topic))) {
            long committed = consumer.fetchConsumeOffset(mq, true);
            start.put(mq, committed >= 0 ? committed : consumer.minOffset(mq));
        }
        return start;
    }

    private static void print(Output out, MessageQueue mq, MessageExt msg) {
        if (out.json()) {
            out.jsonLine(MessageView.summary(msg, mq.brokerName()));
        } else {
            out.println(String.format(LINE, msg.getMsgId(), mq.brokerName() + ":" + mq.queueId(),
                    msg.getQueueOffset(), dash(msg.getTags()), dash(msg.getKeys()), Texts.body(msg.getBody(), 0)));
        }
    }

    private static String dash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }
}

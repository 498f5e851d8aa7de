package dev.wharf.broker.group;

import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.header.ClientHeaders.NotifyConsumerIdsChangedRequest;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.exception.RemotingException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a consumer group's members, one-way over their own connections, that they must rebalance
 * (membership changed) or re-read the offsets of a topic (offsets were reset). A member that cannot be
 * reached is skipped: it rebalances on its own 20 s timer anyway.
 */
public final class ConsumerNotifier implements ConsumerIdsChangeListener {

    private static final Logger log = LoggerFactory.getLogger(ConsumerNotifier.class);

    private final Predicate<String> notifyEnabled;

    /** @param notifyEnabled whether a group wants notifications (its notifyConsumerIdsChangedEnable) */
    public ConsumerNotifier(Predicate<String> notifyEnabled) {
        this.notifyEnabled = notifyEnabled;
    }

    @Override
    public void membersChanged(String group, List<ClientChannelInfo> members, ClientChannelInfo left) {
        if (notifyEnabled.test(group)) {
            send(group, members, new NotifyConsumerIdsChangedRequest(group));
        }
    }

    /** Tells every member that the group's offsets of {@code topic} were reset. */
    public void offsetsReset(String group, String topic, List<ClientChannelInfo> members) {
        send(group, members, new NotifyConsumerIdsChangedRequest(group, topic));
    }

    /**
     * Tells every member that the group's offsets of {@code topic} were reset: Wharf's clients as
     * {@link #offsetsReset(String, String, List)} does, RocketMQ's clients (which do not know that notice) with
     * RESET_CONSUMER_CLIENT_OFFSET carrying the new offsets, on which they drop their queues of the topic and
     * start again from those offsets.
     *
     * @param rocketMqOffsets the new offsets in RocketMQ's {@code ResetOffsetBody} shape
     */
    public void offsetsReset(String group, String topic, List<ClientChannelInfo> members, long timestamp,
                             byte[] rocketMqOffsets) {
        List<ClientChannelInfo> wharfMembers = new ArrayList<>(members.size());
        for (ClientChannelInfo member : members) {
            if (member.version() <= RemotingCommand.DEFAULT_VERSION) {
                wharfMembers.add(member);
                continue;
            }
            RemotingCommand request = RemotingCommand.createRequest(RequestCode.RESET_CONSUMER_CLIENT_OFFSET)
                    .putExt("topic", topic).putExt("group", group).putExt("timestamp", timestamp)
                    .putExt("isForce", true).setBody(rocketMqOffsets);
            invoke(group, member, request);
        }
        offsetsReset(group, topic, wharfMembers);
    }

    private static void send(String group, List<ClientChannelInfo> members, NotifyConsumerIdsChangedRequest header) {
        for (ClientChannelInfo member : members) {
            RemotingChannel channel = member.channel();
            if (!channel.isActive()) {
                continue;
            }
            RemotingCommand request = RemotingCommand.createRequest(RequestCode.NOTIFY_CONSUMER_IDS_CHANGED);
            HeaderCodec.encode(header).forEach(request::putExt);
            invoke(group, member, request);
        }
    }

    private static void invoke(String group, ClientChannelInfo member, RemotingCommand request) {
        RemotingChannel channel = member.channel();
        if (!channel.isActive()) {
            return;
        }
        try {
            channel.invokeOneway(request);
        } catch (RemotingException e) {
            log.debug("Could not notify consumer {} of group {}: {}", member, group, e.getMessage());
        }
    }
}

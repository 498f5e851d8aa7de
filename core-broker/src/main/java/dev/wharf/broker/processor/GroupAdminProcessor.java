package dev.wharf.broker.processor;

import dev.wharf.broker.group.ClientChannelInfo;
import dev.wharf.broker.group.ConsumerGroupInfo;
import dev.wharf.broker.group.ConsumerManager;
import dev.wharf.broker.group.SubscriptionGroupConfig;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.offset.ConsumerOffsetManager;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.RocketMqBodies.Connection;
import dev.wharf.protocol.body.RocketMqBodies.ConsumerConnection;
import dev.wharf.protocol.body.RocketMqBodies.GroupList;
import dev.wharf.protocol.body.RocketMqBodies.Subscription;
import dev.wharf.protocol.header.OffsetHeaders.ConsumeStatsRequest;
import dev.wharf.protocol.header.RouteHeaders.TopicRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Consumer-group administration as RocketMQ's tools ask for it: UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (a group's
 * settings, body as RocketMQ writes them; fields Wharf has no use for are ignored), GET_CONSUMER_CONNECTION_LIST (the
 * online members and their subscriptions) and QUERY_TOPIC_CONSUME_BY_WHO (the groups with offsets on a topic or
 * subscribed to it now). The answers have RocketMQ's shapes.
 */
public final class GroupAdminProcessor implements RequestProcessor {

    private final SubscriptionGroupManager groups;
    private final ConsumerManager consumers;
    private final ConsumerOffsetManager offsets;
    private final String brokerName;

    public GroupAdminProcessor(SubscriptionGroupManager groups, ConsumerManager consumers,
                               ConsumerOffsetManager offsets, String brokerName) {
        this.groups = groups;
        this.consumers = consumers;
        this.offsets = offsets;
        this.brokerName = brokerName;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        return switch (request.code()) {
            case RequestCode.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP -> updateGroup(request);
            case RequestCode.GET_CONSUMER_CONNECTION_LIST -> connections(request);
            case RequestCode.QUERY_TOPIC_CONSUME_BY_WHO -> consumersOf(request);
            default -> ProcessorSupport.answer(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    RequestCode.NAMES.describe(request.code()) + " is not served by the group administration");
        };
    }

    private RemotingCommand updateGroup(RemotingCommand request) throws Exception {
        SubscriptionGroupConfig config = ProcessorSupport.body(request, SubscriptionGroupConfig.class);
        try {
            groups.update(config);
        } catch (IllegalArgumentException e) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, e.getMessage());
        }
        return ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
    }

    private RemotingCommand connections(RemotingCommand request) throws Exception {
        String group = ProcessorSupport.header(request, ConsumeStatsRequest.class).consumerGroup();
        ConsumerGroupInfo info = consumers.group(group);
        if (info == null || info.isEmpty()) {
            return ProcessorSupport.answer(request, ResponseCode.CONSUMER_NOT_ONLINE, "The consumer group " + group
                    + " has no member online on broker " + brokerName + ".");
        }
        List<Connection> members = new ArrayList<>();
        for (ClientChannelInfo member : info.members()) {
            members.add(new Connection(member.clientId(), member.channel().remoteAddress(), member.language(),
                    member.version()));
        }
        Map<String, Subscription> subscriptions = new TreeMap<>();
        info.subscriptions().forEach((topic, s) -> subscriptions.put(topic, Subscription.of(s)));
        ConsumerConnection body = new ConsumerConnection(members, subscriptions, info.consumeType().name(),
                info.messageModel().name(), info.consumeFromWhere().name());
        return ProcessorSupport.answer(request, ResponseCode.SUCCESS, null).setBody(Json.encode(body));
    }

    private RemotingCommand consumersOf(RemotingCommand request) throws Exception {
        String topic = ProcessorSupport.header(request, TopicRequest.class).topic();
        Set<String> found = new TreeSet<>(offsets.groupsOf(topic));
        for (String group : consumers.groups()) {
            ConsumerGroupInfo info = consumers.group(group);
            if (info != null && info.subscriptions().containsKey(topic)) {
                found.add(group);
            }
        }
        return ProcessorSupport.answer(request, ResponseCode.SUCCESS, null)
                .setBody(Json.encode(new GroupList(found)));
    }

}

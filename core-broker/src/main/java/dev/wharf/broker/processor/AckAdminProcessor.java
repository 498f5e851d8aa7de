package dev.wharf.broker.processor;

import dev.wharf.broker.ack.AckService;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.TopicValidator;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.AckGroups;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.AckHeaders.AckStatsRequest;
import dev.wharf.protocol.header.AckHeaders.CreateAckGroupRequest;
import dev.wharf.protocol.header.AckHeaders.DeleteAckGroupRequest;
import dev.wharf.protocol.header.AckHeaders.ListAckGroupsRequest;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;

/**
 * CREATE_ACK_GROUP, DELETE_ACK_GROUP, LIST_ACK_GROUPS and GET_ACK_STATS: a group's acknowledgement state made explicitly (so a
 * new subscription starts where it was made, not at its first pop), deleted (unsubscribe), and shown per queue.
 */
public final class AckAdminProcessor implements RequestProcessor {

    private final AckRequests checks;
    private final AckService ack;

    public AckAdminProcessor(String brokerName, TopicConfigManager topics, SubscriptionGroupManager groups,
                             AckService ack) {
        this.checks = new AckRequests(brokerName, topics, groups, ack);
        this.ack = ack;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        try {
            return switch (request.code()) {
                case RequestCode.CREATE_ACK_GROUP -> create(request);
                case RequestCode.DELETE_ACK_GROUP -> delete(request);
                case RequestCode.LIST_ACK_GROUPS -> list(request);
                default -> stats(request);
            };
        } catch (AckRequests.Refused refused) {
            return refused.answer(request);
        }
    }

    private RemotingCommand create(RemotingCommand request) throws Exception {
        CreateAckGroupRequest header = ProcessorSupport.header(request, CreateAckGroupRequest.class);
        AckRequests.names(header.consumerGroup(), header.topic());
        checks.consumableGroup(header.consumerGroup());
        TopicConfig topic = checks.readableTopic(header.topic());
        ack.createGroup(header.consumerGroup(), header.topic(),
                header.initMode() == null ? InitMode.EARLIEST : header.initMode(), topic.readQueueNums()).join();
        return ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
    }

    private RemotingCommand delete(RemotingCommand request) throws Exception {
        DeleteAckGroupRequest header = ProcessorSupport.header(request, DeleteAckGroupRequest.class);
        AckRequests.names(header.consumerGroup(), header.topic());
        boolean existed = ack.deleteGroup(header.consumerGroup(), header.topic()).join();
        return ProcessorSupport.answer(request, ResponseCode.SUCCESS, existed ? "deleted" : "no state");
    }

    private RemotingCommand list(RemotingCommand request) throws Exception {
        ListAckGroupsRequest header = ProcessorSupport.header(request, ListAckGroupsRequest.class);
        RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
        response.setBody(Json.encode(new AckGroups(ack.groupsWithPrefix(header.groupPrefix()))));
        return response;
    }

    private RemotingCommand stats(RemotingCommand request) throws Exception {
        AckStatsRequest header = ProcessorSupport.header(request, AckStatsRequest.class);
        String error = TopicValidator.checkGroup(header.consumerGroup());
        if (error == null && header.topic() != null) {
            error = TopicValidator.check(header.topic());
        }
        if (error != null) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, error);
        }
        RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
        response.setBody(Json.encode(ack.stats(header.consumerGroup(), header.topic())));
        return response;
    }
}

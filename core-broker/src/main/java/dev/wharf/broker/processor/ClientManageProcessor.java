package dev.wharf.broker.processor;

import dev.wharf.broker.group.ClientChannelInfo;
import dev.wharf.broker.group.ConsumerManager;
import dev.wharf.broker.group.ProducerManager;
import dev.wharf.broker.group.SubscriptionGroupConfig;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingCommandException;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.RocketMqVersions;
import dev.wharf.protocol.body.ConsumerModel.MessageModel;
import dev.wharf.protocol.body.Heartbeat.ConsumerData;
import dev.wharf.protocol.body.Heartbeat.ConsumerListBody;
import dev.wharf.protocol.body.Heartbeat.HeartbeatData;
import dev.wharf.protocol.body.Heartbeat.ProducerData;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.ClientHeaders.ConsumerGroupRequest;
import dev.wharf.protocol.header.ClientHeaders.UnregisterClientRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import java.util.function.LongSupplier;

/**
 * HEART_BEAT (a client's producer and consumer groups, with subscriptions), UNREGISTER_CLIENT and
 * GET_CONSUMER_LIST_BY_GROUP. A clustering consumer's first heartbeat also creates its group's settings and
 * its retry topic, so the NameServers learn the retry topic's route.
 */
public final class ClientManageProcessor implements RequestProcessor {

    private final ConsumerManager consumers;
    private final ProducerManager producers;
    private final SubscriptionGroupManager groups;
    private final TopicConfigManager topics;
    private final LongSupplier clock;

    public ClientManageProcessor(ConsumerManager consumers, ProducerManager producers, SubscriptionGroupManager groups,
                                 TopicConfigManager topics, LongSupplier clock) {
        this.consumers = consumers;
        this.producers = producers;
        this.groups = groups;
        this.topics = topics;
        this.clock = clock;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        return switch (request.code()) {
            case RequestCode.HEART_BEAT -> heartbeat(channel, request);
            case RequestCode.UNREGISTER_CLIENT -> unregister(channel, request);
            case RequestCode.GET_CONSUMER_LIST_BY_GROUP -> consumerList(request);
            default -> ProcessorSupport.answer(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    RequestCode.NAMES.describe(request.code()) + " is not served by the client manager");
        };
    }

    private RemotingCommand heartbeat(RemotingChannel channel, RemotingCommand request) throws RemotingCommandException {
        HeartbeatData data = ProcessorSupport.body(request, HeartbeatData.class);
        if (data.clientID() == null || data.clientID().isBlank()) {
            throw new RemotingCommandException("The heartbeat has no clientID; every client must identify itself.");
        }
        long now = clock.getAsLong();
        if (data.consumerDataSet() != null) {
            for (ConsumerData consumer : data.consumerDataSet()) {
                String error = TopicValidator.checkGroup(consumer.groupName());
                if (error != null) {
                    return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, error);
                }
            }
        }
        if (data.producerDataSet() != null) {
            for (ProducerData producer : data.producerDataSet()) {
                String error = TopicValidator.checkGroup(producer.groupName());
                if (error != null) {
                    return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, error);
                }
            }
        }
        if (data.consumerDataSet() != null) {
            for (ConsumerData consumer : data.consumerDataSet()) {
                String group = consumer.groupName();
                SubscriptionGroupConfig config = groups.findOrCreate(group);
                if (config == null) {
                    return ProcessorSupport.answer(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "The consumer"
                            + " group " + group + " is not known to this broker and autoCreateSubscriptionGroup is off;"
                            + " create the group first.");
                }
                if (consumer.messageModel() != MessageModel.BROADCASTING) {
                    topics.createIfAbsent(SystemTopics.retryTopic(group), config.retryQueueNums());
                }
                ClientChannelInfo client = new ClientChannelInfo(channel, data.clientID(), request.language(),
                        request.version(), now);
                consumers.registerConsumer(group, client, consumer.consumeType(), consumer.messageModel(),
                        consumer.consumeFromWhere(), consumer.subscriptionDataSet(), now);
            }
        }
        if (data.producerDataSet() != null) {
            for (ProducerData producer : data.producerDataSet()) {
                producers.registerProducer(producer.groupName(),
                        new ClientChannelInfo(channel, data.clientID(), request.language(), request.version(), now), now);
            }
        }
        // RocketMQ clients take the answer's version as the broker's release and gate features (SQL92) on it
        return ProcessorSupport.answer(request, ResponseCode.SUCCESS, null).setVersion(RocketMqVersions.V4_9_4);
    }

    private RemotingCommand unregister(RemotingChannel channel, RemotingCommand request) throws RemotingCommandException {
        UnregisterClientRequest header = ProcessorSupport.header(request, UnregisterClientRequest.class);
        if (header.producerGroup() != null && !header.producerGroup().isEmpty()) {
            producers.unregisterProducer(header.producerGroup(), channel);
        }
        if (header.consumerGroup() != null && !header.consumerGroup().isEmpty()) {
            consumers.unregisterConsumer(header.consumerGroup(), channel);
        }
        return ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
    }

    /** The members this broker knows; an empty list when none (the client then keeps its assignment). */
    private RemotingCommand consumerList(RemotingCommand request) throws RemotingCommandException {
        ConsumerGroupRequest header = ProcessorSupport.header(request, ConsumerGroupRequest.class);
        RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
        response.setBody(Json.encode(new ConsumerListBody(consumers.consumerIds(header.consumerGroup()))));
        return response;
    }
}

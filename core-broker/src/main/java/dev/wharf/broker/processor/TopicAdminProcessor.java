package dev.wharf.broker.processor;

import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.RocketMqVersions;
import dev.wharf.protocol.body.RocketMqBodies;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.RouteData.TopicConfigTable;
import dev.wharf.protocol.body.Stats.QueueBounds;
import dev.wharf.protocol.body.Stats.TopicStats;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.RouteHeaders.CreateTopicRequest;
import dev.wharf.protocol.header.RouteHeaders.TopicRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.MessageStore;
import java.util.ArrayList;
import java.util.List;

/**
 * Topic administration: UPDATE_AND_CREATE_TOPIC, DELETE_TOPIC_IN_BROKER (its consume queues and offsets go
 * too), GET_ALL_TOPIC_CONFIG and GET_TOPIC_STATS_INFO (per queue: min and max offset, last store time).
 */
public final class TopicAdminProcessor implements RequestProcessor {

    private final TopicConfigManager topics;
    private final MessageStore store;
    private final String brokerName;

    public TopicAdminProcessor(TopicConfigManager topics, MessageStore store, String brokerName) {
        this.topics = topics;
        this.store = store;
        this.brokerName = brokerName;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        switch (request.code()) {
            case RequestCode.UPDATE_AND_CREATE_TOPIC: {
                CreateTopicRequest h = ProcessorSupport.header(request, CreateTopicRequest.class);
                TopicConfig config = new TopicConfig(h.topic(), h.readQueueNums(), h.writeQueueNums(), h.perm(),
                        h.topicSysFlag(), h.order());
                String error = TopicConfigManager.check(config);
                if (error != null) {
                    return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, error);
                }
                topics.update(config);
                return ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
            }
            case RequestCode.DELETE_TOPIC_IN_BROKER: {
                TopicRequest h = ProcessorSupport.header(request, TopicRequest.class);
                try {
                    boolean existed = topics.delete(h.topic());
                    return ProcessorSupport.answer(request, ResponseCode.SUCCESS,
                            existed ? null : "The topic " + h.topic() + " did not exist on broker " + brokerName + ".");
                } catch (IllegalArgumentException e) {
                    return ProcessorSupport.answer(request, ResponseCode.NO_PERMISSION, e.getMessage());
                }
            }
            case RequestCode.GET_ALL_TOPIC_CONFIG: {
                RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
                return response.setBody(Json.encode(new TopicConfigTable(topics.all())));
            }
            case RequestCode.GET_TOPIC_STATS_INFO: {
                TopicRequest h = ProcessorSupport.header(request, TopicRequest.class);
                TopicConfig config = topics.find(h.topic());
                if (config == null) {
                    return ProcessorSupport.answer(request, ResponseCode.TOPIC_NOT_EXIST, "The topic " + h.topic()
                            + " does not exist on broker " + brokerName + ".");
                }
                List<QueueBounds> bounds = new ArrayList<>(config.writeQueueNums());
                for (int q = 0; q < Math.max(config.readQueueNums(), config.writeQueueNums()); q++) {
                    long min = store.getMinOffsetInQueue(h.topic(), q);
                    long max = store.getMaxOffsetInQueue(h.topic(), q);
                    long last = max > 0 ? store.getMessageStoreTimestamp(h.topic(), q, max - 1) : 0L;
                    bounds.add(new QueueBounds(new MessageQueue(h.topic(), brokerName, q), min, max, Math.max(0L, last)));
                }
                RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
                TopicStats stats = new TopicStats(bounds);
                return response.setBody(RocketMqVersions.fromRocketMqClient(request)
                        ? RocketMqBodies.topicStats(stats, 0) : Json.encode(stats));
            }
            case RequestCode.GET_TOPIC_CONFIG: {
                TopicRequest h = ProcessorSupport.header(request, TopicRequest.class);
                TopicConfig config = topics.find(h.topic());
                if (config == null) {
                    return ProcessorSupport.answer(request, ResponseCode.TOPIC_NOT_EXIST, "The topic " + h.topic()
                            + " does not exist on broker " + brokerName + ".");
                }
                RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
                return response.setBody(Json.encode(RocketMqBodies.TopicConfigBody.of(config)));
            }
            default:
                return ProcessorSupport.answer(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                        RequestCode.NAMES.describe(request.code()) + " is not served by the topic administration");
        }
    }
}

package dev.wharf.broker.processor;

import dev.wharf.broker.group.ConsumerGroupInfo;
import dev.wharf.broker.group.ConsumerManager;
import dev.wharf.broker.group.ConsumerNotifier;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.offset.ConsumerOffsetManager;
import dev.wharf.broker.offset.PullTracker;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.RocketMqVersions;
import dev.wharf.protocol.body.RocketMqBodies;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.Stats.ConsumeStats;
import dev.wharf.protocol.body.Stats.QueueOffset;
import dev.wharf.protocol.body.Stats.QueueProgress;
import dev.wharf.protocol.body.Stats.ResetOffsetBody;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.OffsetHeaders.ConsumeStatsRequest;
import dev.wharf.protocol.header.OffsetHeaders.ResetOffsetRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.MessageStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * Consumer administration: GET_CONSUME_STATS (per queue: the broker's max offset, the group's offset and the
 * group's last pull) and INVOKE_BROKER_TO_RESET_OFFSET (all queues by time, or, as RocketMQ's tools may ask, one
 * queue to a given offset). RocketMQ's tools get RocketMQ's body shapes.
 *
 * <p>How a reset reaches the consumers: the broker writes the new offsets at once (and persists them),
 * guards the moved queues against commits of the old positions, and sends every online member
 * NOTIFY_CONSUMER_IDS_CHANGED with {@code offsetResetTopic} set. A member drops its process queues of that
 * topic and re-reads their offsets (QUERY_CONSUMER_OFFSET), which lifts the guard. Members that are offline
 * find the new offsets when they start.
 */
public final class ConsumerAdminProcessor implements RequestProcessor {

    private final TopicConfigManager topics;
    private final ConsumerOffsetManager offsets;
    private final ConsumerManager consumers;
    private final SubscriptionGroupManager groups;
    private final PullTracker tracker;
    private final ConsumerNotifier notifier;
    private final MessageStore store;
    private final String brokerName;
    private final LongSupplier clock;

    public ConsumerAdminProcessor(TopicConfigManager topics, ConsumerOffsetManager offsets, ConsumerManager consumers,
                                  SubscriptionGroupManager groups, PullTracker tracker, ConsumerNotifier notifier,
                                  MessageStore store, String brokerName, LongSupplier clock) {
        this.topics = topics;
        this.offsets = offsets;
        this.consumers = consumers;
        this.groups = groups;
        this.tracker = tracker;
        this.notifier = notifier;
        this.store = store;
        this.brokerName = brokerName;
        this.clock = clock;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        return switch (request.code()) {
            case RequestCode.GET_CONSUME_STATS -> consumeStats(request);
            case RequestCode.INVOKE_BROKER_TO_RESET_OFFSET -> resetOffset(request);
            default -> ProcessorSupport.answer(request, ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                    RequestCode.NAMES.describe(request.code()) + " is not served by the consumer administration");
        };
    }

    private RemotingCommand consumeStats(RemotingCommand request) throws Exception {
        ConsumeStatsRequest h = ProcessorSupport.header(request, ConsumeStatsRequest.class);
        String group = h.consumerGroup();
        String error = TopicValidator.checkGroup(group);
        if (error != null) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, error);
        }
        Set<String> groupTopics = new TreeSet<>();
        if (h.topic() != null && !h.topic().isEmpty()) {
            groupTopics.add(h.topic());
        } else {
            groupTopics.addAll(offsets.topicsOf(group));
            ConsumerGroupInfo info = consumers.group(group);
            if (info != null) {
                groupTopics.addAll(info.subscriptions().keySet());
            }
        }
        if (groupTopics.isEmpty() && groups.find(group) == null) {
            return ProcessorSupport.answer(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "The group " + group
                    + " has no offsets, no online consumer and no settings on broker " + brokerName
                    + "; check the group name.");
        }
        List<QueueProgress> progress = new ArrayList<>();
        for (String topic : groupTopics) {
            TopicConfig config = topics.find(topic);
            if (config == null) {
                continue;
            }
            for (int q = 0; q < config.readQueueNums(); q++) {
                long brokerOffset = store.getMaxOffsetInQueue(topic, q);
                long consumerOffset = Math.max(0L, offsets.queryOffset(group, topic, q));
                progress.add(new QueueProgress(new MessageQueue(topic, brokerName, q), brokerOffset, consumerOffset,
                        tracker.lastPullTimestamp(group, topic, q)));
            }
        }
        RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
        ConsumeStats stats = new ConsumeStats(progress, tracker.pullTps(group, clock.getAsLong()));
        return response.setBody(RocketMqVersions.fromRocketMqClient(request)
                ? RocketMqBodies.consumeStats(stats) : Json.encode(stats));
    }

    private RemotingCommand resetOffset(RemotingCommand request) throws Exception {
        ResetOffsetRequest h = ProcessorSupport.header(request, ResetOffsetRequest.class);
        String error = TopicValidator.checkGroup(h.group());
        if (error != null) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, error);
        }
        TopicConfig config = topics.find(h.topic());
        if (config == null) {
            return ProcessorSupport.answer(request, ResponseCode.TOPIC_NOT_EXIST, "The topic " + h.topic()
                    + " does not exist on broker " + brokerName + "; nothing to reset.");
        }
        long timestamp = h.timestamp();
        if (timestamp < 0 && timestamp != ResetOffsetRequest.EARLIEST && timestamp != ResetOffsetRequest.LATEST) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, "timestamp " + timestamp
                    + " is not valid; use -1 (earliest), -2 (latest) or a time in epoch milliseconds.");
        }
        // RocketMQ's tools may name one queue and the offset to set it to (-1: none, find it by the timestamp)
        int onlyQueue = request.extInt("queueId", -1);
        long givenOffset = request.extLong("offset", -1L);
        if (onlyQueue >= config.readQueueNums()) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, "queueId " + onlyQueue
                    + " does not exist: the topic " + h.topic() + " has " + config.readQueueNums() + " queues on broker "
                    + brokerName + ".");
        }
        Map<Integer, Long> target = new TreeMap<>();
        List<QueueOffset> answer = new ArrayList<>();
        for (int q = 0; q < config.readQueueNums(); q++) {
            if (onlyQueue >= 0 && q != onlyQueue) {
                continue;
            }
            long offset;
            if (onlyQueue >= 0 && givenOffset >= 0) {
                offset = Math.min(Math.max(givenOffset, store.getMinOffsetInQueue(h.topic(), q)),
                        store.getMaxOffsetInQueue(h.topic(), q));
            } else if (timestamp == ResetOffsetRequest.EARLIEST) {
                offset = store.getMinOffsetInQueue(h.topic(), q);
            } else if (timestamp == ResetOffsetRequest.LATEST) {
                offset = store.getMaxOffsetInQueue(h.topic(), q);
            } else {
                offset = store.getOffsetInQueueByTime(h.topic(), q, timestamp);
            }
            long current = offsets.queryOffset(h.group(), h.topic(), q);
            // without force, a reset only moves back: it never skips messages the group has not consumed
            if (!h.isForce() && onlyQueue < 0 && current >= 0 && offset > current) {
                offset = current;
            }
            target.put(q, offset);
            answer.add(new QueueOffset(new MessageQueue(h.topic(), brokerName, q), offset));
        }
        offsets.resetOffsets(h.group(), h.topic(), target);
        offsets.persist();
        ConsumerGroupInfo info = consumers.group(h.group());
        if (info != null) {
            notifier.offsetsReset(h.group(), h.topic(), info.members(), timestamp,
                    RocketMqBodies.resetOffset(new ResetOffsetBody(answer)));
        }
        RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
        ResetOffsetBody body = new ResetOffsetBody(answer);
        return response.setBody(RocketMqVersions.fromRocketMqClient(request)
                ? RocketMqBodies.resetOffset(body) : Json.encode(body));
    }
}

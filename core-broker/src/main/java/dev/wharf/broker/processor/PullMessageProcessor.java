package dev.wharf.broker.processor;

import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.broker.filter.CompiledSubscription;
import dev.wharf.broker.filter.SubscriptionCache;
import dev.wharf.broker.filter.SubscriptionMessageFilter;
import dev.wharf.broker.group.ConsumerGroupInfo;
import dev.wharf.broker.group.ConsumerManager;
import dev.wharf.broker.group.SubscriptionGroupConfig;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.longpolling.HeldPullRequest;
import dev.wharf.broker.longpolling.PullRequestHoldService;
import dev.wharf.broker.offset.ConsumerOffsetManager;
import dev.wharf.broker.offset.PullTracker;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.filter.InvalidSelectorException;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import dev.wharf.protocol.body.ConsumerModel.MessageModel;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.MessageHeaders.PullMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.PullMessageResponse;
import dev.wharf.protocol.header.MessageHeaders.PullSysFlag;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.GetMessageResult;
import dev.wharf.store.GetMessageStatus;
import dev.wharf.store.MessageFilter;
import dev.wharf.store.MessageStore;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PULL_MESSAGE: reads up to maxMsgNums messages of one queue through the subscription's filter and answers
 * with the stored records as the body, sent from the mapped files without a heap copy. A pull that finds
 * nothing and carries the SUSPEND flag is held ({@link PullRequestHoldService}) until a message arrives or
 * its suspend time runs out; it is then run again on the pull executor and answered.
 *
 * <p>Store statuses map as in RocketMQ: FOUND is SUCCESS; an empty queue or the queue's end is
 * PULL_NOT_FOUND; an offset below the first or far beyond the last stored message is PULL_OFFSET_MOVED with
 * the offset to continue from; units the filter rejected are PULL_RETRY_IMMEDIATELY with the offset past them.
 */
public final class PullMessageProcessor implements RequestProcessor {

    private static final Logger log = LoggerFactory.getLogger(PullMessageProcessor.class);
    /** A failing store fails every held pull: one line per interval, not one per request. */
    private final RateLimitedLog warnings = RateLimitedLog.of(log);

    private final BrokerConfig config;
    private final MessageStore store;
    private final TopicConfigManager topics;
    private final ConsumerManager consumers;
    private final SubscriptionGroupManager groups;
    private final ConsumerOffsetManager offsets;
    private final PullTracker tracker;
    private final SubscriptionCache subscriptions;
    private final PullRequestHoldService holdService;
    private final Executor pullExecutor;
    private final LongSupplier clock;
    private final ReadSuggestion suggestion;

    public PullMessageProcessor(BrokerConfig config, MessageStore store, TopicConfigManager topics,
                                ConsumerManager consumers, SubscriptionGroupManager groups,
                                ConsumerOffsetManager offsets, PullTracker tracker, SubscriptionCache subscriptions,
                                PullRequestHoldService holdService, Executor pullExecutor, LongSupplier clock) {
        this(config, store, topics, consumers, groups, offsets, tracker, subscriptions, holdService, pullExecutor, clock,
                new ReadSuggestion(config.getBrokerId(), config.slaves().getWhichBrokerWhenConsumeSlowly(),
                        config.slaves().getAccessMessageInMemoryMaxRatio(), () -> false, store::getMaxPhyOffset));
    }

    /** @param suggestion which broker of the group each answer suggests for the next pull */
    public PullMessageProcessor(BrokerConfig config, MessageStore store, TopicConfigManager topics,
                                ConsumerManager consumers, SubscriptionGroupManager groups,
                                ConsumerOffsetManager offsets, PullTracker tracker, SubscriptionCache subscriptions,
                                PullRequestHoldService holdService, Executor pullExecutor, LongSupplier clock,
                                ReadSuggestion suggestion) {
        this.suggestion = suggestion;
        this.config = config;
        this.store = store;
        this.topics = topics;
        this.consumers = consumers;
        this.groups = groups;
        this.offsets = offsets;
        this.tracker = tracker;
        this.subscriptions = subscriptions;
        this.holdService = holdService;
        this.pullExecutor = pullExecutor;
        this.clock = clock;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        return pull(channel, request, true);
    }

    /**
     * Serves a pull.
     *
     * @param fresh true for a pull as it arrives; false when a held pull is run again (it is answered whatever
     *              it finds, and its offset commit has already been applied)
     * @return the response, or null when the pull is held
     */
    private RemotingCommand pull(RemotingChannel channel, RemotingCommand request, boolean fresh) throws Exception {
        PullMessageRequest header = ProcessorSupport.header(request, PullMessageRequest.class);
        String group = header.consumerGroup();
        String topic = header.topic();
        String error = TopicValidator.checkGroup(group);
        if (error == null) {
            error = TopicValidator.check(topic);
        }
        if (error != null) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, error);
        }
        SubscriptionGroupConfig groupConfig = groups.findOrCreate(group);
        if (groupConfig == null) {
            return ProcessorSupport.answer(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "The consumer group "
                    + group + " is not known to broker " + config.getBrokerName() + " and autoCreateSubscriptionGroup"
                    + " is off; create the group first.");
        }
        if (!groupConfig.consumeEnable()) {
            return ProcessorSupport.answer(request, ResponseCode.NO_PERMISSION, "Consumption is disabled for group "
                    + group + " on broker " + config.getBrokerName() + " (consumeEnable=false).");
        }
        if (SystemTopics.isInternal(topic)) {
            return ProcessorSupport.answer(request, ResponseCode.NO_PERMISSION, "The topic " + topic
                    + " is internal to the broker; applications cannot consume it directly.");
        }
        TopicConfig topicConfig = topics.find(topic);
        if (topicConfig == null) {
            return ProcessorSupport.answer(request, ResponseCode.TOPIC_NOT_EXIST, "The topic " + topic
                    + " does not exist on broker " + config.getBrokerName() + "; create it (or send to it with"
                    + " autoCreateTopicEnable on) before consuming.");
        }
        if (!topicConfig.isReadable()) {
            return ProcessorSupport.answer(request, ResponseCode.NO_PERMISSION, "The topic " + topic
                    + " is not readable on broker " + config.getBrokerName() + ".");
        }
        int queueId = header.queueId();
        if (queueId < 0 || queueId >= topicConfig.readQueueNums()) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, "queueId " + queueId
                    + " is out of range: the topic " + topic + " has " + topicConfig.readQueueNums()
                    + " read queues on broker " + config.getBrokerName() + " (0.." + (topicConfig.readQueueNums() - 1)
                    + "); refresh the route.");
        }
        if (header.maxMsgNums() <= 0) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, "maxMsgNums is "
                    + header.maxMsgNums() + "; ask for at least 1 message (the broker returns at most "
                    + store.config().getMaxTransferCountOnMessageInMemory() + " per pull).");
        }
        if (header.queueOffset() < 0) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, "queueOffset is "
                    + header.queueOffset() + "; offsets start at 0 (query the consumer offset or the queue's min"
                    + " offset first).");
        }
        ConsumerGroupInfo groupInfo = consumers.group(group);
        if (groupInfo != null && groupInfo.messageModel() == MessageModel.BROADCASTING
                && !groupConfig.consumeBroadcastEnable()) {
            return ProcessorSupport.answer(request, ResponseCode.NO_PERMISSION, "The group " + group
                    + " may not consume in broadcasting mode on broker " + config.getBrokerName() + ".");
        }
        CompiledSubscription subscription;
        try {
            subscription = subscription(header, group, topic);
        } catch (InvalidSelectorException e) {
            return ProcessorSupport.answer(request, ResponseCode.SUBSCRIPTION_PARSE_FAILED, e.getMessage());
        } catch (SubscriptionProblem e) {
            return ProcessorSupport.answer(request, e.code, e.getMessage());
        }

        boolean hasSuspend = (header.sysFlag() & PullSysFlag.SUSPEND) != 0;
        boolean hasCommit = (header.sysFlag() & PullSysFlag.COMMIT_OFFSET) != 0;
        MessageFilter filter = subscription.matchesAll() ? MessageFilter.ALL : new SubscriptionMessageFilter(subscription);
        int maxNums = Math.min(header.maxMsgNums(), store.config().getMaxTransferCountOnMessageInMemory());
        GetMessageResult result = store.getMessage(topic, queueId, header.queueOffset(), maxNums,
                store.config().getMaxTransferBytesOnMessageInMemory(), filter);
        long now = clock.getAsLong();
        // a slave never takes an offset carried by a pull (explicit commits only, see dev.wharf.broker.slave)
        if (fresh && hasCommit && header.commitOffset() >= 0 && !config.isSlave()) {
            offsets.commitOffset(group, topic, queueId, header.commitOffset());
        }
        if (result == null) {
            return ProcessorSupport.answer(request, ResponseCode.SYSTEM_ERROR, "The store returned no result for "
                    + topic + "#" + queueId + "; retry.");
        }
        tracker.recordPull(group, topic, queueId, result.messageCount(), now);
        int code = responseCode(result);
        long nextBeginOffset = result.nextBeginOffset();
        if (config.isSlave() && result.status() == GetMessageStatus.OFFSET_OVERFLOW_BADLY) {
            // the consumer read further on the master than this slave has replicated yet: it waits here for the
            // copy to catch up rather than being sent back to re-read the queue
            code = ResponseCode.PULL_NOT_FOUND;
            nextBeginOffset = header.queueOffset();
        }
        if (code == ResponseCode.PULL_NOT_FOUND && fresh && hasSuspend) {
            long suspend = config.polling().holdMillis(header.suspendTimeoutMillis());
            if (suspend > 0) {
                result.release();
                long deadline = now + suspend;
                holdService.suspend(new HeldPullRequest(topic, queueId, header.queueOffset(), deadline,
                        subscription::matchesTagsCode, () -> wake(channel, request)));
                return null;
            }
        }
        RemotingCommand response = ProcessorSupport.answer(request, code, remark(code, result));
        ProcessorSupport.writeHeader(response, new PullMessageResponse(suggestion.suggest(pulledEnd(result)),
                nextBeginOffset, result.minOffset(), result.maxOffset()));
        if (code == ResponseCode.SUCCESS) {
            List<ByteBuffer> bodies = new ArrayList<>(result.messageCount());
            for (SelectMappedBufferResult buffer : result.buffers()) {
                bodies.add(buffer.byteBuffer());
            }
            response.setBodyBuffers(bodies, result::release);
        } else {
            result.release();
        }
        return response;
    }

    /** A held pull wakes: run it again on the pull executor and answer it. */
    private void wake(RemotingChannel channel, RemotingCommand request) {
        if (!channel.isActive()) {
            return;
        }
        try {
            pullExecutor.execute(() -> {
                RemotingCommand response;
                try {
                    response = pull(channel, request, false);
                } catch (Exception e) {
                    warnings.warn("held-failed", "A held pull from {} failed when run again: {}",
                            channel.remoteAddress(), e.toString());
                    response = ProcessorSupport.answer(request, ResponseCode.SYSTEM_ERROR, e.getMessage());
                }
                if (response != null) {
                    channel.writeResponse(response);
                }
            });
        } catch (RejectedExecutionException e) {
            channel.writeResponse(ProcessorSupport.answer(request, ResponseCode.SYSTEM_BUSY,
                    "[OVERLOAD] broker busy, try later"));
        }
    }

    private static long pulledEnd(GetMessageResult result) {
        if (result.status() != GetMessageStatus.FOUND || result.buffers().isEmpty()) {
            return -1;
        }
        SelectMappedBufferResult last = result.buffers().get(result.buffers().size() - 1);
        return last.startOffset() + last.size();
    }

    private static int responseCode(GetMessageResult result) {
        return switch (result.status()) {
            case FOUND -> ResponseCode.SUCCESS;
            case NO_MATCHED_MESSAGE, MESSAGE_WAS_REMOVING -> ResponseCode.PULL_RETRY_IMMEDIATELY;
            case OFFSET_TOO_SMALL, OFFSET_OVERFLOW_BADLY -> ResponseCode.PULL_OFFSET_MOVED;
            case NO_MESSAGE_IN_QUEUE, OFFSET_OVERFLOW_ONE, OFFSET_FOUND_NULL, NO_MATCHED_LOGIC_QUEUE ->
                    ResponseCode.PULL_NOT_FOUND;
        };
    }

    private static String remark(int code, GetMessageResult result) {
        return switch (code) {
            case ResponseCode.PULL_OFFSET_MOVED -> "The offset is outside the stored messages (" + result.minOffset()
                    + ".." + result.maxOffset() + "); continue from " + result.nextBeginOffset() + ".";
            case ResponseCode.PULL_RETRY_IMMEDIATELY -> result.status().name();
            default -> null;
        };
    }

    /** A pull's subscription cannot be resolved; carries the response code. */
    private static final class SubscriptionProblem extends Exception {
        private static final long serialVersionUID = 1L;
        final int code;

        SubscriptionProblem(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    private CompiledSubscription subscription(PullMessageRequest header, String group, String topic)
            throws SubscriptionProblem {
        if ((header.sysFlag() & PullSysFlag.SUBSCRIPTION) != 0) {
            ExpressionType type = expressionType(header.expressionType());
            if (type == null) {
                throw new SubscriptionProblem(ResponseCode.SUBSCRIPTION_PARSE_FAILED, "expressionType \""
                        + header.expressionType() + "\" is not known; use TAG or SQL92.");
            }
            return subscriptions.get(group, topic, type, header.subscription());
        }
        SubscriptionData declared = consumers.findSubscription(group, topic);
        if (declared == null) {
            throw new SubscriptionProblem(ResponseCode.SUBSCRIPTION_NOT_EXIST, "The group " + group + " has no subscription to " + topic + " on broker "
                    + config.getBrokerName() + ": send a heartbeat that subscribes to it, or pull with the"
                    + " SUBSCRIPTION flag and the expression.");
        }
        ExpressionType type = declared.expressionType() == null ? ExpressionType.TAG : declared.expressionType();
        return subscriptions.get(group, topic, type, declared.subString());
    }

    private static ExpressionType expressionType(String raw) {
        if (raw == null || raw.isBlank()) {
            return ExpressionType.TAG;
        }
        try {
            return ExpressionType.valueOf(raw.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}

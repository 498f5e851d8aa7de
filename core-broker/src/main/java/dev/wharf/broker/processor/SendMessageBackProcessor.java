package dev.wharf.broker.processor;

import dev.wharf.broker.group.SubscriptionGroupConfig;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.processor.PutMessageHook.Refusal;
import dev.wharf.broker.processor.PutMessageHook.SendContext;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.common.message.Tags;
import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.MessageHeaders.ConsumerSendMsgBackRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.MessageStore;
import dev.wharf.store.PutMessageResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CONSUMER_SEND_MSG_BACK: a consumer of {@code group} failed a message; store it again for a later retry, or
 * dead-letter it.
 *
 * <ul>
 * <li>Retry: a new record in {@code %RETRY%{group}} (created on demand with the group's retryQueueNums, one by
 *     default), RECONSUMETIMES + 1, delayed by level {@code 3 + reconsumeTimes} (or the request's delayLevel
 *     when &gt; 0; levels above the last are clamped by the scheduler).</li>
 * <li>Dead letter: when the message was already reconsumed {@code maxReconsumeTimes} times (the request's
 *     value, else the message's MAX_RECONSUME_TIMES, else the group's retryMaxTimes) or the request's
 *     delayLevel is -1, it goes to {@code %DLQ%{group}} (one queue, created on demand), undelayed.</li>
 * </ul>
 *
 * Either way the copy keeps body, flag, keys, unique id and properties, and records RETRY_TOPIC (the topic the
 * message was first sent to), ORIGIN_MESSAGE_ID and FIRST_FAILURE_TIME, each set once and kept across retries.
 * The retry copy passes the broker's {@link PutMessageHook}s like a sent message (that is how its delay
 * reaches the scheduler). Answered after the store's completion, like a send.
 */
public final class SendMessageBackProcessor implements RequestProcessor {

    private static final Logger log = LoggerFactory.getLogger(SendMessageBackProcessor.class);
    /** The first retry waits level 3 (10 s with the default levels), each further one a level more. */
    static final int FIRST_RETRY_LEVEL = 3;

    /** A failing store fails every send-back: one line per interval, not one per message. */
    private final RateLimitedLog warnings = RateLimitedLog.of(log);
    private final String brokerName;
    private final MessageStore store;
    private final TopicConfigManager topics;
    private final SubscriptionGroupManager groups;
    private final List<PutMessageHook> hooks;
    private final LongSupplier storeHost;
    private final LongSupplier clock;

    public SendMessageBackProcessor(String brokerName, MessageStore store, TopicConfigManager topics,
                                    SubscriptionGroupManager groups, List<PutMessageHook> hooks, LongSupplier storeHost,
                                    LongSupplier clock) {
        this.brokerName = brokerName;
        this.store = store;
        this.topics = topics;
        this.groups = groups;
        this.hooks = hooks;
        this.storeHost = storeHost;
        this.clock = clock;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        ConsumerSendMsgBackRequest header = ProcessorSupport.header(request, ConsumerSendMsgBackRequest.class);
        String group = header.group();
        String error = TopicValidator.checkGroup(group);
        if (error != null) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, error);
        }
        SubscriptionGroupConfig groupConfig = groups.findOrCreate(group);
        if (groupConfig == null) {
            return ProcessorSupport.answer(request, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "The consumer group "
                    + group + " is not known to broker " + brokerName + " and autoCreateSubscriptionGroup is off;"
                    + " create the group first.");
        }
        if (header.delayLevel() < -1) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, "delayLevel is "
                    + header.delayLevel() + "; use 0 (the broker chooses), a delay level from 1, or -1 (straight to"
                    + " the dead-letter queue).");
        }
        MessageExt failed = header.offset() < 0 ? null : store.readMessageAt(header.offset());
        if (failed == null) {
            return ProcessorSupport.answer(request, ResponseCode.SYSTEM_ERROR, "No message starts at commit-log"
                    + " offset " + header.offset() + " on broker " + brokerName + " (cleaned up, or not an offset"
                    + " this broker returned); consume the message again locally instead.");
        }
        int reconsumeTimes = failed.getReconsumeTimes();
        int maxReconsumeTimes = maxReconsumeTimes(header, failed, groupConfig);
        boolean deadLetter = header.delayLevel() == -1 || reconsumeTimes >= maxReconsumeTimes;
        String target = deadLetter ? SystemTopics.dlqTopic(group) : SystemTopics.retryTopic(group);
        TopicConfig topic = deadLetter ? topics.createDlqTopicIfAbsent(group)
                : topics.createIfAbsent(target, Math.max(1, groupConfig.retryQueueNums()));
        if (!topic.isWritable()) {
            return ProcessorSupport.answer(request, ResponseCode.NO_PERMISSION, "The topic " + target + " is not"
                    + " writable on broker " + brokerName + "; restore its write permission.");
        }
        MessageToStore msg = copy(failed, header, target, Math.floorMod(failed.getQueueOffset(),
                topic.writeQueueNums()));
        if (header.maxReconsumeTimes() != null && header.maxReconsumeTimes() >= 0) {
            msg.putProperty(MessageProperties.MAX_RECONSUME_TIMES, String.valueOf(header.maxReconsumeTimes()));
        }
        if (!deadLetter) {
            int level = header.delayLevel() > 0 ? header.delayLevel() : FIRST_RETRY_LEVEL + reconsumeTimes;
            msg.putProperty(MessageProperties.DELAY_TIME_LEVEL, String.valueOf(level));
            Refusal refusal = PutMessageHook.runAll(hooks, new SendContext(group, channel, false), msg);
            if (refusal != null) {
                return ProcessorSupport.answer(request, refusal.responseCode(), refusal.remark());
            }
        } else {
            log.debug("Message {} of group {} goes to {} after {} reconsumptions", msg.getProperty(
                    MessageProperties.ORIGIN_MESSAGE_ID), group, target, reconsumeTimes);
        }
        store.asyncPutMessage(msg).whenComplete((result, failure) -> {
            RemotingCommand response = respond(request, result, failure, target);
            if (!request.isOneway()) {
                channel.writeResponse(response);
            }
        });
        return null;
    }

    private static int maxReconsumeTimes(ConsumerSendMsgBackRequest header, MessageExt failed,
                                         SubscriptionGroupConfig group) {
        if (header.maxReconsumeTimes() != null && header.maxReconsumeTimes() >= 0) {
            return header.maxReconsumeTimes();
        }
        String property = failed.getProperty(MessageProperties.MAX_RECONSUME_TIMES);
        if (property != null) {
            try {
                int value = Integer.parseInt(property.trim());
                if (value >= 0) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // not a number: the group's setting applies
            }
        }
        return group.retryMaxTimes();
    }

    private MessageToStore copy(MessageExt failed, ConsumerSendMsgBackRequest header, String topic,
                                       int queueId) {
        Map<String, String> properties = new HashMap<>(failed.getProperties());
        // the scheduler's own marks belong to the earlier delivery, not to this new message
        properties.remove(MessageProperties.SCHEDULE_SOURCE);
        properties.remove(MessageProperties.DELAY_TIME_LEVEL);
        properties.remove(MessageProperties.DELIVER_TIME_MS);
        properties.remove(MessageProperties.DELAY_MS);
        properties.remove(MessageProperties.REAL_TOPIC);
        properties.remove(MessageProperties.REAL_QUEUE_ID);
        properties.remove(MessageProperties.TRANSACTION_PREPARED);
        properties.putIfAbsent(MessageProperties.RETRY_TOPIC, header.originTopic() != null
                && !header.originTopic().isBlank() && !SystemTopics.isRetryTopic(failed.getTopic())
                ? header.originTopic() : failed.getTopic());
        properties.putIfAbsent(MessageProperties.ORIGIN_MESSAGE_ID, header.originMsgId() != null
                && !header.originMsgId().isBlank() ? header.originMsgId() : failed.getMsgId());
        properties.putIfAbsent(MessageProperties.FIRST_FAILURE_TIME, String.valueOf(clock.getAsLong()));

        MessageToStore msg = new MessageToStore();
        msg.setTopic(topic);
        msg.setQueueId(queueId);
        msg.setFlag(failed.getFlag());
        msg.setBody(failed.getBody());
        msg.setProperties(properties);
        msg.setTagsCode(Tags.hash(properties.get(MessageProperties.TAGS)));
        msg.setSysFlag(MessageSysFlag.withTransactionType(failed.getSysFlag(), MessageSysFlag.TRANSACTION_NOT_TYPE));
        msg.setBornTimestamp(failed.getBornTimestamp());
        msg.setBornHost(failed.getBornHost());
        msg.setStoreHost(storeHost.getAsLong());
        msg.setReconsumeTimes(failed.getReconsumeTimes() + 1);
        msg.setBrokerName(brokerName);
        return msg;
    }

    private RemotingCommand respond(RemotingCommand request, PutMessageResult result, Throwable failure,
                                    String target) {
        if (failure != null) {
            warnings.warn("store-failed", "Storing a sent-back message into {} failed: {}", target,
                    failure.toString());
            return ProcessorSupport.answer(request, ResponseCode.SYSTEM_ERROR,
                    "The broker could not store the message for retry: " + failure.getMessage());
        }
        return switch (result.status()) {
            case PUT_OK, FLUSH_DISK_TIMEOUT -> ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
            case SERVICE_NOT_AVAILABLE -> ProcessorSupport.answer(request, ResponseCode.SERVICE_NOT_AVAILABLE,
                    "The broker " + brokerName + " is not accepting messages now; keep the message and retry.");
            default -> ProcessorSupport.answer(request, ResponseCode.SYSTEM_ERROR, "The broker " + brokerName
                    + " could not store the message into " + target + " (" + result.status() + "): "
                    + result.errorMessage());
        };
    }
}

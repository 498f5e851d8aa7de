package dev.wharf.broker.processor;

import dev.wharf.broker.ack.AckService;
import dev.wharf.broker.filter.CompiledSubscription;
import dev.wharf.broker.group.SubscriptionGroupConfig;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.filter.InvalidSelectorException;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.AckHeaders;
import java.util.Locale;

/**
 * The checks the acknowledgement requests share (names, group, topic, queue, counts, offset lists), each
 * throwing a {@link Refused} that carries the response code and a sentence saying what to do.
 */
final class AckRequests {

    /** Longest lease or redelivery delay a request may ask for: one day. */
    static final long MAX_INVISIBLE_TIME = 86_400_000L;
    /** Longest a pop may wait for a message: five minutes. */
    static final long MAX_POLL_TIME = 300_000L;

    /** A request that cannot be served; carries the answer. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final int code;

        Refused(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        RemotingCommand answer(RemotingCommand request) {
            return ProcessorSupport.answer(request, code, getMessage());
        }
    }

    private final String brokerName;
    private final TopicConfigManager topics;
    private final SubscriptionGroupManager groups;
    private final AckService ack;

    AckRequests(String brokerName, TopicConfigManager topics, SubscriptionGroupManager groups, AckService ack) {
        this.brokerName = brokerName;
        this.topics = topics;
        this.groups = groups;
        this.ack = ack;
    }

    static void names(String group, String topic) throws Refused {
        String error = TopicValidator.checkGroup(group);
        if (error == null) {
            error = TopicValidator.check(topic);
        }
        if (error != null) {
            throw new Refused(ResponseCode.REQUEST_HEADER_INVALID, error);
        }
        if (SystemTopics.isInternal(topic)) {
            throw new Refused(ResponseCode.NO_PERMISSION, "The topic " + topic + " is internal to the broker;"
                    + " applications cannot consume it directly.");
        }
    }

    /** The group's settings (created on first use when allowed); consumption must be enabled. */
    void consumableGroup(String group) throws Refused {
        SubscriptionGroupConfig config = groups.findOrCreate(group);
        if (config == null) {
            throw new Refused(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "The consumer group " + group + " is not"
                    + " known to broker " + brokerName + " and autoCreateSubscriptionGroup is off; create the group"
                    + " first.");
        }
        if (!config.consumeEnable()) {
            throw new Refused(ResponseCode.NO_PERMISSION, "Consumption is disabled for group " + group
                    + " on broker " + brokerName + " (consumeEnable=false).");
        }
    }

    /** The topic, which must exist here and be readable. */
    TopicConfig readableTopic(String topic) throws Refused {
        TopicConfig config = topics.find(topic);
        if (config == null) {
            throw new Refused(ResponseCode.TOPIC_NOT_EXIST, "The topic " + topic + " does not exist on broker "
                    + brokerName + "; create it (or send to it with autoCreateTopicEnable on) before consuming.");
        }
        if (!config.isReadable()) {
            throw new Refused(ResponseCode.NO_PERMISSION, "The topic " + topic + " is not readable on broker "
                    + brokerName + ".");
        }
        return config;
    }

    /** A queue id of the topic (or -1 when {@code anyAllowed}). */
    void queueId(TopicConfig topic, int queueId, boolean anyAllowed) throws Refused {
        if (anyAllowed && queueId == -1) {
            return;
        }
        if (queueId < 0 || queueId >= topic.readQueueNums()) {
            throw new Refused(ResponseCode.REQUEST_HEADER_INVALID, "queueId " + queueId + " is out of range: the"
                    + " topic " + topic.topicName() + " has " + topic.readQueueNums() + " read queues on broker "
                    + brokerName + " (0.." + (topic.readQueueNums() - 1) + ")" + (anyAllowed ? ", or -1 for any" : "")
                    + "; refresh the route.");
        }
    }

    static void maxMsgNums(int maxMsgNums) throws Refused {
        if (maxMsgNums < 1 || maxMsgNums > AckHeaders.MAX_POP_NUMS) {
            throw new Refused(ResponseCode.REQUEST_HEADER_INVALID, "maxMsgNums is " + maxMsgNums + "; ask for 1 to "
                    + AckHeaders.MAX_POP_NUMS + " messages.");
        }
    }

    static void range(String field, long value, long min, long max, String unit) throws Refused {
        if (value < min || value > max) {
            throw new Refused(ResponseCode.REQUEST_HEADER_INVALID, field + " is " + value + "; use " + min + " to "
                    + max + " " + unit + ".");
        }
    }

    /** The compiled expression; an empty expression matches everything. */
    CompiledSubscription subscription(String expressionType, String expression) throws Refused {
        ExpressionType type;
        if (expressionType == null || expressionType.isBlank()) {
            type = ExpressionType.TAG;
        } else {
            try {
                type = ExpressionType.valueOf(expressionType.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new Refused(ResponseCode.SUBSCRIPTION_PARSE_FAILED, "expressionType \"" + expressionType
                        + "\" is not known; use TAG or SQL92.");
            }
        }
        try {
            return ack.compile(type, expression);
        } catch (InvalidSelectorException e) {
            throw new Refused(ResponseCode.SUBSCRIPTION_PARSE_FAILED, e.getMessage());
        }
    }

    /** Parses a comma-separated list of queue offsets. */
    static long[] offsets(String field, String list) throws Refused {
        String[] parts = split(field, list);
        long[] out = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Long.parseLong(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new Refused(ResponseCode.REQUEST_HEADER_INVALID, field + " holds \"" + parts[i].trim()
                        + "\", which is not a queue offset; send offsets as decimal numbers separated by commas.");
            }
            if (out[i] < 0) {
                throw new Refused(ResponseCode.REQUEST_HEADER_INVALID, field + " holds the negative offset " + out[i]
                        + "; queue offsets start at 0.");
            }
        }
        return out;
    }

    /** Parses a comma-separated list of delivery counts that must match {@code expected} offsets. */
    static int[] counts(String field, String list, int expected) throws Refused {
        String[] parts = split(field, list);
        if (parts.length != expected) {
            throw new Refused(ResponseCode.REQUEST_HEADER_INVALID, field + " holds " + parts.length + " values for "
                    + expected + " offsets; send one delivery count per offset, in the same order.");
        }
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new Refused(ResponseCode.REQUEST_HEADER_INVALID, field + " holds \"" + parts[i].trim()
                        + "\", which is not a delivery count.");
            }
        }
        return out;
    }

    /** Every offset must be below the queue's end. */
    void belowEnd(long[] offsets, long queueEnd, String topic, int queueId) throws Refused {
        for (long offset : offsets) {
            if (offset >= queueEnd) {
                throw new Refused(ResponseCode.REQUEST_HEADER_INVALID, "The offset " + offset + " is beyond the end ("
                        + queueEnd + ") of " + topic + "#" + queueId + " on broker " + brokerName + "; acknowledge"
                        + " only offsets of messages you received from this broker.");
            }
        }
    }

    private static String[] split(String field, String list) throws Refused {
        if (list == null || list.isBlank()) {
            throw new Refused(ResponseCode.REQUEST_HEADER_INVALID, field + " is empty; send at least one value.");
        }
        String[] parts = list.split(",");
        if (parts.length > 1024) {
            throw new Refused(ResponseCode.REQUEST_HEADER_INVALID, field + " holds " + parts.length + " values; send"
                    + " at most 1024 per request.");
        }
        return parts;
    }
}

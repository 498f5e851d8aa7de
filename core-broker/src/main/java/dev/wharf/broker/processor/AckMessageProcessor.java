package dev.wharf.broker.processor;

import dev.wharf.broker.ack.AckService;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.util.RateLimitedLog;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.AckHeaders.AckMessageRequest;
import dev.wharf.protocol.header.AckHeaders.ChangeInvisibleTimeRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.MessageStore;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ACK_MESSAGE and CHANGE_MESSAGE_INVISIBLETIME: acknowledge messages of one queue, or change their leases
 * (redelivery now or later, counted or not). Answered SUCCESS once the change is in the ack log (with
 * SYNC_FLUSH: on disk); acknowledging a message that is done already, or a group without state, succeeds and
 * changes nothing.
 */
public final class AckMessageProcessor implements RequestProcessor {

    private static final Logger log = LoggerFactory.getLogger(AckMessageProcessor.class);

    /** A failing ack log fails every ack: one line per interval, not one per request. */
    private final RateLimitedLog warnings = RateLimitedLog.of(log);

    private final AckRequests checks;
    private final AckService ack;
    private final MessageStore store;

    public AckMessageProcessor(String brokerName, TopicConfigManager topics, SubscriptionGroupManager groups,
                               AckService ack, MessageStore store) {
        this.checks = new AckRequests(brokerName, topics, groups, ack);
        this.ack = ack;
        this.store = store;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        try {
            return request.code() == RequestCode.ACK_MESSAGE ? ack(channel, request) : change(channel, request);
        } catch (AckRequests.Refused refused) {
            return refused.answer(request);
        }
    }

    private RemotingCommand ack(RemotingChannel channel, RemotingCommand request) throws Exception {
        AckMessageRequest header = ProcessorSupport.header(request, AckMessageRequest.class);
        AckRequests.names(header.consumerGroup(), header.topic());
        TopicConfig topic = checks.readableTopic(header.topic());
        checks.queueId(topic, header.queueId(), false);
        long[] offsets = AckRequests.offsets("offsets", header.offsets());
        checks.belowEnd(offsets, store.getMaxOffsetInQueue(header.topic(), header.queueId()), header.topic(),
                header.queueId());
        return answerWhenLogged(channel, request, ack.ack(header.consumerGroup(), header.topic(), header.queueId(),
                offsets));
    }

    private RemotingCommand change(RemotingChannel channel, RemotingCommand request) throws Exception {
        ChangeInvisibleTimeRequest header = ProcessorSupport.header(request, ChangeInvisibleTimeRequest.class);
        AckRequests.names(header.consumerGroup(), header.topic());
        TopicConfig topic = checks.readableTopic(header.topic());
        checks.queueId(topic, header.queueId(), false);
        AckRequests.range("invisibleTime", header.invisibleTime(), 0, AckRequests.MAX_INVISIBLE_TIME, "milliseconds");
        long[] offsets = AckRequests.offsets("offsets", header.offsets());
        int[] counts = header.deliveryCounts() == null ? null
                : AckRequests.counts("deliveryCounts", header.deliveryCounts(), offsets.length);
        return answerWhenLogged(channel, request, ack.changeInvisibleTime(header.consumerGroup(), header.topic(),
                header.queueId(), offsets, counts, header.invisibleTime(), header.countDelivery()));
    }

    private RemotingCommand answerWhenLogged(RemotingChannel channel, RemotingCommand request,
                                             CompletableFuture<Integer> logged) {
        if (logged.isDone()) {
            return answer(request, logged);
        }
        logged.whenComplete((count, failure) -> channel.writeResponse(answer(request, logged)));
        return null;
    }

    private RemotingCommand answer(RemotingCommand request, CompletableFuture<Integer> logged) {
        try {
            return ProcessorSupport.answer(request, ResponseCode.SUCCESS, logged.join() + " changed");
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            warnings.warn("not-logged", "{} could not be logged: {}", RequestCode.NAMES.name(request.code()),
                    cause.getMessage());
            return ProcessorSupport.answer(request, ResponseCode.SYSTEM_ERROR, cause.getMessage());
        }
    }
}

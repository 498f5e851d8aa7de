package dev.wharf.broker.processor;

import dev.wharf.broker.ack.AckService;
import dev.wharf.broker.ack.PeekOutcome;
import dev.wharf.broker.filter.CompiledSubscription;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.AckHeaders.PeekMessageRequest;
import dev.wharf.protocol.header.AckHeaders.PeekMessageResponse;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;

/**
 * PEEK_MESSAGE: the messages of one queue still there for a group (browsing), as stored records in the body
 * (zero-copy), with {@code nextOffset} to continue from. Always SUCCESS, possibly with no record: a peek
 * looks at a bounded number of units, so only {@code nextOffset >= maxOffset} means the queue's end.
 */
public final class PeekMessageProcessor implements RequestProcessor {

    private final AckRequests checks;
    private final AckService ack;

    public PeekMessageProcessor(String brokerName, TopicConfigManager topics, SubscriptionGroupManager groups,
                                AckService ack) {
        this.checks = new AckRequests(brokerName, topics, groups, ack);
        this.ack = ack;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        PeekMessageRequest header = ProcessorSupport.header(request, PeekMessageRequest.class);
        CompiledSubscription subscription;
        try {
            AckRequests.names(header.consumerGroup(), header.topic());
            TopicConfig topic = checks.readableTopic(header.topic());
            checks.queueId(topic, header.queueId(), false);
            AckRequests.maxMsgNums(header.maxMsgNums());
            AckRequests.range("fromOffset", header.fromOffset(), 0, Long.MAX_VALUE, "");
            subscription = checks.subscription(header.expressionType(), header.expression());
        } catch (AckRequests.Refused refused) {
            return refused.answer(request);
        }
        PeekOutcome outcome = ack.peek(header.consumerGroup(), header.topic(), header.queueId(), header.fromOffset(),
                header.maxMsgNums(), subscription);
        RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
        ProcessorSupport.writeHeader(response, new PeekMessageResponse(outcome.nextOffset(), outcome.minOffset(),
                outcome.maxOffset(), outcome.deliveryCounts()));
        if (outcome.messageCount() > 0) {
            response.setBodyBuffers(outcome.bodies(), outcome::release);
        } else {
            outcome.release();
        }
        return response;
    }
}

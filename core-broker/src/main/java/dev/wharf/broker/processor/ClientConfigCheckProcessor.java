package dev.wharf.broker.processor;

import dev.wharf.broker.filter.CompiledSubscription;
import dev.wharf.filter.InvalidSelectorException;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import dev.wharf.protocol.body.Heartbeat.CheckClientRequestBody;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;

/**
 * CHECK_CLIENT_CONFIG: a RocketMQ consumer with an SQL92 subscription asks every broker, before it starts, whether
 * the broker can filter for it. Wharf filters SQL92 always; the answer says whether the expression compiles, so
 * a bad selector fails the consumer's start instead of every later pull.
 */
public final class ClientConfigCheckProcessor implements RequestProcessor {

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        CheckClientRequestBody body = ProcessorSupport.body(request, CheckClientRequestBody.class);
        SubscriptionData subscription = body.subscriptionData();
        if (subscription == null) {
            return ProcessorSupport.answer(request, ResponseCode.REQUEST_HEADER_INVALID, "The check of group "
                    + body.group() + " carries no subscriptionData; send the subscription to be checked.");
        }
        ExpressionType type = subscription.expressionType() == null ? ExpressionType.TAG : subscription.expressionType();
        try {
            CompiledSubscription.compile(type, subscription.subString());
        } catch (InvalidSelectorException e) {
            return ProcessorSupport.answer(request, ResponseCode.SUBSCRIPTION_PARSE_FAILED, "The " + type
                    + " subscription of group " + body.group() + " to " + subscription.topic()
                    + " does not compile: " + e.getMessage());
        }
        return ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
    }
}

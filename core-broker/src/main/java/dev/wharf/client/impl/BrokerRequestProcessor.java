package dev.wharf.client.impl;

import dev.wharf.client.TransactionCheckHandler;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.ClientHeaders.NotifyConsumerIdsChangedRequest;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.TransactionHeaders.CheckTransactionStateRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the requests a broker sends to this client over the client's own connection: a consumer group's
 * membership changed (rebalance soon), and a transaction check-back (hand it to the producer group's handler).
 * Both are one-way; a request-response variant is answered with SUCCESS.
 */
final class BrokerRequestProcessor implements RequestProcessor {

    private static final Logger log = LoggerFactory.getLogger(BrokerRequestProcessor.class);

    private final ClientInstance instance;

    BrokerRequestProcessor(ClientInstance instance) {
        this.instance = instance;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) {
        switch (request.code()) {
            case RequestCode.NOTIFY_CONSUMER_IDS_CHANGED -> consumerIdsChanged(request);
            case RequestCode.CHECK_TRANSACTION_STATE -> checkTransactionState(channel, request);
            default -> {
                return RemotingCommand.createResponse(ResponseCode.REQUEST_CODE_NOT_SUPPORTED,
                        "This client does not serve " + RequestCode.NAMES.describe(request.code()));
            }
        }
        return request.isOneway() ? null : RemotingCommand.createResponse(ResponseCode.SUCCESS, null);
    }

    private void consumerIdsChanged(RemotingCommand request) {
        NotifyConsumerIdsChangedRequest header = HeaderCodec.decode(request.extFields(),
                NotifyConsumerIdsChangedRequest.class);
        ConsumerMember member = instance.consumer(header.consumerGroup());
        if (member != null) {
            if (header.offsetResetTopic() != null) {
                member.offsetsReset(header.offsetResetTopic());
            } else {
                member.consumerIdsChanged();
            }
            instance.rebalanceSoon();
        }
    }

    private void checkTransactionState(RemotingChannel channel, RemotingCommand request) {
        CheckTransactionStateRequest header = HeaderCodec.decode(request.extFields(), CheckTransactionStateRequest.class);
        MessageExt half = request.body() == null ? null
                : MessageDecoder.decode(ByteBuffer.wrap(request.body()), true, false);
        if (half != null && !instance.receivedBodies().inflate(channel.remoteAddress(), half)) {
            // the check-back still reaches the handler, which decides by the transaction id; only the body is gone
            half.setBody(null);
        }
        String group = header.producerGroup();
        if (group == null && half != null) {
            group = half.getProperty(MessageProperties.PRODUCER_GROUP);
        }
        TransactionCheckHandler handler = instance.checkHandler(group);
        if (handler == null) {
            log.warn("Client {} got a transaction check-back for transaction {} of producer group {} but has no "
                    + "transaction producer of that group", instance.clientId(), header.transactionId(), group);
            return;
        }
        try {
            handler.checkTransactionState(channel.remoteAddress(), half, header);
        } catch (RuntimeException e) {
            log.warn("The transaction check handler of group {} failed for transaction {}: {}", group,
                    header.transactionId(), e.toString());
        }
    }
}

package dev.wharf.broker.processor;

import dev.wharf.broker.lock.RebalanceLockManager;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RemotingCommandException;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Heartbeat.LockBatchRequestBody;
import dev.wharf.protocol.body.Heartbeat.LockBatchResponseBody;
import dev.wharf.protocol.body.Json;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import java.util.Set;

/**
 * LOCK_BATCH_MQ and UNLOCK_BATCH_MQ of orderly consumption: a client locks (and renews) the queues it was
 * assigned; the answer lists the queues it holds now. Queues of another broker in the request are ignored.
 */
public final class QueueLockProcessor implements RequestProcessor {

    private final RebalanceLockManager locks;
    private final String brokerName;

    public QueueLockProcessor(RebalanceLockManager locks, String brokerName) {
        this.locks = locks;
        this.brokerName = brokerName;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        LockBatchRequestBody body = ProcessorSupport.body(request, LockBatchRequestBody.class);
        if (body.consumerGroup() == null || body.clientId() == null) {
            throw new RemotingCommandException("The lock request needs consumerGroup and clientId.");
        }
        Set<MessageQueue> queues = body.mqSet() == null ? Set.of() : body.mqSet();
        queues = queues.stream().filter(mq -> mq != null && brokerName.equals(mq.brokerName()))
                .collect(java.util.stream.Collectors.toSet());
        RemotingCommand response = ProcessorSupport.answer(request, ResponseCode.SUCCESS, null);
        if (request.code() == RequestCode.LOCK_BATCH_MQ) {
            Set<MessageQueue> locked = locks.tryLockBatch(body.consumerGroup(), queues, body.clientId());
            response.setBody(Json.encode(new LockBatchResponseBody(locked)));
        } else {
            locks.unlockBatch(body.consumerGroup(), queues, body.clientId());
        }
        return response;
    }
}

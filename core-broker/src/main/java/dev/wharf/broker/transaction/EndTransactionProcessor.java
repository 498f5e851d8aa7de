package dev.wharf.broker.transaction;

import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.TransactionHeaders.EndTransactionRequest;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.MessageStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * END_TRANSACTION: commits or rolls back every half message of a transaction id (UNKNOWN changes nothing). Sent by
 * the producer after its local transaction, and again (fromTransactionCheck) as the answer to a check-back; both
 * may arrive, any number of times: the first decides, the rest are answered from memory.
 *
 * <p>The producer's halves were acknowledged before it sends END_TRANSACTION, but the dispatcher may not have
 * indexed them yet: the processor first waits (briefly, bounded) until everything stored before the request is
 * dispatched, then reads the new halves into the index.
 */
public final class EndTransactionProcessor implements RequestProcessor {

    private static final Logger log = LoggerFactory.getLogger(EndTransactionProcessor.class);
    private static final long DISPATCH_WAIT_MILLIS = 3_000;

    private final MessageStore store;
    private final HalfQueueFollower follower;
    private final TransactionResolver resolver;
    private final String brokerName;

    EndTransactionProcessor(MessageStore store, HalfQueueFollower follower, TransactionResolver resolver,
                            String brokerName) {
        this.store = store;
        this.follower = follower;
        this.resolver = resolver;
        this.brokerName = brokerName;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        EndTransactionRequest header = request.readHeader(EndTransactionRequest.class);
        TransactionOutcome wanted;
        switch (header.commitOrRollback()) {
            case MessageSysFlag.TRANSACTION_COMMIT_TYPE -> wanted = TransactionOutcome.COMMIT;
            case MessageSysFlag.TRANSACTION_ROLLBACK_TYPE -> wanted = TransactionOutcome.ROLLBACK;
            case MessageSysFlag.TRANSACTION_NOT_TYPE -> {
                return request.newResponse(ResponseCode.SUCCESS, "The transaction " + header.transactionId()
                        + " stays open; the broker asks again at its next check-back.");
            }
            default -> {
                return request.newResponse(ResponseCode.REQUEST_HEADER_INVALID, "commitOrRollback is "
                        + header.commitOrRollback() + "; use " + MessageSysFlag.TRANSACTION_COMMIT_TYPE + " (commit), "
                        + MessageSysFlag.TRANSACTION_ROLLBACK_TYPE + " (roll back) or "
                        + MessageSysFlag.TRANSACTION_NOT_TYPE + " (unknown yet).");
            }
        }
        boolean dispatched = awaitDispatch();
        follower.catchUp();
        TransactionResolver.Result result = resolver.end(header.transactionId(), header.producerGroup(), wanted);
        return switch (result.status()) {
            case ENDED -> request.newResponse(ResponseCode.SUCCESS, null);
            case ALREADY_ENDED -> request.newResponse(ResponseCode.SUCCESS, result.message());
            case CONFLICT -> request.newResponse(ResponseCode.TRANSACTION_FAILED, result.message());
            case GROUP_MISMATCH -> request.newResponse(ResponseCode.TRANSACTION_STATE_GROUP_WRONG, result.message());
            case STORE_FAILED -> request.newResponse(ResponseCode.SYSTEM_ERROR, result.message());
            case UNKNOWN -> dispatched
                    ? request.newResponse(ResponseCode.TRANSACTION_FAILED, result.message())
                    : request.newResponse(ResponseCode.SYSTEM_BUSY, "Broker " + brokerName + " has not indexed its"
                            + " newest messages yet; retry END_TRANSACTION for " + header.transactionId() + " shortly.");
        };
    }

    /** Waits until what was stored before now is dispatched; false when that took too long. */
    private boolean awaitDispatch() {
        if (store.awaitDispatched(DISPATCH_WAIT_MILLIS)) {
            return true;
        }
        log.warn("Dispatch is more than {} ms behind; END_TRANSACTION goes on without the newest halves",
                DISPATCH_WAIT_MILLIS);
        return false;
    }
}

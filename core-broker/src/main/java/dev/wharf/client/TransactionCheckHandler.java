package dev.wharf.client;

import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.header.TransactionHeaders.CheckTransactionStateRequest;

/**
 * Answers a broker's check-back about a half (prepared) message whose transaction outcome it never learned.
 * Registered per producer group on the client instance; the transaction producer answers with END_TRANSACTION
 * ({@code fromTransactionCheck = true}) to {@code brokerAddr}.
 *
 * <p>Called on the client's callback executor, never on an I/O thread; it may block briefly (a database look-up).
 */
@FunctionalInterface
public interface TransactionCheckHandler {

    /**
     * @param brokerAddr  the asking broker's address, where the answer goes
     * @param halfMessage the half message as stored (null when the broker sent no readable record)
     * @param request     the check's header: transaction id, commit-log offset, message id, producer group
     */
    void checkTransactionState(String brokerAddr, MessageExt halfMessage, CheckTransactionStateRequest request);
}

package dev.wharf.protocol.header;

/** Headers of the half-message transaction requests. */
public final class TransactionHeaders {

    private TransactionHeaders() {
    }

    /**
     * END_TRANSACTION (usually one-way): commit or roll back every half message of {@code transactionId}.
     * {@code commitOrRollback} is a transaction type of {@code MessageSysFlag} (COMMIT, ROLLBACK or NOT = unknown).
     * {@code commitLogOffset} names one half message when the producer knows it (a single-message
     * transaction); -1 when the transaction id alone is used.
     */
    public record EndTransactionRequest(
            @Required String producerGroup,
            @Required String transactionId,
            int commitOrRollback,
            long commitLogOffset,
            boolean fromTransactionCheck,
            String msgId) {
    }

    /**
     * CHECK_TRANSACTION_STATE (broker to client, one-way): what became of this transaction? Body: the half message
     * record. The producer answers with END_TRANSACTION (fromTransactionCheck = true).
     */
    public record CheckTransactionStateRequest(
            @Required String transactionId,
            long commitLogOffset,
            String msgId,
            String producerGroup) {
    }
}

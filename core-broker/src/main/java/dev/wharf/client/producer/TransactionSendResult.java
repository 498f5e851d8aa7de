package dev.wharf.client.producer;

/**
 * The outcome of {@link TransactionProducer#sendMessageInTransaction}: where the half message went and what the
 * local transaction decided (reported to the broker with END_TRANSACTION; UNKNOW leaves it to the check-back).
 */
public record TransactionSendResult(SendResult sendResult, LocalTransactionState localTransactionState) {

    /** The transaction id the broker knows the message by. */
    public String transactionId() {
        return sendResult.transactionId();
    }

    /** The message's client unique id. */
    public String msgId() {
        return sendResult.msgId();
    }
}

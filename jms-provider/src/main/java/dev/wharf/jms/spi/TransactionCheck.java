package dev.wharf.jms.spi;

/**
 * A broker's question about a transaction whose outcome it never learned, with what this process knows of it.
 *
 * @param transactionId the transaction's id (as given to {@link TransactionLifecycleListener#transactionStarted})
 * @param producerGroup the producer group the transaction was sent with
 * @param topic         the destination (broker topic) of its first message
 * @param firstSentAt   when its first message was sent (epoch millis, the sender's clock)
 * @param local         what this process knows of it
 */
public record TransactionCheck(String transactionId, String producerGroup, String topic, long firstSentAt,
                               Local local) {

    /** What this process knows of a transaction. */
    public enum Local {
        /** Its session is open and has not ended it yet. */
        OPEN,
        /** Its session committed it (the broker did not confirm, or the confirmation was lost). */
        COMMITTED,
        /** Its session rolled it back. */
        ROLLED_BACK,
        /** It was started in this process, but its session is gone without ending it. */
        ABANDONED,
        /** It was started in another process (or in an earlier run of this one). */
        FOREIGN
    }
}

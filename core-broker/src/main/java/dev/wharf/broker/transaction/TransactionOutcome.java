package dev.wharf.broker.transaction;

/** How a transaction ended; written as the TAGS of its op records. */
public enum TransactionOutcome {
    /** The real messages were written with the op record in one atomic batch. */
    COMMIT,
    /** The producer rolled back: op records only. */
    ROLLBACK,
    /**
     * The broker gave up: the check-back limit was reached (the halves were copied to TRANS_CHECK_MAX_TIME_TOPIC),
     * or a half arrived after its transaction had already ended.
     */
    DISCARD;

    /** The outcome named by an op record's TAGS, or null when it is none of them. */
    static TransactionOutcome fromTag(String tag) {
        if (tag == null) {
            return null;
        }
        for (TransactionOutcome outcome : values()) {
            if (outcome.name().equals(tag)) {
                return outcome;
            }
        }
        return null;
    }
}

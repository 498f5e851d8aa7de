package dev.wharf.client.producer;

/** What became of a local transaction: the half messages are committed, rolled back, or the answer is not known yet. */
public enum LocalTransactionState {
    COMMIT_MESSAGE,
    ROLLBACK_MESSAGE,
    /** Not decided yet; the broker asks again at its next check-back round. */
    UNKNOW
}

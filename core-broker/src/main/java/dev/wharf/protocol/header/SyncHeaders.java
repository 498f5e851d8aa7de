package dev.wharf.protocol.header;

/** Headers of the requests a slave uses to copy its master's metadata. */
public final class SyncHeaders {

    private SyncHeaders() {
    }

    /**
     * GET_PROGRESS_DOCUMENT: {@code name} is one of {@link #DELAY_OFFSET}, {@link #ACK_STATE},
     * {@link #TRANSACTION_CHECK_PROGRESS}.
     */
    public record ProgressDocumentRequest(@Required String name) {
    }

    /** The scheduler's delay-level offsets and timer progress. */
    public static final String DELAY_OFFSET = "delayOffset.json";
    /** The acknowledgement-state snapshot (with the ack-log offset it covers). */
    public static final String ACK_STATE = "ackState.json";
    /** The transaction check-back progress. */
    public static final String TRANSACTION_CHECK_PROGRESS = "transactionCheckProgress.json";
}

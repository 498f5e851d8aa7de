package dev.wharf.store;

import dev.wharf.store.commitlog.AppendResult;

/** Status of a put, where it went, and a sentence for errors. Immutable. */
public final class PutMessageResult {

    private final PutMessageStatus status;
    private final AppendResult appendResult;
    private final String errorMessage;

    public PutMessageResult(PutMessageStatus status, AppendResult appendResult, String errorMessage) {
        this.status = status;
        this.appendResult = appendResult;
        this.errorMessage = errorMessage;
    }

    public static PutMessageResult ok(AppendResult appendResult) {
        return new PutMessageResult(PutMessageStatus.PUT_OK, appendResult, null);
    }

    public static PutMessageResult failure(PutMessageStatus status, String errorMessage) {
        return new PutMessageResult(status, null, errorMessage);
    }

    public PutMessageStatus status() {
        return status;
    }

    /** Where the message went; null when it was not stored. */
    public AppendResult appendResult() {
        return appendResult;
    }

    /**
     * Whether the message is in the commit log: {@link PutMessageStatus#PUT_OK}, or
     * {@link PutMessageStatus#FLUSH_DISK_TIMEOUT} (stored, disk not confirmed in time).
     */
    public boolean isOk() {
        return appendResult != null
                && (status == PutMessageStatus.PUT_OK || status == PutMessageStatus.FLUSH_DISK_TIMEOUT);
    }

    /** What went wrong and what to do, or null on success. */
    public String errorMessage() {
        return errorMessage;
    }

    @Override
    public String toString() {
        return "PutMessageResult{" + status + (appendResult == null ? "" : ", " + appendResult)
                + (errorMessage == null ? "" : ", error=" + errorMessage) + "}";
    }
}

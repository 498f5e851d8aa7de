package dev.wharf.store.commitlog;

import dev.wharf.common.message.MessageId;

/**
 * What an append produced: where the first record went, its store host, time and queue offset, and how many bytes
 * and records were written, or why nothing was. The one result of an append, from the commit log up to the put's
 * caller. Immutable (the message id is computed once, on first use).
 */
public final class AppendResult {

    private final AppendStatus status;
    private final long wroteOffset;
    private final int wroteBytes;
    private final long storeHost;
    private final long storeTimestamp;
    private final long logicsOffset;
    private final int msgNum;
    private final String errorMessage;
    private String msgId;

    private AppendResult(AppendStatus status, long wroteOffset, int wroteBytes, long storeHost, long storeTimestamp,
            long logicsOffset, int msgNum, String errorMessage) {
        this.status = status;
        this.wroteOffset = wroteOffset;
        this.wroteBytes = wroteBytes;
        this.storeHost = storeHost;
        this.storeTimestamp = storeTimestamp;
        this.logicsOffset = logicsOffset;
        this.msgNum = msgNum;
        this.errorMessage = errorMessage;
    }

    public static AppendResult ok(long wroteOffset, int wroteBytes, long storeHost, long storeTimestamp,
            long logicsOffset, int msgNum) {
        return new AppendResult(AppendStatus.PUT_OK, wroteOffset, wroteBytes, storeHost, storeTimestamp,
                logicsOffset, msgNum, null);
    }

    public static AppendResult failure(AppendStatus status, String errorMessage) {
        return new AppendResult(status, -1, 0, 0, 0, -1, 0, errorMessage);
    }

    public AppendStatus status() {
        return status;
    }

    public boolean isOk() {
        return status == AppendStatus.PUT_OK;
    }

    /** Physical offset of the first record written. */
    public long wroteOffset() {
        return wroteOffset;
    }

    public int wroteBytes() {
        return wroteBytes;
    }

    /** The broker message id of the first record written: store host and physical offset. */
    public String msgId() {
        if (msgId == null) {
            msgId = MessageId.create(storeHost, wroteOffset);
        }
        return msgId;
    }

    public long storeTimestamp() {
        return storeTimestamp;
    }

    /** Queue offset of the first record written. */
    public long logicsOffset() {
        return logicsOffset;
    }

    /** Number of records written (1, or the batch size). */
    public int msgNum() {
        return msgNum;
    }

    /** A sentence saying what was wrong, for failures. */
    public String errorMessage() {
        return errorMessage;
    }

    /** Physical offset just past the last record written. */
    public long nextOffset() {
        return wroteOffset + wroteBytes;
    }

    @Override
    public String toString() {
        return "AppendResult{" + status + ", wroteOffset=" + wroteOffset + ", wroteBytes=" + wroteBytes
                + ", logicsOffset=" + logicsOffset + ", msgNum=" + msgNum
                + (errorMessage == null ? "" : ", error=" + errorMessage) + "}";
    }
}

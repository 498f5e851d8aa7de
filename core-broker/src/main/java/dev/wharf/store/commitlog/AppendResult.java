package dev.wharf.store.commitlog;

/**
 * What an append produced: where the first record went and how many bytes and records were written, or why
 * nothing was. Immutable.
 */
public final class AppendResult {

    private final AppendStatus status;
    private final long wroteOffset;
    private final int wroteBytes;
    private final long storeTimestamp;
    private final long logicsOffset;
    private final int msgNum;
    private final String errorMessage;

    private AppendResult(AppendStatus status, long wroteOffset, int wroteBytes, long storeTimestamp,
            long logicsOffset, int msgNum, String errorMessage) {
        this.status = status;
        this.wroteOffset = wroteOffset;
        this.wroteBytes = wroteBytes;
        this.storeTimestamp = storeTimestamp;
        this.logicsOffset = logicsOffset;
        this.msgNum = msgNum;
        this.errorMessage = errorMessage;
    }

    public static AppendResult ok(long wroteOffset, int wroteBytes, long storeTimestamp, long logicsOffset,
            int msgNum) {
        return new AppendResult(AppendStatus.PUT_OK, wroteOffset, wroteBytes, storeTimestamp, logicsOffset, msgNum,
                null);
    }

    public static AppendResult failure(AppendStatus status, String errorMessage) {
        return new AppendResult(status, -1, 0, 0, -1, 0, errorMessage);
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

    public long storeTimestamp() {
        return storeTimestamp;
    }

    /** Queue offset of the first record written. */
    public long logicsOffset() {
        return logicsOffset;
    }

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

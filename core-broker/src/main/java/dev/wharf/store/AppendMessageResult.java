package dev.wharf.store;

import dev.wharf.common.message.MessageId;

/** Where a put went: physical offset and size, queue offset, store time, and the offset message id. Immutable. */
public final class AppendMessageResult {

    private final long wroteOffset;
    private final int wroteBytes;
    private final long storeHost;
    private final long storeTimestamp;
    private final long logicsOffset;
    private final int msgNum;
    private String msgId;

    public AppendMessageResult(long wroteOffset, int wroteBytes, long storeHost, long storeTimestamp, long logicsOffset,
            int msgNum) {
        this.wroteOffset = wroteOffset;
        this.wroteBytes = wroteBytes;
        this.storeHost = storeHost;
        this.storeTimestamp = storeTimestamp;
        this.logicsOffset = logicsOffset;
        this.msgNum = msgNum;
    }

    /** Physical offset of the (first) record. */
    public long wroteOffset() {
        return wroteOffset;
    }

    public int wroteBytes() {
        return wroteBytes;
    }

    /** The broker message id of the (first) record: store host + physical offset. */
    public String msgId() {
        if (msgId == null) {
            msgId = MessageId.create(storeHost, wroteOffset);
        }
        return msgId;
    }

    public long storeTimestamp() {
        return storeTimestamp;
    }

    /** Queue offset of the (first) record. */
    public long logicsOffset() {
        return logicsOffset;
    }

    /** Number of records written (1, or the batch size). */
    public int msgNum() {
        return msgNum;
    }

    @Override
    public String toString() {
        return "AppendMessageResult{wroteOffset=" + wroteOffset + ", wroteBytes=" + wroteBytes + ", logicsOffset="
                + logicsOffset + ", msgNum=" + msgNum + ", storeTimestamp=" + storeTimestamp + "}";
    }
}

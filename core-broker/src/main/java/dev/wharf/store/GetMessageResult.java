package dev.wharf.store;

import dev.wharf.store.file.SelectMappedBufferResult;
import java.util.List;

/**
 * A batch read from one queue: zero-copy views of the stored records (in queue order), where the next read
 * should start, and the queue's bounds. The views hold their files: call {@link #release()} once the bytes
 * are sent. Not thread-safe.
 */
public final class GetMessageResult {

    private final GetMessageStatus status;
    private final long nextBeginOffset;
    private final long minOffset;
    private final long maxOffset;
    private final List<SelectMappedBufferResult> buffers;
    private final int bufferTotalSize;

    public GetMessageResult(GetMessageStatus status, long nextBeginOffset, long minOffset, long maxOffset,
            List<SelectMappedBufferResult> buffers) {
        this.status = status;
        this.nextBeginOffset = nextBeginOffset;
        this.minOffset = minOffset;
        this.maxOffset = maxOffset;
        this.buffers = List.copyOf(buffers);
        int total = 0;
        for (SelectMappedBufferResult b : buffers) {
            total += b.size();
        }
        this.bufferTotalSize = total;
    }

    public GetMessageStatus status() {
        return status;
    }

    /** The queue offset the next read should start at. */
    public long nextBeginOffset() {
        return nextBeginOffset;
    }

    public long minOffset() {
        return minOffset;
    }

    /** The queue's end (the offset the next message will get). */
    public long maxOffset() {
        return maxOffset;
    }

    /** One view per message, each a whole stored record. */
    public List<SelectMappedBufferResult> buffers() {
        return buffers;
    }

    public int messageCount() {
        return buffers.size();
    }

    public int bufferTotalSize() {
        return bufferTotalSize;
    }

    /** Releases every view (idempotent). */
    public void release() {
        for (SelectMappedBufferResult b : buffers) {
            b.release();
        }
    }

    @Override
    public String toString() {
        return "GetMessageResult{" + status + ", messages=" + buffers.size() + ", bytes=" + bufferTotalSize
                + ", nextBeginOffset=" + nextBeginOffset + ", minOffset=" + minOffset + ", maxOffset=" + maxOffset + "}";
    }
}

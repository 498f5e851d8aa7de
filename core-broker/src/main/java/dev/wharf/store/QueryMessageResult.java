package dev.wharf.store;

import dev.wharf.store.file.SelectMappedBufferResult;
import java.util.List;

/**
 * Messages found by key: views of the stored records (newest first) plus how current the index was. Release
 * the views when done. Not thread-safe.
 */
public final class QueryMessageResult {

    private final List<SelectMappedBufferResult> buffers;
    private final long indexLastUpdateTimestamp;
    private final long indexLastUpdatePhyoffset;

    public QueryMessageResult(List<SelectMappedBufferResult> buffers, long indexLastUpdateTimestamp,
            long indexLastUpdatePhyoffset) {
        this.buffers = List.copyOf(buffers);
        this.indexLastUpdateTimestamp = indexLastUpdateTimestamp;
        this.indexLastUpdatePhyoffset = indexLastUpdatePhyoffset;
    }

    public List<SelectMappedBufferResult> buffers() {
        return buffers;
    }

    public int bufferTotalSize() {
        int total = 0;
        for (SelectMappedBufferResult b : buffers) {
            total += b.size();
        }
        return total;
    }

    /** Store time of the newest indexed message. */
    public long indexLastUpdateTimestamp() {
        return indexLastUpdateTimestamp;
    }

    /** Commit-log offset of the newest indexed message. */
    public long indexLastUpdatePhyoffset() {
        return indexLastUpdatePhyoffset;
    }

    /** Releases every view (idempotent). */
    public void release() {
        for (SelectMappedBufferResult b : buffers) {
            b.release();
        }
    }
}

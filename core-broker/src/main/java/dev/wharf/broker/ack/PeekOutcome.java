package dev.wharf.broker.ack;

import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * What a peek found: the records (zero-copy views, to be released once sent), how often each was delivered so
 * far, and where the next peek of the queue continues.
 */
public final class PeekOutcome {

    private final CountedRecords records = new CountedRecords();
    private final long nextOffset;
    private final long minOffset;
    private final long maxOffset;

    PeekOutcome(List<SelectMappedBufferResult> records, List<Integer> deliveries, long nextOffset, long minOffset,
                long maxOffset) {
        for (int i = 0; i < records.size(); i++) {
            this.records.add(records.get(i), deliveries.get(i));
        }
        this.nextOffset = nextOffset;
        this.minOffset = minOffset;
        this.maxOffset = maxOffset;
    }

    public int messageCount() {
        return records.size();
    }

    public List<ByteBuffer> bodies() {
        return records.bodies();
    }

    /** Deliveries so far of each record (0 = never delivered), comma-separated in record order. */
    public String deliveryCounts() {
        return records.joinedCounts();
    }

    public long nextOffset() {
        return nextOffset;
    }

    public long minOffset() {
        return minOffset;
    }

    public long maxOffset() {
        return maxOffset;
    }

    /** Releases the records. Idempotent. */
    public void release() {
        records.release();
    }
}

package dev.wharf.broker.ack;

import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What a peek found: the records (zero-copy views, to be released once sent), how often each was delivered so
 * far, and where the next peek of the queue continues.
 */
public final class PeekOutcome {

    private final List<SelectMappedBufferResult> records;
    private final List<Integer> deliveries;
    private final long nextOffset;
    private final long minOffset;
    private final long maxOffset;

    PeekOutcome(List<SelectMappedBufferResult> records, List<Integer> deliveries, long nextOffset, long minOffset,
                long maxOffset) {
        this.records = records;
        this.deliveries = deliveries;
        this.nextOffset = nextOffset;
        this.minOffset = minOffset;
        this.maxOffset = maxOffset;
    }

    public int messageCount() {
        return records.size();
    }

    public List<ByteBuffer> bodies() {
        List<ByteBuffer> out = new ArrayList<>(records.size());
        for (SelectMappedBufferResult record : records) {
            out.add(record.byteBuffer());
        }
        return out;
    }

    /** Deliveries so far of each record (0 = never delivered), comma-separated in record order. */
    public String deliveryCounts() {
        StringBuilder sb = new StringBuilder(deliveries.size() * 2);
        for (Integer count : deliveries) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(count);
        }
        return sb.toString();
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
        for (SelectMappedBufferResult record : records) {
            record.release();
        }
    }
}

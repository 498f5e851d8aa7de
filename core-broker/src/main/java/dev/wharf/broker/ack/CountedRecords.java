package dev.wharf.broker.ack;

import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Stored records handed to a client (zero-copy views, released once sent) with a delivery count each: what a pop
 * hands out and what a peek shows. Not thread-safe.
 */
final class CountedRecords {

    private final List<SelectMappedBufferResult> records = new ArrayList<>();
    private final List<Integer> counts = new ArrayList<>();
    private int bytes;

    void add(SelectMappedBufferResult record, int count) {
        records.add(record);
        counts.add(count);
        bytes += record.size();
    }

    int size() {
        return records.size();
    }

    int bytes() {
        return bytes;
    }

    /** Views of the records, each a whole stored record, in order. */
    List<ByteBuffer> bodies() {
        List<ByteBuffer> out = new ArrayList<>(records.size());
        for (SelectMappedBufferResult record : records) {
            out.add(record.byteBuffer());
        }
        return out;
    }

    /** The counts, comma-separated in record order (the form the response header carries). */
    String joinedCounts() {
        StringBuilder sb = new StringBuilder(counts.size() * 2);
        for (Integer count : counts) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(count);
        }
        return sb.toString();
    }

    /** Releases the records. Idempotent. */
    void release() {
        for (SelectMappedBufferResult record : records) {
            record.release();
        }
    }
}

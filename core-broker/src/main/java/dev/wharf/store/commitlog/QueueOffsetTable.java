package dev.wharf.store.commitlog;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The next queue offset of every topic/queue: record N of a queue carries QUEUEOFFSET N, which is also its
 * unit number in the consume queue. Assigned at put time under the put lock; rebuilt at start-up from the
 * consume queues once recovery has re-dispatched everything: lazily, a queue's entry is taken from its consume
 * queue the first time it is needed, so a start does not open every queue.
 *
 * <p>Not thread-safe by itself: the commit log only touches it under its put lock.
 */
final class QueueOffsetTable {

    /** What {@link #next} answers for a queue the table has not seen. */
    static final long UNKNOWN = -1L;

    /** Per topic, next offset indexed by queue id (grown on demand; queue ids are small). */
    private final Map<String, long[]> table = new HashMap<>();

    /** The next offset, or {@link #UNKNOWN} when the table has none for the queue (it was not used yet). */
    long next(String topic, int queueId) {
        long[] offsets = table.get(topic);
        return offsets == null || queueId >= offsets.length ? UNKNOWN : offsets[queueId];
    }

    void set(String topic, int queueId, long nextOffset) {
        long[] offsets = table.get(topic);
        if (offsets == null || queueId >= offsets.length) {
            long[] grown = new long[Math.max(queueId + 1, offsets == null ? 8 : offsets.length * 2)];
            Arrays.fill(grown, UNKNOWN);
            if (offsets != null) {
                System.arraycopy(offsets, 0, grown, 0, offsets.length);
            }
            offsets = grown;
            table.put(topic, offsets);
        }
        offsets[queueId] = nextOffset;
    }

    void removeTopic(String topic) {
        table.remove(topic);
    }

    void clear() {
        table.clear();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("QueueOffsetTable{");
        table.forEach((t, o) -> sb.append(t).append('=').append(Arrays.toString(o)).append(' '));
        return sb.append('}').toString();
    }
}

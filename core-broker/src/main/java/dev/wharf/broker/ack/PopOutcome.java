package dev.wharf.broker.ack;

import dev.wharf.broker.ack.state.QueueAckState;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What one pop handed out: the stored records (zero-copy views, to be released once sent), each one's delivery
 * count, and what a pop that found nothing needs in order to wait: the queues it looked at with their ends,
 * and whether a lease of one of them ended since. Not thread-safe.
 */
public final class PopOutcome {

    private final long popTime;
    private final CountedRecords records = new CountedRecords();
    private final List<QueueAckState> watched = new ArrayList<>();
    private final List<long[]> queueEnds = new ArrayList<>();
    private long returnsAtScan;
    private boolean moreToScan;
    private CompletableFuture<Void> logged = CompletableFuture.completedFuture(null);

    PopOutcome(long popTime) {
        this.popTime = popTime;
    }

    void add(List<SelectMappedBufferResult> found, int[] counts) {
        for (int i = 0; i < found.size(); i++) {
            records.add(found.get(i), counts[i]);
        }
    }

    void watch(QueueAckState state, long queueEnd, long returnsVersion) {
        watched.add(state);
        queueEnds.add(new long[] {state.queueId, queueEnd});
        returnsAtScan += returnsVersion;
    }

    void moreToScan() {
        moreToScan = true;
    }

    void logged(CompletableFuture<Void> logged) {
        this.logged = logged;
    }

    int count() {
        return records.size();
    }

    int bytes() {
        return records.bytes();
    }

    /** Broker time the leases started. */
    public long popTime() {
        return popTime;
    }

    /** Records handed out, in order. */
    public int messageCount() {
        return records.size();
    }

    /** Views of the records handed out, each a whole stored record. */
    public List<ByteBuffer> bodies() {
        return records.bodies();
    }

    /** Each record's delivery count (1 = first delivery), comma-separated in record order. */
    public String deliveryCounts() {
        return records.joinedCounts();
    }

    /** Whether the scan stopped at its budget before a queue's end (more messages may match). */
    public boolean isMoreToScan() {
        return moreToScan;
    }

    /** Completes when the pop's ack-log records are stored. */
    public CompletableFuture<Void> logged() {
        return logged;
    }

    /** The queues looked at, as {queueId, queue end at the time}: a wait for news starts from these ends. */
    public List<long[]> queueEnds() {
        return queueEnds;
    }

    /** Whether a lease of a queue looked at ended since the scan (a message may be available again). */
    public boolean returnedSinceScan() {
        long now = 0;
        for (QueueAckState state : watched) {
            now += state.returnsVersion();
        }
        return now != returnsAtScan;
    }

    /** Releases the records (call once they are sent, or when they are not). Idempotent. */
    public void release() {
        records.release();
    }
}

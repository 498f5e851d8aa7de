package dev.wharf.broker.transaction;

import java.util.Arrays;

/**
 * A transaction with half messages and no outcome yet: where its halves lie, who to ask about it and how often
 * it was asked. Not thread-safe: guarded by the transaction's stripe lock of {@link TransactionIndex}.
 */
final class OpenTransaction {

    private final String id;
    private final String producerGroup;
    /** Set when the transaction had already ended when this half arrived: the half is discarded, never asked about. */
    private final TransactionOutcome endedBefore;
    /** Halves are added in queue order, so the first is the lowest; final so other threads may read it. */
    private final long firstQueueOffset;
    private long[] queueOffsets = new long[2];
    private long[] commitLogOffsets = new long[2];
    private int count;
    private long bytes;
    private long firstStoreTime = Long.MAX_VALUE;
    private long newestStoreTime;
    private int checkTimes;
    private boolean noProducerLogged;

    /** A transaction as its first half message shows it. */
    OpenTransaction(String id, String producerGroup, TransactionOutcome endedBefore, long queueOffset,
                    long commitLogOffset, int size, long storeTime) {
        this.id = id;
        this.producerGroup = producerGroup;
        this.endedBefore = endedBefore;
        this.firstQueueOffset = queueOffset;
        addHalf(queueOffset, commitLogOffset, size, storeTime);
    }

    void addHalf(long queueOffset, long commitLogOffset, int size, long storeTime) {
        if (count == queueOffsets.length) {
            queueOffsets = Arrays.copyOf(queueOffsets, count * 2);
            commitLogOffsets = Arrays.copyOf(commitLogOffsets, count * 2);
        }
        queueOffsets[count] = queueOffset;
        commitLogOffsets[count] = commitLogOffset;
        count++;
        bytes += size;
        firstStoreTime = Math.min(firstStoreTime, storeTime);
        newestStoreTime = Math.max(newestStoreTime, storeTime);
    }

    String id() {
        return id;
    }

    String producerGroup() {
        return producerGroup;
    }

    TransactionOutcome endedBefore() {
        return endedBefore;
    }

    int halfCount() {
        return count;
    }

    long queueOffset(int index) {
        return queueOffsets[index];
    }

    long commitLogOffset(int index) {
        return commitLogOffsets[index];
    }

    /** The halves' queue offsets in the half topic, in the order they were stored. */
    long[] queueOffsets() {
        return Arrays.copyOf(queueOffsets, count);
    }

    /** Lowest half queue offset: the check progress may not pass it while the transaction is open. */
    long firstQueueOffset() {
        return firstQueueOffset;
    }

    /** Stored bytes of the halves. */
    long bytes() {
        return bytes;
    }

    long firstStoreTime() {
        return firstStoreTime;
    }

    long newestStoreTime() {
        return newestStoreTime;
    }

    int checkTimes() {
        return checkTimes;
    }

    void setCheckTimes(int checkTimes) {
        this.checkTimes = checkTimes;
    }

    /** Whether "no live producer" was logged already (once per transaction). */
    boolean markNoProducerLogged() {
        boolean first = !noProducerLogged;
        noProducerLogged = true;
        return first;
    }

    @Override
    public String toString() {
        return "transaction " + id + " of producer group " + producerGroup + " (" + count + " half message(s) from"
                + " queue offset " + firstQueueOffset + ")";
    }
}

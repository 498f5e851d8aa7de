package dev.wharf.broker.transaction;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Refuses a half message that would make its transaction too big to commit: a commit is one atomic store batch
 * (the real messages plus op records), which may take at most {@code maxBatchBytes}. Counting happens when a half
 * is sent, so the producer hears it then, rather than after its local transaction committed. The counts are
 * estimates (the committed records differ from the halves by a few properties) and live in memory: after a
 * restart a transaction's earlier halves are counted again from the rebuilt index. Thread-safe.
 */
final class TransactionSizeGuard {

    /** Room per half for its offset in an op record. */
    private static final int OP_BYTES_PER_HALF = 21;
    /** Fixed room for the op records' headers and the estimate's error. */
    private static final int SLACK = 4096;

    private final long limit;
    private final Map<String, Usage> usage = new ConcurrentHashMap<>();

    private static final class Usage {
        long bytes;
        int halves;
        long lastUpdate;
    }

    /** @param maxBatchBytes the most one commit may write */
    TransactionSizeGuard(long maxBatchBytes) {
        this.limit = maxBatchBytes - SLACK;
    }

    long limit() {
        return limit;
    }

    /**
     * Counts one more half of {@code estimatedBytes} committed size.
     *
     * @return the transaction's bytes with it, or -1 (nothing counted) when that would pass the limit
     */
    long add(String transactionId, long estimatedBytes, long now) {
        long[] total = new long[1];
        usage.compute(transactionId, (id, u) -> {
            Usage current = u != null ? u : new Usage();
            long next = current.bytes + estimatedBytes;
            if (next + (long) (current.halves + 1) * OP_BYTES_PER_HALF > limit) {
                total[0] = -1;
            } else {
                current.bytes = next;
                current.halves++;
                current.lastUpdate = now;
                total[0] = next;
            }
            return current;
        });
        return total[0];
    }

    /** Counts halves found at start-up. */
    void seed(String transactionId, long bytes, int halves, long now) {
        Usage u = new Usage();
        u.bytes = bytes;
        u.halves = halves;
        u.lastUpdate = now;
        usage.put(transactionId, u);
    }

    /**
     * Forgets transactions that ended, or that sent nothing for {@code idleMillis} and have no half stored (the
     * sends failed).
     */
    void sweep(TransactionIndex index, long now, long idleMillis) {
        usage.entrySet().removeIf(e -> index.outcome(e.getKey()) != null
                || (index.open(e.getKey()) == null && now - e.getValue().lastUpdate > idleMillis));
    }

    int tracked() {
        return usage.size();
    }
}

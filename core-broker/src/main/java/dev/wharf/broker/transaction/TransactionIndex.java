package dev.wharf.broker.transaction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The broker's memory of transactions: the open ones (transaction id to half queue offsets, producer group,
 * store times, check count) and the recently ended ones. Filled from the half topic by {@link HalfQueueFollower};
 * emptied by {@link TransactionResolver}.
 *
 * <p>Thread-safety: everything that reads or changes one transaction runs under that transaction's lock
 * ({@link #lockFor}), a lock striped on the id, so END_TRANSACTION, a racing check-back answer and the check
 * service are serialized per transaction while different transactions proceed in parallel. The maps themselves
 * are concurrent.
 */
final class TransactionIndex {

    private static final int STRIPES = 64;

    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];
    private final Map<String, OpenTransaction> open = new ConcurrentHashMap<>();
    private final DecidedTransactions decided;

    TransactionIndex(int decidedCapacity) {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
        this.decided = new DecidedTransactions(decidedCapacity);
    }

    /** The lock serializing everything about one transaction id. */
    ReentrantLock lockFor(String transactionId) {
        int h = transactionId.hashCode();
        return locks[(h ^ (h >>> 16)) & (STRIPES - 1)];
    }

    /** Records a half message read from the half topic (takes the transaction's lock). */
    void addHalf(String transactionId, String producerGroup, long queueOffset, long commitLogOffset, int size,
                 long storeTime) {
        ReentrantLock lock = lockFor(transactionId);
        lock.lock();
        try {
            OpenTransaction tx = open.get(transactionId);
            if (tx == null) {
                open.put(transactionId, new OpenTransaction(transactionId, producerGroup, decided.get(transactionId),
                        queueOffset, commitLogOffset, size, storeTime));
            } else {
                tx.addHalf(queueOffset, commitLogOffset, size, storeTime);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The open transaction of this id, or null; hold its lock while using it. */
    OpenTransaction open(String transactionId) {
        return open.get(transactionId);
    }

    /** The transaction ended (its op records are stored); hold its lock. */
    void ended(OpenTransaction tx, TransactionOutcome outcome) {
        open.remove(tx.id(), tx);
        if (tx.endedBefore() == null) {
            decided.put(tx.id(), outcome);
        }
    }

    /** Remembers an outcome read back from the op topic at start-up. */
    void rememberOutcome(String transactionId, TransactionOutcome outcome) {
        decided.put(transactionId, outcome);
    }

    /** The outcome of a recently ended transaction, or null. */
    TransactionOutcome outcome(String transactionId) {
        return decided.get(transactionId);
    }

    List<OpenTransaction> openTransactions() {
        return new ArrayList<>(open.values());
    }

    int openCount() {
        return open.size();
    }

    /**
     * Store time of the first half of the open transaction stored first, or -1 when none is open: a pass over the
     * open transactions in memory (as {@link #progressOffset} makes), the half topic is not read.
     */
    long oldestOpenStoreTime() {
        OpenTransaction oldest = null;
        for (OpenTransaction tx : open.values()) {
            if (oldest == null || tx.firstQueueOffset() < oldest.firstQueueOffset()) {
                oldest = tx;
            }
        }
        if (oldest == null) {
            return -1;
        }
        ReentrantLock lock = lockFor(oldest.id());
        lock.lock();
        try {
            return oldest.firstStoreTime();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Where the check progress may stand: the lowest half of an open transaction, or {@code scanned} (how far
     * the half topic was read) when none is open. Every half below it belongs to an ended transaction.
     */
    long progressOffset(long scanned) {
        long progress = scanned;
        for (OpenTransaction tx : open.values()) {
            progress = Math.min(progress, tx.firstQueueOffset());
        }
        return progress;
    }

    /** Check counts of the open transactions asked at least once, to persist. */
    Map<String, Integer> checkTimes() {
        Map<String, Integer> out = new HashMap<>();
        for (OpenTransaction tx : open.values()) {
            ReentrantLock lock = lockFor(tx.id());
            lock.lock();
            try {
                if (tx.checkTimes() > 0 && open.get(tx.id()) == tx) {
                    out.put(tx.id(), tx.checkTimes());
                }
            } finally {
                lock.unlock();
            }
        }
        return out;
    }

    /** Restores persisted check counts onto the rebuilt open transactions. */
    void restoreCheckTimes(Map<String, Integer> checkTimes) {
        for (Map.Entry<String, Integer> e : checkTimes.entrySet()) {
            OpenTransaction tx = open.get(e.getKey());
            if (tx != null && e.getValue() != null) {
                ReentrantLock lock = lockFor(tx.id());
                lock.lock();
                try {
                    tx.setCheckTimes(e.getValue());
                } finally {
                    lock.unlock();
                }
            }
        }
    }
}

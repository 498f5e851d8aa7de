package dev.wharf.broker.transaction;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The outcomes of recently ended transactions, so that a retried END_TRANSACTION, a late check-back answer or a
 * commit after a rollback is recognised without reading the op topic. Bounded: the oldest entries are forgotten
 * first. Thread-safe; lookups take no lock (the send path asks it for every half message).
 */
final class DecidedTransactions {

    private final int capacity;
    private final Map<String, TransactionOutcome> outcomes = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();

    DecidedTransactions(int capacity) {
        this.capacity = capacity;
    }

    /** The outcome of the transaction, or null when it is open, unknown or long forgotten. */
    TransactionOutcome get(String transactionId) {
        return outcomes.get(transactionId);
    }

    /** Remembers an outcome; the first one recorded for an id stays. */
    void put(String transactionId, TransactionOutcome outcome) {
        if (outcomes.putIfAbsent(transactionId, outcome) != null) {
            return;
        }
        order.add(transactionId);
        if (size.incrementAndGet() > capacity) {
            String eldest = order.poll();
            if (eldest != null) {
                outcomes.remove(eldest);
                size.decrementAndGet();
            }
        }
    }

    int size() {
        return size.get();
    }
}

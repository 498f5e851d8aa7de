package dev.wharf.broker.transaction;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.MessageStore;
import dev.wharf.store.PutMessageResult;
import dev.wharf.store.PutMessageStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends transactions: commit (the real messages and the op records in one atomic store batch), rollback (op records
 * only) and discard (copies to TRANS_CHECK_MAX_TIME_TOPIC, then op records). Each runs under the transaction's lock
 * and first looks whether the transaction already ended, so a retried END_TRANSACTION or a check-back answer racing
 * the producer's own END_TRANSACTION writes nothing a second time: a transaction is committed exactly once.
 * Thread-safe.
 */
final class TransactionResolver {

    private static final Logger log = LoggerFactory.getLogger(TransactionResolver.class);

    enum Status {
        /** Ended now as asked. */
        ENDED,
        /** Had already ended this way: nothing written (a retry or a duplicate answer). */
        ALREADY_ENDED,
        /** Had already ended the other way (or was discarded); cannot be changed. */
        CONFLICT,
        /** No half message of this transaction is waiting here. */
        UNKNOWN,
        /** The transaction belongs to another producer group. */
        GROUP_MISMATCH,
        /** The store refused the write; nothing of it was stored and the transaction stays open. */
        STORE_FAILED
    }

    /** What came of a request to end a transaction; {@code message} explains everything but ENDED. */
    record Result(Status status, TransactionOutcome outcome, String message) {
    }

    private final MessageStore store;
    private final TransactionIndex index;
    private final LongSupplier storeHost;
    private final String brokerName;
    private final DelayRouter delays;

    TransactionResolver(MessageStore store, TransactionIndex index, LongSupplier storeHost, String brokerName,
                        DelayRouter delays) {
        this.delays = delays;
        this.store = store;
        this.index = index;
        this.storeHost = storeHost;
        this.brokerName = brokerName;
    }

    /**
     * Commits or rolls back a transaction.
     *
     * @param producerGroup the asking producer's group, or null/empty to not check it
     * @param wanted        COMMIT or ROLLBACK
     */
    Result end(String transactionId, String producerGroup, TransactionOutcome wanted) {
        ReentrantLock lock = index.lockFor(transactionId);
        lock.lock();
        try {
            TransactionOutcome before = index.outcome(transactionId);
            if (before != null) {
                return before == wanted
                        ? new Result(Status.ALREADY_ENDED, before, "The transaction " + transactionId + " was already "
                                + past(before) + "; nothing more was done.")
                        : new Result(Status.CONFLICT, before, "The transaction " + transactionId + " was already "
                                + past(before) + " on broker " + brokerName + "; it cannot be " + past(wanted) + " now.");
            }
            OpenTransaction tx = index.open(transactionId);
            if (tx == null) {
                return new Result(Status.UNKNOWN, null, "No half message of transaction " + transactionId
                        + " is waiting on broker " + brokerName + ": send the transaction's messages to this broker"
                        + " first, or it ended so long ago that the broker no longer remembers it.");
            }
            if (producerGroup != null && !producerGroup.isEmpty() && !producerGroup.equals(tx.producerGroup())) {
                return new Result(Status.GROUP_MISMATCH, null, "The transaction " + transactionId + " belongs to"
                        + " producer group " + tx.producerGroup() + ", not " + producerGroup
                        + "; end it from a producer of its own group.");
            }
            return wanted == TransactionOutcome.COMMIT ? commit(tx) : rollback(tx);
        } finally {
            lock.unlock();
        }
    }

    private Result commit(OpenTransaction tx) {
        List<MessageToStore> batch = new ArrayList<>(tx.halfCount() + 1);
        long host = storeHost.getAsLong();
        List<MessageExt> halves = new ArrayList<>(tx.halfCount());
        boolean streamed = false;
        for (int i = 0; i < tx.halfCount(); i++) {
            MessageExt half = readHalf(tx.commitLogOffset(i), tx.queueOffset(i));
            if (half == null) {
                return gone(tx);
            }
            halves.add(half);
            streamed |= TransactionRecords.sequence(half) >= 0;
        }
        if (streamed) {
            // streamed halves may have been stored out of order (several send threads): commit in sending order
            halves.sort(java.util.Comparator.comparingLong(TransactionRecords::sequence));
        }
        for (MessageExt half : halves) {
            MessageToStore committed = TransactionRecords.committed(half, host);
            String error = delays.route(committed);
            if (error != null) {
                // checked when the half was sent; a delay that became invalid since is delivered at once
                log.warn("Transaction {}: delivering a delayed message at once: {}", tx.id(), error);
            }
            batch.add(committed);
        }
        batch.addAll(TransactionRecords.ops(tx.id(), TransactionOutcome.COMMIT, tx.queueOffsets(), host));
        PutMessageResult put = store.putMessages(batch);
        if (!put.isOk()) {
            return storeFailed(tx, put, "commit");
        }
        index.ended(tx, TransactionOutcome.COMMIT);
        return new Result(Status.ENDED, TransactionOutcome.COMMIT, null);
    }

    private Result rollback(OpenTransaction tx) {
        PutMessageResult put = putOps(tx, TransactionOutcome.ROLLBACK);
        if (!put.isOk()) {
            return storeFailed(tx, put, "roll back");
        }
        index.ended(tx, TransactionOutcome.ROLLBACK);
        return new Result(Status.ENDED, TransactionOutcome.ROLLBACK, null);
    }

    /** The halves were deleted with old commit-log files: nothing can be committed; the transaction is discarded. */
    private Result gone(OpenTransaction tx) {
        log.warn("The half messages of {} are no longer stored (deleted with old commit-log files); discarding it", tx);
        if (putOps(tx, TransactionOutcome.DISCARD).isOk()) {
            index.ended(tx, TransactionOutcome.DISCARD);
        }
        return new Result(Status.CONFLICT, TransactionOutcome.DISCARD, "The half messages of transaction " + tx.id()
                + " are no longer stored on broker " + brokerName + " (their commit-log files expired); it cannot be"
                + " committed. Keep transactions shorter than fileReservedTime.");
    }

    private Result storeFailed(OpenTransaction tx, PutMessageResult put, String what) {
        String reason = put.errorMessage() != null ? put.errorMessage() : put.status().name();
        if (put.status() == PutMessageStatus.MESSAGE_ILLEGAL) {
            reason = reason + " (the transaction holds " + tx.halfCount() + " message(s), " + tx.bytes()
                    + " bytes stored; one commit may write at most " + store.config().maxBatchBytes() + " bytes)";
        }
        log.warn("Could not {} {}: {}", what, tx, reason);
        return new Result(Status.STORE_FAILED, null, "Broker " + brokerName + " could not " + what + " transaction "
                + tx.id() + ": " + reason + " Nothing of it was written; the transaction is still open.");
    }

    /**
     * Gives up on a transaction whose check-backs ran out: copies its halves to TRANS_CHECK_MAX_TIME_TOPIC (one by
     * one, so no size limit applies; a crash in between only repeats copies), then writes DISCARD op records.
     *
     * @return whether it was discarded (false: it ended meanwhile, or the store refused)
     */
    boolean discardAfterChecks(OpenTransaction tx) {
        ReentrantLock lock = index.lockFor(tx.id());
        lock.lock();
        try {
            if (index.open(tx.id()) != tx) {
                return false;
            }
            long host = storeHost.getAsLong();
            for (int i = 0; i < tx.halfCount(); i++) {
                MessageExt half = readHalf(tx.commitLogOffset(i), tx.queueOffset(i));
                if (half != null) {
                    PutMessageResult copy = store.putMessage(TransactionRecords.checkMaxCopy(half, tx.checkTimes(), host));
                    if (!copy.isOk()) {
                        log.warn("Could not copy a half message of {} to {}: {}; will try again next round", tx,
                                SystemTopics.TRANS_CHECK_MAX_TIME_TOPIC, copy.errorMessage());
                        return false;
                    }
                }
            }
            PutMessageResult put = putOps(tx, TransactionOutcome.DISCARD);
            if (!put.isOk()) {
                log.warn("Could not discard {}: {}; will try again next round", tx, put.errorMessage());
                return false;
            }
            index.ended(tx, TransactionOutcome.DISCARD);
            log.warn("Discarded {} after {} check-backs without an answer; its messages are kept in {} (first half"
                    + " stored at {})", tx, tx.checkTimes(), SystemTopics.TRANS_CHECK_MAX_TIME_TOPIC, Instant.ofEpochMilli(tx.firstStoreTime()));
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Discards a transaction whose first half is no longer stored (its commit-log file expired). */
    void discardGone(OpenTransaction tx) {
        ReentrantLock lock = index.lockFor(tx.id());
        lock.lock();
        try {
            if (index.open(tx.id()) == tx) {
                gone(tx);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Discards halves that arrived after their transaction had ended (a producer bug): op records only. */
    boolean discardLate(OpenTransaction tx) {
        ReentrantLock lock = index.lockFor(tx.id());
        lock.lock();
        try {
            if (index.open(tx.id()) != tx || !putOps(tx, TransactionOutcome.DISCARD).isOk()) {
                return false;
            }
            index.ended(tx, TransactionOutcome.DISCARD);
            log.warn("Discarded {}: it arrived after the transaction was {}; start a new transaction for more messages",
                    tx, past(tx.endedBefore()));
            return true;
        } finally {
            lock.unlock();
        }
    }

    private PutMessageResult putOps(OpenTransaction tx, TransactionOutcome outcome) {
        return store.putMessages(TransactionRecords.ops(tx.id(), outcome, tx.queueOffsets(), storeHost.getAsLong()));
    }

    /** The half at a commit-log offset, checked to be that half (null when it is gone). */
    private MessageExt readHalf(long commitLogOffset, long queueOffset) {
        MessageExt half = store.readMessageAt(commitLogOffset);
        if (half == null || half.getQueueOffset() != queueOffset
                || !SystemTopics.TRANS_HALF_TOPIC.equals(half.getTopic())) {
            return null;
        }
        return half;
    }

    static String past(TransactionOutcome outcome) {
        return switch (outcome) {
            case COMMIT -> "committed";
            case ROLLBACK -> "rolled back";
            case DISCARD -> "discarded by the broker";
        };
    }
}

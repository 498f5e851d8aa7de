package dev.wharf.broker.transaction;

import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.common.SystemTopics;
import dev.wharf.remoting.RemotingExecutors;
import dev.wharf.store.MessageStore;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check-back service. At start it rebuilds the transaction index from the half topic above the persisted
 * check progress; then every {@code transactionCheckInterval} it runs a round:
 *
 * <ol>
 *   <li>read the halves stored since the last round (only the new part of the half topic is read);</li>
 *   <li>for each open transaction whose newest half is older than {@code transactionTimeOut}: if it was asked
 *       {@code transactionCheckMax} times, discard it; otherwise ask a live producer of its group
 *       ({@link TransactionChecker}) and count the check; with no producer online, log once and count nothing;</li>
 *   <li>persist the progress (the lowest half queue offset of a still-open transaction, or how far the half topic
 *       was read when none is open) together with the check counts of the open transactions.</li>
 * </ol>
 *
 * <p>Persistence: {@code config/transactionCheckProgress.json}, replaced atomically once per round when it changed
 * and at shutdown. Counts live in that small table instead of being re-put with the halves (RocketMQ's way), so a
 * check writes nothing to the commit log and a transaction keeps its half offsets. A crash loses at most one
 * round's counts (a transaction may be asked once more). The progress bounds the rebuild on restart: only halves
 * at or above it are read, plus the op records stored after the first of them.
 *
 * <p>Threading: rounds run on the service's own thread; END_TRANSACTION runs on its executor, which the service
 * owns and stops first, so nothing ends a transaction after the last persist.
 */
final class TransactionCheckService {

    private static final Logger log = LoggerFactory.getLogger(TransactionCheckService.class);

    /** The persisted state: check progress (half queue offset) and check counts of open transactions. */
    record Progress(long progressOffset, Map<String, Integer> checkTimes) {
    }

    /** Outcomes of transactions ended this recently are read back at start, for retried END_TRANSACTIONs. */
    static final long OUTCOME_MEMORY_MILLIS = TimeUnit.MINUTES.toMillis(10);

    private final MessageStore store;
    private final TransactionIndex index;
    private final HalfQueueFollower follower;
    private final TransactionResolver resolver;
    private final TransactionChecker checker;
    private final TransactionSizeGuard sizes;
    private final JsonConfigFile<Progress> file;
    private final ExecutorService endTransactionExecutor;
    private final long intervalMillis;
    private final long timeoutMillis;
    private final int checkMax;
    private final LongSupplier clock;
    private final Object persistLock = new Object();
    private final AtomicLong rounds = new AtomicLong();
    private ScheduledExecutorService scheduler;
    private Progress persisted;

    TransactionCheckService(MessageStore store, TransactionIndex index, HalfQueueFollower follower,
                            TransactionResolver resolver, TransactionChecker checker, TransactionSizeGuard sizes,
                            JsonConfigFile<Progress> file, ExecutorService endTransactionExecutor, long intervalMillis,
                            long timeoutMillis, int checkMax, LongSupplier clock) {
        this.store = store;
        this.index = index;
        this.follower = follower;
        this.resolver = resolver;
        this.checker = checker;
        this.sizes = sizes;
        this.file = file;
        this.endTransactionExecutor = endTransactionExecutor;
        this.intervalMillis = intervalMillis;
        this.timeoutMillis = timeoutMillis;
        this.checkMax = checkMax;
        this.clock = clock;
    }

    /** Rebuilds the index and schedules the rounds. */
    synchronized void start() throws IOException {
        rebuild();
        scheduler = Executors.newSingleThreadScheduledExecutor(RemotingExecutors.threadFactory("wharf-transaction-check"));
        scheduler.scheduleWithFixedDelay(this::roundQuietly, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    private void rebuild() throws IOException {
        Progress saved = file.load();
        String half = SystemTopics.TRANS_HALF_TOPIC;
        long progress = Math.max(saved == null ? 0 : saved.progressOffset(), store.getMinOffsetInQueue(half, 0));
        follower.startAt(progress);
        long firstHalf = progress < store.getMaxOffsetInQueue(half, 0)
                ? Math.max(0, store.getCommitLogOffsetInQueue(half, 0, progress)) : -1;
        Set<Long> ended = new OpLogReader(store).readEnded(firstHalf, clock.getAsLong() - OUTCOME_MEMORY_MILLIS, index);
        int read = follower.catchUp(ended::contains);
        if (saved != null && saved.checkTimes() != null) {
            index.restoreCheckTimes(saved.checkTimes());
        }
        long now = clock.getAsLong();
        for (OpenTransaction tx : index.openTransactions()) {
            sizes.seed(tx.id(), tx.bytes(), tx.halfCount(), now);
        }
        synchronized (persistLock) {
            persisted = saved;
        }
        log.info("Transactions: {} open ({} half message(s) read from queue offset {}, {} ended above it)",
                index.openCount(), read, progress, ended.size());
    }

    private void roundQuietly() {
        try {
            round();
        } catch (RuntimeException e) {
            log.error("Transaction check round failed; trying again in {} ms", intervalMillis, e);
        } catch (Throwable t) {
            // a scheduled task that throws is never run again; an Error means the broker cannot be trusted
            store.health().fail("the transaction check", t);
        }
    }

    /** One round: read new halves, ask about or discard what timed out, persist the progress. */
    void round() {
        follower.catchUp();
        long now = clock.getAsLong();
        for (OpenTransaction tx : index.openTransactions()) {
            if (tx.endedBefore() != null) {
                resolver.discardLate(tx);
            } else if (now - tx.newestStoreTime() >= timeoutMillis) {
                check(tx);
            }
        }
        sizes.sweep(index, now, Math.max(intervalMillis, timeoutMillis) * 2);
        persist();
        rounds.incrementAndGet();
    }

    /** Rounds completed since start (diagnostics, tests). */
    long rounds() {
        return rounds.get();
    }

    private void check(OpenTransaction tx) {
        ReentrantLock lock = index.lockFor(tx.id());
        lock.lock();
        try {
            if (index.open(tx.id()) != tx) {
                return; // ended since the snapshot
            }
            if (tx.checkTimes() >= checkMax) {
                resolver.discardAfterChecks(tx);
                return;
            }
            switch (checker.ask(tx)) {
                case SENT -> tx.setCheckTimes(tx.checkTimes() + 1);
                case NO_PRODUCER -> {
                    if (tx.markNoProducerLogged()) {
                        log.warn("No producer of group {} is online to ask about {}; asking again every round",
                                tx.producerGroup(), tx);
                    }
                }
                case HALF_GONE -> resolver.discardGone(tx);
            }
        } finally {
            lock.unlock();
        }
    }

    private void persist() {
        synchronized (persistLock) {
            Progress now = new Progress(index.progressOffset(follower.scannedOffset()), index.checkTimes());
            if (now.equals(persisted)) {
                return;
            }
            try {
                file.persist(now);
                persisted = now;
            } catch (IOException | RuntimeException e) {
                log.warn("Could not write {}: {}; will try again next round", file.path(), e.toString());
            }
        }
    }

    /** The check progress as last persisted (tests, diagnostics). */
    long persistedProgressOffset() {
        synchronized (persistLock) {
            return persisted == null ? 0 : persisted.progressOffset();
        }
    }

    /** Stops END_TRANSACTION and the rounds, then persists the progress; never throws. */
    /** Stops the rounds (a round in progress finishes) and persists the progress; {@link #start()} may follow. */
    synchronized void stopRounds() {
        if (scheduler == null) {
            return;
        }
        scheduler.shutdown();
        try {
            if (!scheduler.awaitTermination(3, TimeUnit.SECONDS)) {
                scheduler.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        persist();
        scheduler = null;
    }

    synchronized void shutdown() {
        endTransactionExecutor.shutdown();
        if (scheduler != null) {
            scheduler.shutdown(); // no interrupt: a round in progress finishes its writes
        }
        try {
            endTransactionExecutor.awaitTermination(3, TimeUnit.SECONDS);
            if (scheduler != null && !scheduler.awaitTermination(3, TimeUnit.SECONDS)) {
                scheduler.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (scheduler != null) {
            persist();
            scheduler = null;
        }
    }
}

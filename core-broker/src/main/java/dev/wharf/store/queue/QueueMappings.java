package dev.wharf.store.queue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The budget of consume queues whose files are mapped at the same time. Every mapped file costs one entry of
 * the kernel's per-process map table ({@code vm.max_map_count}, 65,530 by default on Linux) and the pages it
 * touched; with 100,000 queues the store cannot keep them all mapped. A queue maps its files on first use;
 * once more than {@code maxMapped} queues are open, the least recently used ones are closed (their mappings
 * go when the last reader releases them, see {@code ReferenceResource}), and queues unused for
 * {@code idleMillis} are closed by the flush thread.
 *
 * <p>Closing never waits for the disk: dirty pages of an unmapped file stay in the page cache, and the file is
 * remembered so the next flush forces it through a briefly opened channel. So a checkpoint written after that
 * flush still covers every unit below its safe offset.
 *
 * <p>Thread-safe. One eviction pass runs at a time; a thread that finds one running leaves the work to it.
 */
final class QueueMappings {

    private static final Logger log = LoggerFactory.getLogger(QueueMappings.class);

    /** No limit: for a queue used on its own (tests, tools). */
    static final QueueMappings UNLIMITED = new QueueMappings(Integer.MAX_VALUE, Long.MAX_VALUE, List::of);

    private final int maxMapped;
    private final long idleMillis;
    private final Supplier<Iterable<ConsumeQueue>> queues;
    private final AtomicInteger open = new AtomicInteger();
    private final ReentrantLock evicting = new ReentrantLock();
    private final ConcurrentLinkedQueue<Path> pendingForce = new ConcurrentLinkedQueue<>();
    private final LongAdder closes = new LongAdder();
    private final LongAdder opens = new LongAdder();

    /**
     * @param maxMapped  queues that may be open at once (at least 1)
     * @param idleMillis a queue unused this long is closed by {@link #closeIdle(long)}
     * @param queues     every queue of the store, for choosing whom to close
     */
    QueueMappings(int maxMapped, long idleMillis, Supplier<Iterable<ConsumeQueue>> queues) {
        if (maxMapped < 1) {
            throw new IllegalArgumentException("maxMappedConsumeQueues must be at least 1, got " + maxMapped);
        }
        if (idleMillis < 1) {
            throw new IllegalArgumentException("consumeQueueIdleUnmapMillis must be positive, got " + idleMillis);
        }
        this.maxMapped = maxMapped;
        this.idleMillis = idleMillis;
        this.queues = queues;
    }

    /** A queue mapped its files; when that makes too many, closes the least recently used (never {@code q}). */
    void opened(ConsumeQueue q) {
        opens.increment();
        if (open.incrementAndGet() > maxMapped) {
            closeLeastRecentlyUsed(q);
        }
    }

    /** A queue let its files go. */
    void closed(List<Path> unflushed) {
        open.decrementAndGet();
        closes.increment();
        pendingForce.addAll(unflushed);
    }

    /** Queues open now. */
    int openCount() {
        return open.get();
    }

    long openings() {
        return opens.sum();
    }

    long closings() {
        return closes.sum();
    }

    private void closeLeastRecentlyUsed(ConsumeQueue keep) {
        if (!evicting.tryLock()) {
            return;
        }
        try {
            // down to three quarters, so the next pass is a quarter of the budget of openings away
            int target = Math.max(0, maxMapped - Math.max(1, maxMapped / 4));
            List<ConsumeQueue> candidates = new ArrayList<>();
            for (ConsumeQueue q : queues.get()) {
                if (q != keep && q.isMapped()) {
                    candidates.add(q);
                }
            }
            candidates.sort(Comparator.comparingLong(ConsumeQueue::lastUsed));
            for (ConsumeQueue q : candidates) {
                if (open.get() <= target) {
                    break;
                }
                q.closeIfIdle(Long.MAX_VALUE);
            }
        } finally {
            evicting.unlock();
        }
    }

    /** Closes the queues nobody used since {@code now - idleMillis}. */
    void closeIdle(long now) {
        if (idleMillis == Long.MAX_VALUE || !evicting.tryLock()) {
            return;
        }
        try {
            long usedBefore = now - idleMillis;
            int closed = 0;
            for (ConsumeQueue q : queues.get()) {
                if (q.isMapped() && q.lastUsed() < usedBefore && q.closeIfIdle(usedBefore)) {
                    closed++;
                }
            }
            if (closed > 0) {
                log.debug("Unmapped {} consume queue(s) idle for {} ms; {} still mapped", closed, idleMillis, open.get());
            }
        } finally {
            evicting.unlock();
        }
    }

    /** Forces the files that were unmapped with unflushed units; the caller is the flush thread (or shutdown). */
    void forceClosed() {
        for (Path p = pendingForce.poll(); p != null; p = pendingForce.poll()) {
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
                ch.force(false);
            } catch (NoSuchFileException e) {
                // deleted since (topic deleted, expired): nothing left to make durable
            } catch (IOException e) {
                log.error("Could not force the unmapped consume-queue file {} to disk", p, e);
            }
        }
    }

    boolean hasPendingForce() {
        return !pendingForce.isEmpty();
    }
}

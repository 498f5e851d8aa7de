package dev.wharf.client.consumer.push;

import dev.wharf.common.message.MessageExt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The pulled but not yet consumed messages of one owned queue, by queue offset. The consumer's offset for the
 * queue is always the lowest offset still held here (or the highest pulled offset + 1 when empty), so nothing is
 * skipped: a message leaves only when consumed (or handed to the broker for retry).
 *
 * <p>Orderly consumption additionally moves messages being consumed into a second map ({@link #takeMessages})
 * and back ({@link #makeMessagesToConsumeAgain}) or out ({@link #commit}).
 *
 * <p>Thread-safe: the pull thread adds, consume threads remove, the rebalance thread drops it; a read-write lock
 * guards the maps, the counters are atomics.
 */
public final class ProcessQueue {

    /** A queue not pulled for this long is considered stuck and is recreated by the next rebalance. */
    static final long PULL_MAX_IDLE_MILLIS = 120_000;
    /** A broker lock older than this (without renewal) is not trusted for orderly consumption. */
    static final long LOCK_MAX_LIVE_MILLIS = 30_000;

    private final ReentrantReadWriteLock treeLock = new ReentrantReadWriteLock();
    private final TreeMap<Long, MessageExt> messages = new TreeMap<>();
    private final TreeMap<Long, MessageExt> consumingOrderly = new TreeMap<>();
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong size = new AtomicLong();
    private final ReentrantLock consumeLock = new ReentrantLock();
    private long maxOffset = -1;
    private boolean consuming;
    private volatile boolean dropped;
    private volatile boolean locked;
    private volatile long lastLockTimestamp = System.currentTimeMillis();
    private volatile long lastPullTimestamp = System.currentTimeMillis();
    private volatile long lastConsumeTimestamp = System.currentTimeMillis();

    /**
     * Adds pulled messages (offsets already held are ignored).
     *
     * @return for orderly consumption: whether a consume request must be started (none is running and there is
     *         something to consume)
     */
    public boolean putMessages(List<MessageExt> msgs) {
        treeLock.writeLock().lock();
        try {
            for (MessageExt msg : msgs) {
                if (messages.putIfAbsent(msg.getQueueOffset(), msg) == null) {
                    count.incrementAndGet();
                    size.addAndGet(bodySize(msg));
                    maxOffset = Math.max(maxOffset, msg.getQueueOffset());
                }
            }
            if (!messages.isEmpty() && !consuming) {
                consuming = true;
                return true;
            }
            return false;
        } finally {
            treeLock.writeLock().unlock();
        }
    }

    /**
     * Removes consumed (or sent-back) messages.
     *
     * @return the offset to commit: the lowest offset still held, or the highest offset seen + 1 when none is
     *         held; -1 when the queue held nothing before the call
     */
    public long removeMessages(List<MessageExt> msgs) {
        treeLock.writeLock().lock();
        try {
            lastConsumeTimestamp = System.currentTimeMillis();
            if (messages.isEmpty()) {
                return -1;
            }
            for (MessageExt msg : msgs) {
                if (messages.remove(msg.getQueueOffset()) != null) {
                    count.decrementAndGet();
                    size.addAndGet(-bodySize(msg));
                }
            }
            return messages.isEmpty() ? maxOffset + 1 : messages.firstKey();
        } finally {
            treeLock.writeLock().unlock();
        }
    }

    /** Highest minus lowest offset held: how far consumption lags behind pulling within this queue. */
    public long maxSpan() {
        treeLock.readLock().lock();
        try {
            return messages.isEmpty() ? 0 : messages.lastKey() - messages.firstKey();
        } finally {
            treeLock.readLock().unlock();
        }
    }

    /** Messages held (including those being consumed). */
    public long messageCount() {
        return count.get();
    }

    /** Bytes of the bodies held. */
    public long messageSize() {
        return size.get();
    }

    /** The offset to commit now: lowest held, or highest seen + 1; -1 when nothing was ever held. */
    public long commitableOffset() {
        treeLock.readLock().lock();
        try {
            if (!consumingOrderly.isEmpty()) {
                return consumingOrderly.firstKey();
            }
            return messages.isEmpty() ? (maxOffset < 0 ? -1 : maxOffset + 1) : messages.firstKey();
        } finally {
            treeLock.readLock().unlock();
        }
    }

    /** The first messages held, oldest first (for the consume-timeout scan). */
    public List<MessageExt> firstMessages(int max) {
        treeLock.readLock().lock();
        try {
            List<MessageExt> out = new ArrayList<>(Math.min(max, messages.size()));
            for (MessageExt msg : messages.values()) {
                if (out.size() >= max) {
                    break;
                }
                out.add(msg);
            }
            return out;
        } finally {
            treeLock.readLock().unlock();
        }
    }

    // ------------------------------------------------------------------ orderly

    /**
     * Moves up to {@code batchSize} of the lowest-offset messages into consumption. An empty result ends the
     * current consume request ({@link #putMessages} starts the next one).
     */
    public List<MessageExt> takeMessages(int batchSize) {
        treeLock.writeLock().lock();
        try {
            lastConsumeTimestamp = System.currentTimeMillis();
            List<MessageExt> out = new ArrayList<>(batchSize);
            while (out.size() < batchSize && !messages.isEmpty()) {
                Map.Entry<Long, MessageExt> first = messages.pollFirstEntry();
                consumingOrderly.put(first.getKey(), first.getValue());
                out.add(first.getValue());
            }
            if (out.isEmpty()) {
                consuming = false;
            }
            return out;
        } finally {
            treeLock.writeLock().unlock();
        }
    }

    /** The messages being consumed orderly failed: put them back to be consumed again, first. */
    public void makeMessagesToConsumeAgain(List<MessageExt> msgs) {
        treeLock.writeLock().lock();
        try {
            for (MessageExt msg : msgs) {
                consumingOrderly.remove(msg.getQueueOffset());
                messages.put(msg.getQueueOffset(), msg);
            }
        } finally {
            treeLock.writeLock().unlock();
        }
    }

    /**
     * The messages being consumed orderly succeeded: forget them.
     *
     * @return the offset to commit (the highest consumed + 1), or -1 when nothing was being consumed
     */
    public long commit() {
        treeLock.writeLock().lock();
        try {
            if (consumingOrderly.isEmpty()) {
                return -1;
            }
            long next = consumingOrderly.lastKey() + 1;
            for (MessageExt msg : consumingOrderly.values()) {
                count.decrementAndGet();
                size.addAndGet(-bodySize(msg));
            }
            consumingOrderly.clear();
            return next;
        } finally {
            treeLock.writeLock().unlock();
        }
    }

    /** Serialises orderly consumption of this queue: one thread at a time, and rebalance waits for it. */
    public ReentrantLock consumeLock() {
        return consumeLock;
    }

    // ------------------------------------------------------------------ state

    public boolean isDropped() {
        return dropped;
    }

    public void setDropped(boolean dropped) {
        this.dropped = dropped;
    }

    public boolean isLocked() {
        return locked;
    }

    public void setLocked(boolean locked) {
        this.locked = locked;
        if (locked) {
            lastLockTimestamp = System.currentTimeMillis();
        }
    }

    public boolean isLockExpired(long now) {
        return now - lastLockTimestamp > LOCK_MAX_LIVE_MILLIS;
    }

    public void markPulled(long now) {
        lastPullTimestamp = now;
    }

    public boolean isPullExpired(long now) {
        return now - lastPullTimestamp > PULL_MAX_IDLE_MILLIS;
    }

    public long lastConsumeTimestamp() {
        return lastConsumeTimestamp;
    }

    private static long bodySize(MessageExt msg) {
        return msg.getBody() == null ? 0 : msg.getBody().length;
    }

    @Override
    public String toString() {
        return "ProcessQueue{count=" + count.get() + ", size=" + size.get() + ", dropped=" + dropped + ", locked="
                + locked + "}";
    }
}

package dev.wharf.broker.lock;

import dev.wharf.common.message.MessageQueue;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Orderly consumption locks: within a consumer group, a queue is held by at most one client at a time. A
 * client renews its locks periodically (LOCK_BATCH_MQ every 20 s); a lock not renewed for
 * {@code maxLiveMillis} expires and another client may take it. Thread-safe: one monitor per group, so groups
 * never wait for each other.
 */
public final class RebalanceLockManager {

    private static final class LockEntry {
        final String clientId;
        long lastUpdate;

        LockEntry(String clientId, long lastUpdate) {
            this.clientId = clientId;
            this.lastUpdate = lastUpdate;
        }
    }

    private final ConcurrentHashMap<String, Map<MessageQueue, LockEntry>> groups = new ConcurrentHashMap<>();
    private final long maxLiveMillis;
    private final LongSupplier clock;

    public RebalanceLockManager(long maxLiveMillis, LongSupplier clock) {
        this.maxLiveMillis = maxLiveMillis;
        this.clock = clock;
    }

    /**
     * Locks (or renews) as many of the queues as possible for the client.
     *
     * @return the queues the client holds now, among those asked for
     */
    public Set<MessageQueue> tryLockBatch(String group, Set<MessageQueue> queues, String clientId) {
        Map<MessageQueue, LockEntry> locks = groups.computeIfAbsent(group, g -> new HashMap<>());
        Set<MessageQueue> locked = new HashSet<>();
        long now = clock.getAsLong();
        synchronized (locks) {
            for (MessageQueue mq : queues) {
                LockEntry entry = locks.get(mq);
                if (entry == null || isExpired(entry, now) || entry.clientId.equals(clientId)) {
                    locks.put(mq, new LockEntry(clientId, now));
                    locked.add(mq);
                }
            }
        }
        return locked;
    }

    /** Releases the client's locks on these queues (locks held by others are left alone). */
    public void unlockBatch(String group, Set<MessageQueue> queues, String clientId) {
        Map<MessageQueue, LockEntry> locks = groups.get(group);
        if (locks == null) {
            return;
        }
        synchronized (locks) {
            for (MessageQueue mq : queues) {
                LockEntry entry = locks.get(mq);
                if (entry != null && entry.clientId.equals(clientId)) {
                    locks.remove(mq);
                }
            }
        }
    }

    /** Releases every lock the client holds in the group (it left the group). */
    public void unlockAll(String group, String clientId) {
        Map<MessageQueue, LockEntry> locks = groups.get(group);
        if (locks == null) {
            return;
        }
        synchronized (locks) {
            locks.values().removeIf(e -> e.clientId.equals(clientId));
        }
    }

    /** Whether the client holds an unexpired lock on the queue. */
    public boolean isLockedBy(String group, MessageQueue mq, String clientId) {
        Map<MessageQueue, LockEntry> locks = groups.get(group);
        if (locks == null) {
            return false;
        }
        synchronized (locks) {
            LockEntry entry = locks.get(mq);
            return entry != null && entry.clientId.equals(clientId) && !isExpired(entry, clock.getAsLong());
        }
    }

    private boolean isExpired(LockEntry entry, long now) {
        return now - entry.lastUpdate > maxLiveMillis;
    }
}

package dev.wharf.broker.offset;

import dev.wharf.broker.config.JsonConfigFile;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Committed consumer offsets: per "topic@group" a map of queue id to the next offset to consume. Commits
 * overwrite in memory; {@link #persist()} (every few seconds and at shutdown) writes the table atomically when
 * it changed.
 *
 * <p>Offset resets race the consumers: a member that has not yet heard of a reset may still commit its old
 * position (directly or piggy-backed on a pull) and undo it. So a reset puts a guard on each queue it moved:
 * commits to a guarded queue are ignored until a consumer reads the queue's offset again (which is what a
 * consumer does when told to re-read its offsets), or until the guard expires.
 *
 * <p>Thread-safe; commits and queries take no lock beyond the concurrent maps'.
 */
public final class ConsumerOffsetManager {

    private static final Logger log = LoggerFactory.getLogger(ConsumerOffsetManager.class);
    private static final char SEPARATOR = '@';

    /** The persisted document: "topic@group" to queue id to offset. */
    public record OffsetsDocument(Map<String, Map<Integer, Long>> offsetTable) {
    }

    private final ConcurrentHashMap<String, ConcurrentHashMap<Integer, Long>> table = new ConcurrentHashMap<>();
    /** "topic@group" to queue id to the wall-clock millis the reset guard ends. */
    private final ConcurrentHashMap<String, ConcurrentHashMap<Integer, Long>> resetGuards = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();
    private volatile long persistedVersion;
    private final JsonConfigFile<OffsetsDocument> file;
    private final long resetGuardMillis;
    private final LongSupplier clock;

    /**
     * @param file             where offsets are persisted (null = memory only)
     * @param resetGuardMillis longest time commits to a reset queue are ignored
     */
    public ConsumerOffsetManager(JsonConfigFile<OffsetsDocument> file, long resetGuardMillis) {
        this(file, resetGuardMillis, System::currentTimeMillis);
    }

    ConsumerOffsetManager(JsonConfigFile<OffsetsDocument> file, long resetGuardMillis, LongSupplier clock) {
        this.file = file;
        this.resetGuardMillis = resetGuardMillis;
        this.clock = clock;
    }

    static String key(String topic, String group) {
        return topic + SEPARATOR + group;
    }

    /**
     * Commits a consumer's position.
     *
     * @return false when the commit was ignored because the queue was reset and its consumer has not re-read it
     */
    public boolean commitOffset(String group, String topic, int queueId, long offset) {
        String key = key(topic, group);
        if (isGuarded(key, queueId)) {
            return false;
        }
        Long previous = table.computeIfAbsent(key, k -> new ConcurrentHashMap<>()).put(queueId, offset);
        if (previous == null || previous != offset) {
            version.incrementAndGet();
        }
        return true;
    }

    private boolean isGuarded(String key, int queueId) {
        ConcurrentHashMap<Integer, Long> guards = resetGuards.get(key);
        if (guards == null) {
            return false;
        }
        Long until = guards.get(queueId);
        if (until == null) {
            return false;
        }
        if (clock.getAsLong() >= until) {
            guards.remove(queueId, until);
            return false;
        }
        return true;
    }

    /** The committed offset, or -1 when the group never committed one for the queue. */
    public long queryOffset(String group, String topic, int queueId) {
        Map<Integer, Long> offsets = table.get(key(topic, group));
        if (offsets == null) {
            return -1L;
        }
        Long offset = offsets.get(queueId);
        return offset == null ? -1L : offset;
    }

    /**
     * A consumer reads its offset: like {@link #queryOffset}, and it lifts the queue's reset guard since the
     * consumer now knows the reset position.
     */
    public long queryOffsetForConsumer(String group, String topic, int queueId) {
        String key = key(topic, group);
        ConcurrentHashMap<Integer, Long> guards = resetGuards.get(key);
        if (guards != null) {
            guards.remove(queueId);
        }
        return queryOffset(group, topic, queueId);
    }

    /** The group's committed offsets of a topic (queue id to offset), a snapshot; empty when none. */
    public Map<Integer, Long> offsets(String group, String topic) {
        Map<Integer, Long> offsets = table.get(key(topic, group));
        return offsets == null ? Map.of() : new TreeMap<>(offsets);
    }

    /** Topics the group has committed offsets for. */
    public Set<String> topicsOf(String group) {
        Set<String> out = new TreeSet<>();
        String suffix = SEPARATOR + group;
        for (String key : table.keySet()) {
            if (key.endsWith(suffix)) {
                out.add(key.substring(0, key.length() - suffix.length()));
            }
        }
        return out;
    }

    /** Groups that have committed offsets of the topic. */
    public Set<String> groupsOf(String topic) {
        Set<String> out = new TreeSet<>();
        String prefix = topic + SEPARATOR;
        for (String key : table.keySet()) {
            if (key.startsWith(prefix)) {
                out.add(key.substring(prefix.length()));
            }
        }
        return out;
    }

    /**
     * Moves the group's offsets of a topic (administration) and guards the moved queues against stale
     * commits; see the class comment.
     */
    public void resetOffsets(String group, String topic, Map<Integer, Long> offsets) {
        String key = key(topic, group);
        long until = clock.getAsLong() + resetGuardMillis;
        ConcurrentHashMap<Integer, Long> guards = resetGuardMillis > 0
                ? resetGuards.computeIfAbsent(key, k -> new ConcurrentHashMap<>()) : null;
        ConcurrentHashMap<Integer, Long> queues = table.computeIfAbsent(key, k -> new ConcurrentHashMap<>());
        offsets.forEach((queueId, offset) -> {
            queues.put(queueId, offset);
            if (guards != null) {
                guards.put(queueId, until);
            }
        });
        version.incrementAndGet();
        log.info("Reset offsets of group {} on topic {} to {}", group, topic, new TreeMap<>(offsets));
    }

    /** Forgets every group's offsets of a deleted topic. */
    public void removeTopic(String topic) {
        String prefix = topic + SEPARATOR;
        boolean removed = table.keySet().removeIf(k -> k.startsWith(prefix));
        resetGuards.keySet().removeIf(k -> k.startsWith(prefix));
        if (removed) {
            version.incrementAndGet();
        }
    }

    /** Forgets every offset of a group. */
    public void removeGroup(String group) {
        String suffix = SEPARATOR + group;
        boolean removed = table.keySet().removeIf(k -> k.endsWith(suffix));
        resetGuards.keySet().removeIf(k -> k.endsWith(suffix));
        if (removed) {
            version.incrementAndGet();
        }
    }

    /**
     * Loads the persisted offsets, replacing what is in memory.
     *
     * @throws IOException the file exists but neither it nor its backup is readable
     */
    public void load() throws IOException {
        if (file == null) {
            return;
        }
        OffsetsDocument doc = file.load();
        table.clear();
        if (doc != null && doc.offsetTable() != null) {
            doc.offsetTable().forEach((key, queues) -> {
                if (key.indexOf(SEPARATOR) > 0 && queues != null) {
                    ConcurrentHashMap<Integer, Long> copy = new ConcurrentHashMap<>();
                    queues.forEach((q, o) -> {
                        if (q != null && o != null) {
                            copy.put(q, o);
                        }
                    });
                    table.put(key, copy);
                }
            });
            log.info("Loaded the offsets of {} topic/group pairs from {}", table.size(), file.path());
        }
        persistedVersion = version.get();
    }

    /** Writes the table when it changed since the last write. */
    public synchronized void persist() throws IOException {
        if (file == null) {
            return;
        }
        long current = version.get();
        if (current == persistedVersion) {
            return;
        }
        Map<String, Map<Integer, Long>> snapshot = new TreeMap<>();
        table.forEach((key, queues) -> snapshot.put(key, new TreeMap<>(queues)));
        file.persist(new OffsetsDocument(snapshot));
        persistedVersion = current;
    }

    /**
     * Makes the table equal to {@code replacement} ("topic@group" to queue to offset): a slave installing its
     * master's offsets. Entries not in it are removed; reset guards stay.
     */
    public void replaceAll(Map<String, Map<Integer, Long>> replacement) {
        boolean changed = table.keySet().removeIf(k -> !replacement.containsKey(k));
        for (Map.Entry<String, Map<Integer, Long>> e : replacement.entrySet()) {
            if (e.getKey().indexOf(SEPARATOR) <= 0 || e.getValue() == null) {
                continue;
            }
            ConcurrentHashMap<Integer, Long> queues = table.computeIfAbsent(e.getKey(), k -> new ConcurrentHashMap<>());
            changed |= queues.keySet().removeIf(q -> !e.getValue().containsKey(q));
            for (Map.Entry<Integer, Long> q : e.getValue().entrySet()) {
                if (q.getKey() != null && q.getValue() != null) {
                    Long previous = queues.put(q.getKey(), q.getValue());
                    changed |= previous == null || !previous.equals(q.getValue());
                }
            }
        }
        if (changed) {
            version.incrementAndGet();
        }
    }

    /** Every committed offset, for tools: "topic@group" to queue to offset. */
    public Map<String, Map<Integer, Long>> snapshot() {
        Map<String, Map<Integer, Long>> out = new HashMap<>();
        table.forEach((key, queues) -> out.put(key, new TreeMap<>(queues)));
        return out;
    }
}

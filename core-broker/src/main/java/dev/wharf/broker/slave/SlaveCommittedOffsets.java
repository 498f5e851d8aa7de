package dev.wharf.broker.slave;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The offsets consumers committed to this slave (UPDATE_CONSUMER_OFFSET while their route had no master), and the
 * rule that merges them with the master's table on each sync round (see the package comment): a slave-committed
 * offset above the master's wins and is to be handed back; one at or below the master's is forgotten.
 * Keys are the offset table's "topic@group". Thread-safe.
 */
public final class SlaveCommittedOffsets {

    /** One offset to give back to the master. */
    public record HandBack(String topic, String group, int queueId, long offset) {
    }

    /** The merged table to install and the offsets to hand back to the master. */
    public record Merge(Map<String, Map<Integer, Long>> table, java.util.List<HandBack> handBacks) {
    }

    private final ConcurrentHashMap<String, ConcurrentHashMap<Integer, Long>> committed = new ConcurrentHashMap<>();

    /** Records a client's commit to this slave (the highest one per queue counts). */
    public void record(String topic, String group, int queueId, long offset) {
        // compute: atomic with the removal of emptied entries in merge()
        committed.compute(topic + '@' + group, (k, queues) -> {
            ConcurrentHashMap<Integer, Long> q = queues == null ? new ConcurrentHashMap<>() : queues;
            q.merge(queueId, offset, Math::max);
            return q;
        });
    }

    /** Slave-committed offsets not yet seen on the master (for tests and the admin view). */
    public int pendingCount() {
        int n = 0;
        for (Map<Integer, Long> queues : committed.values()) {
            n += queues.size();
        }
        return n;
    }

    /**
     * Merges the master's table with the slave-committed offsets: the master's values, except where a
     * slave-committed offset is above them (or the master has none), which stays and is listed for hand-back;
     * slave-committed offsets the master has reached are forgotten.
     */
    public Merge merge(Map<String, Map<Integer, Long>> master) {
        Map<String, Map<Integer, Long>> table = new HashMap<>();
        master.forEach((key, queues) -> table.put(key, new TreeMap<>(queues)));
        java.util.List<HandBack> handBacks = new java.util.ArrayList<>();
        for (Map.Entry<String, ConcurrentHashMap<Integer, Long>> e : committed.entrySet()) {
            String key = e.getKey();
            int at = key.indexOf('@');
            Map<Integer, Long> masterQueues = master.getOrDefault(key, Map.of());
            for (Map.Entry<Integer, Long> q : e.getValue().entrySet()) {
                Long masterOffset = masterQueues.get(q.getKey());
                long mine = q.getValue();
                if (masterOffset != null && masterOffset >= mine) {
                    e.getValue().remove(q.getKey(), mine);
                    continue;
                }
                table.computeIfAbsent(key, k -> new TreeMap<>()).put(q.getKey(), mine);
                handBacks.add(new HandBack(key.substring(0, at), key.substring(at + 1), q.getKey(), mine));
            }
        }
        for (String key : committed.keySet()) {
            committed.computeIfPresent(key, (k, queues) -> queues.isEmpty() ? null : queues);
        }
        return new Merge(table, handBacks);
    }
}

package dev.wharf.broker.ack.state;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Every group's acknowledgement state, per (group, topic). Lookups read a concurrent map; creating and
 * deleting a (group, topic) is done by {@code AckService} under this table's monitor, so that the log
 * records of a creation or deletion are ordered with the state they describe.
 */
public final class AckStateTable {

    private record Key(String group, String topic) {
    }

    private final ConcurrentHashMap<Key, GroupAck> groups = new ConcurrentHashMap<>();

    public GroupAck find(String group, String topic) {
        return groups.get(new Key(group, topic));
    }

    public QueueAckState find(String group, String topic, int queueId) {
        GroupAck g = groups.get(new Key(group, topic));
        return g == null ? null : g.queue(queueId);
    }

    /** The (group, topic) entry, created empty when missing; call under this table's monitor. */
    public GroupAck getOrCreate(String group, String topic) {
        return groups.computeIfAbsent(new Key(group, topic), k -> new GroupAck(group, topic));
    }

    /** Removes a (group, topic); call under this table's monitor. */
    public GroupAck remove(String group, String topic) {
        return groups.remove(new Key(group, topic));
    }

    /** Every (group, topic), sorted by group then topic. */
    public List<GroupAck> all() {
        List<GroupAck> out = new ArrayList<>(groups.values());
        out.sort(Comparator.comparing((GroupAck g) -> g.group).thenComparing(g -> g.topic));
        return out;
    }

    /** The entries of one group, sorted by topic. */
    public List<GroupAck> ofGroup(String group) {
        List<GroupAck> out = new ArrayList<>();
        for (GroupAck g : groups.values()) {
            if (g.group.equals(group)) {
                out.add(g);
            }
        }
        out.sort(Comparator.comparing(g -> g.topic));
        return out;
    }

    public void forEachQueue(Consumer<QueueAckState> action) {
        for (GroupAck g : groups.values()) {
            for (QueueAckState q : g.queueStates()) {
                action.accept(q);
            }
        }
    }

    /** Drops every entry of a topic (the topic was deleted). */
    public List<GroupAck> removeTopic(String topic) {
        List<GroupAck> removed = new ArrayList<>();
        groups.entrySet().removeIf(e -> {
            if (e.getKey().topic().equals(topic)) {
                removed.add(e.getValue());
                return true;
            }
            return false;
        });
        return removed;
    }

    public int size() {
        return groups.size();
    }
}

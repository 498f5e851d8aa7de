package dev.wharf.broker.ack;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Every group's acknowledgement state, per (group, topic). Lookups read a concurrent map; creating and
 * deleting a (group, topic) is done by {@link AckService} under this table's monitor, so that the log
 * records of a creation or deletion are ordered with the state they describe.
 */
final class AckStateTable {

    private record Key(String group, String topic) {
    }

    private final ConcurrentHashMap<Key, GroupAck> groups = new ConcurrentHashMap<>();

    GroupAck find(String group, String topic) {
        return groups.get(new Key(group, topic));
    }

    QueueAckState find(String group, String topic, int queueId) {
        GroupAck g = groups.get(new Key(group, topic));
        return g == null ? null : g.queue(queueId);
    }

    /** The (group, topic) entry, created empty when missing; call under this table's monitor. */
    GroupAck getOrCreate(String group, String topic) {
        return groups.computeIfAbsent(new Key(group, topic), k -> new GroupAck(group, topic));
    }

    /** Removes a (group, topic); call under this table's monitor. */
    GroupAck remove(String group, String topic) {
        return groups.remove(new Key(group, topic));
    }

    /** Every (group, topic), sorted by group then topic. */
    List<GroupAck> all() {
        List<GroupAck> out = new ArrayList<>(groups.values());
        out.sort(Comparator.comparing((GroupAck g) -> g.group).thenComparing(g -> g.topic));
        return out;
    }

    /** The entries of one group, sorted by topic. */
    List<GroupAck> ofGroup(String group) {
        List<GroupAck> out = new ArrayList<>();
        for (GroupAck g : groups.values()) {
            if (g.group.equals(group)) {
                out.add(g);
            }
        }
        out.sort(Comparator.comparing(g -> g.topic));
        return out;
    }

    void forEachQueue(Consumer<QueueAckState> action) {
        for (GroupAck g : groups.values()) {
            for (QueueAckState q : g.queueStates()) {
                action.accept(q);
            }
        }
    }

    /** Drops every entry of a topic (the topic was deleted). */
    List<GroupAck> removeTopic(String topic) {
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

    int size() {
        return groups.size();
    }
}

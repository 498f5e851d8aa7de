package dev.wharf.broker.ack.state;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One group's acknowledgement state on one topic: a {@link QueueAckState} per queue, the rotating start of
 * "any queue" pops, and the maxReconsumeTimes its pops asked for. Thread-safe (queue states have their own
 * locks).
 */
public final class GroupAck {

    public final String group;
    public final String topic;
    private final ConcurrentHashMap<Integer, QueueAckState> queues = new ConcurrentHashMap<>();
    private final AtomicInteger rotation = new AtomicInteger();
    /** The maxReconsumeTimes the group's pops asked for last; -1 = the group's retryMaxTimes. */
    private volatile int maxReconsumeTimes = -1;

    public GroupAck(String group, String topic) {
        this.group = group;
        this.topic = topic;
    }

    public QueueAckState queue(int queueId) {
        return queues.get(queueId);
    }

    /** Adds a queue's state unless one exists; returns the state now in place. */
    public QueueAckState putIfAbsent(QueueAckState state) {
        QueueAckState existing = queues.putIfAbsent(state.queueId, state);
        return existing == null ? state : existing;
    }

    /** The queue states sorted by queue id (a snapshot of the map). */
    public Map<Integer, QueueAckState> queues() {
        return new TreeMap<>(queues);
    }

    public Iterable<QueueAckState> queueStates() {
        return queues.values();
    }

    /** The queue an "any queue" pop starts at, moving on by one per pop. */
    public int nextStart(int queueCount) {
        return Math.floorMod(rotation.getAndIncrement(), queueCount);
    }

    public int maxReconsumeTimes() {
        return maxReconsumeTimes;
    }

    public void maxReconsumeTimes(int value) {
        maxReconsumeTimes = value;
    }
}

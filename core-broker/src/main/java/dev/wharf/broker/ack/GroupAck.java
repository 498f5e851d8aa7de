package dev.wharf.broker.ack;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One group's acknowledgement state on one topic: a {@link QueueAckState} per queue, the rotating start of
 * "any queue" pops, and a counter of returned leases that held pops compare to notice messages that became
 * available again while they registered. Thread-safe (queue states have their own locks).
 */
final class GroupAck {

    final String group;
    final String topic;
    private final ConcurrentHashMap<Integer, QueueAckState> queues = new ConcurrentHashMap<>();
    private final AtomicInteger rotation = new AtomicInteger();
    private final AtomicLong returns = new AtomicLong();
    /** The maxReconsumeTimes the group's pops asked for last; -1 = the group's retryMaxTimes. */
    private volatile int maxReconsumeTimes = -1;

    GroupAck(String group, String topic) {
        this.group = group;
        this.topic = topic;
    }

    QueueAckState queue(int queueId) {
        return queues.get(queueId);
    }

    /** Adds a queue's state unless one exists; returns the state now in place. */
    QueueAckState putIfAbsent(QueueAckState state) {
        QueueAckState existing = queues.putIfAbsent(state.queueId, state);
        return existing == null ? state : existing;
    }

    /** The queue states sorted by queue id (a snapshot of the map). */
    Map<Integer, QueueAckState> queues() {
        return new TreeMap<>(queues);
    }

    Iterable<QueueAckState> queueStates() {
        return queues.values();
    }

    /** The queue an "any queue" pop starts at, moving on by one per pop. */
    int nextStart(int queueCount) {
        return Math.floorMod(rotation.getAndIncrement(), queueCount);
    }

    long returnsVersion() {
        return returns.get();
    }

    void leasesReturned() {
        returns.incrementAndGet();
    }

    int maxReconsumeTimes() {
        return maxReconsumeTimes;
    }

    void maxReconsumeTimes(int value) {
        maxReconsumeTimes = value;
    }
}

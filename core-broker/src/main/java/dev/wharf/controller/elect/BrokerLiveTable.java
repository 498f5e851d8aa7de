package dev.wharf.controller.elect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leader's table of replica heartbeats, keyed by broker name and the controller's stable broker id (never by
 * role or address, so a leader change or an address move cannot confuse who the master was). Besides heartbeats it
 * holds presumptions: a new leader has heard from nobody yet (heartbeats live in the old leader's memory only), so it
 * presumes every registered replica alive for one heartbeat timeout rather than judging a healthy master dead
 * because it has not found the new leader yet. A presumption keeps a replica from counting as dead; it never makes
 * one a candidate (nothing is known of its log). Thread-safe.
 */
public final class BrokerLiveTable {

    private record Key(String brokerName, long brokerId) {
    }

    private final Map<Key, LiveBroker> table = new ConcurrentHashMap<>();
    /** Presumed alive until this time (ms), without a heartbeat heard yet. */
    private final Map<Key, Long> presumedUntil = new ConcurrentHashMap<>();

    public void onHeartbeat(LiveBroker broker) {
        Key key = new Key(broker.brokerName(), broker.brokerId());
        table.put(key, broker);
        presumedUntil.remove(key); // heard from: the heartbeat's own timeout applies from now on
    }

    /**
     * Presumes a replica alive until {@code untilMillis} unless a heartbeat (or a closed connection) says more. A
     * replica already heard from is left as it is.
     */
    public void presume(String brokerName, long brokerId, long untilMillis) {
        Key key = new Key(brokerName, brokerId);
        if (!table.containsKey(key)) {
            presumedUntil.merge(key, untilMillis, Math::max);
        }
    }

    /** Whether the replica is only presumed alive now: not heard from since the presumption, which still holds. */
    public boolean presumed(String brokerName, long brokerId, long nowMillis) {
        Long until = presumedUntil.get(new Key(brokerName, brokerId));
        return until != null && nowMillis <= until;
    }

    /** Whether the replica must not be counted dead: heartbeating within its timeout, or presumed alive. */
    public boolean aliveOrPresumed(String brokerName, long brokerId, long nowMillis) {
        return alive(brokerName, brokerId, nowMillis) != null || presumed(brokerName, brokerId, nowMillis);
    }

    /** Ends the presumptions that ran out without a heartbeat and returns them as "brokerName/brokerId". */
    public List<String> expirePresumptions(long nowMillis) {
        List<String> expired = new ArrayList<>();
        presumedUntil.entrySet().removeIf(e -> {
            if (nowMillis > e.getValue()) {
                expired.add(e.getKey().brokerName() + "/" + e.getKey().brokerId());
                return true;
            }
            return false;
        });
        return expired;
    }

    /** The broker's last heartbeat if it is still within its timeout, else null. */
    public LiveBroker alive(String brokerName, long brokerId, long nowMillis) {
        LiveBroker b = table.get(new Key(brokerName, brokerId));
        return b != null && b.aliveAt(nowMillis) ? b : null;
    }

    /** The last heartbeat whether or not it is recent (for display). */
    public LiveBroker last(String brokerName, long brokerId) {
        return table.get(new Key(brokerName, brokerId));
    }

    /** Alive replicas of a broker name. */
    public List<LiveBroker> alive(String brokerName, long nowMillis) {
        List<LiveBroker> out = new ArrayList<>();
        for (LiveBroker b : table.values()) {
            if (b.brokerName().equals(brokerName) && b.aliveAt(nowMillis)) {
                out.add(b);
            }
        }
        return out;
    }

    /** Forgets every broker that heartbeated over this connection (it closed: they are gone now, not in 3 s). */
    public List<LiveBroker> removeChannel(Object channel) {
        List<LiveBroker> removed = new ArrayList<>();
        table.entrySet().removeIf(e -> {
            if (Objects.equals(e.getValue().channel(), channel)) {
                removed.add(e.getValue());
                return true;
            }
            return false;
        });
        return removed;
    }

    /** Removes the entries whose timeout passed and returns them. */
    public List<LiveBroker> expire(long nowMillis) {
        List<LiveBroker> expired = new ArrayList<>();
        table.entrySet().removeIf(e -> {
            if (!e.getValue().aliveAt(nowMillis)) {
                expired.add(e.getValue());
                return true;
            }
            return false;
        });
        return expired;
    }

    public void clear() {
        table.clear();
        presumedUntil.clear();
    }
}

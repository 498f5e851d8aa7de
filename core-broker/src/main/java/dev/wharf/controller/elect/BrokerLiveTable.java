package dev.wharf.controller.elect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leader's table of replica heartbeats, keyed by broker name and the controller's stable broker id (never by
 * role or address, so a leader change or an address move cannot confuse who the master was). Thread-safe.
 */
public final class BrokerLiveTable {

    private record Key(String brokerName, long brokerId) {
    }

    private final Map<Key, LiveBroker> table = new ConcurrentHashMap<>();

    public void onHeartbeat(LiveBroker broker) {
        table.put(new Key(broker.brokerName(), broker.brokerId()), broker);
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
    }
}

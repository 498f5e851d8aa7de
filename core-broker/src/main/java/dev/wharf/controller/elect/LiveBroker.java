package dev.wharf.controller.elect;

/**
 * The last heartbeat of one replica, as the leader saw it. {@code channel} is the connection it came over (an opaque
 * key for the notifier and for "the connection closed, the broker is gone").
 */
public record LiveBroker(String clusterName, String brokerName, long brokerId, String address, long lastHeartbeatMillis,
                         long timeoutMillis, int epoch, long maxOffset, long confirmOffset, int electionPriority,
                         Object channel) {

    public boolean aliveAt(long nowMillis) {
        return nowMillis - lastHeartbeatMillis <= timeoutMillis;
    }
}

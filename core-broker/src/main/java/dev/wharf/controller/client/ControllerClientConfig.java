package dev.wharf.controller.client;

/**
 * A broker's settings for talking to the controller, with RocketMQ's key names (they belong in the broker's
 * configuration file once brokers run in controller mode).
 */
public class ControllerClientConfig {

    private String controllerAddr = "";
    private long brokerHeartbeatInterval = 500;
    private long controllerHeartBeatTimeoutMills = 3_000;
    private int brokerElectionPriority = Integer.MAX_VALUE;
    private long syncBrokerMetadataPeriod = 5_000;
    private long controllerRequestTimeoutMillis = 3_000;

    /** The controllers, "host:port;host:port;..." (their remoting ports; a NameServer's port for embedded ones). */
    public String getControllerAddr() {
        return controllerAddr;
    }

    public void setControllerAddr(String controllerAddr) {
        this.controllerAddr = controllerAddr == null ? "" : controllerAddr.trim();
    }

    /** How often (ms) the broker heartbeats to the controller leader. */
    public long getBrokerHeartbeatInterval() {
        return brokerHeartbeatInterval;
    }

    public void setBrokerHeartbeatInterval(long brokerHeartbeatInterval) {
        positive("brokerHeartbeatInterval", brokerHeartbeatInterval);
        this.brokerHeartbeatInterval = brokerHeartbeatInterval;
    }

    /** After how long (ms) without a heartbeat the controller counts this broker dead (sent with each heartbeat). */
    public long getControllerHeartBeatTimeoutMills() {
        return controllerHeartBeatTimeoutMills;
    }

    public void setControllerHeartBeatTimeoutMills(long controllerHeartBeatTimeoutMills) {
        positive("controllerHeartBeatTimeoutMills", controllerHeartBeatTimeoutMills);
        this.controllerHeartBeatTimeoutMills = controllerHeartBeatTimeoutMills;
    }

    /** Among equally caught-up replicas, the lowest priority becomes master. */
    public int getBrokerElectionPriority() {
        return brokerElectionPriority;
    }

    public void setBrokerElectionPriority(int brokerElectionPriority) {
        this.brokerElectionPriority = brokerElectionPriority;
    }

    /** How often (ms) the broker polls its group's replica info, besides heartbeat answers and pushed notices. */
    public long getSyncBrokerMetadataPeriod() {
        return syncBrokerMetadataPeriod;
    }

    public void setSyncBrokerMetadataPeriod(long syncBrokerMetadataPeriod) {
        positive("syncBrokerMetadataPeriod", syncBrokerMetadataPeriod);
        this.syncBrokerMetadataPeriod = syncBrokerMetadataPeriod;
    }

    /** How long (ms) a request to the controller may take, leader search included. */
    public long getControllerRequestTimeoutMillis() {
        return controllerRequestTimeoutMillis;
    }

    public void setControllerRequestTimeoutMillis(long controllerRequestTimeoutMillis) {
        positive("controllerRequestTimeoutMillis", controllerRequestTimeoutMillis);
        this.controllerRequestTimeoutMillis = controllerRequestTimeoutMillis;
    }

    private static void positive(String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be positive, got " + value);
        }
    }
}

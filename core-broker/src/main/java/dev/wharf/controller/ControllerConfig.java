package dev.wharf.controller;

import java.nio.file.Path;

/**
 * Settings of a controller node. RocketMQ's key names where RocketMQ has the setting; its DLedger-specific keys
 * ({@code controllerDLegerGroup}/{@code Peers}/{@code SelfId}) become {@code controllerGroup}, {@code controllerPeers}
 * and {@code controllerSelfId}, since Wharf's controller runs on Apache Ratis. Defaults aim at a failover within about
 * 5 s of a master going silent: brokers heartbeat every 500 ms, a master silent for 3 s is dead, the leader looks
 * every 500 ms. A change of controller leader must be over well within a master's lease (2 s by default) or every
 * master stops acknowledging writes meanwhile: a Raft election timeout of 500–1000 ms, plus the vote and the brokers
 * finding the new leader, keeps it under about 1.5 s.
 */
public class ControllerConfig {

    private String controllerGroup = "wharf-controller";
    private String controllerPeers = "";
    private String controllerSelfId = "";
    private String controllerStorePath = Path.of(System.getProperty("user.home"), "wharf", "controller").toString();
    private long controllerHeartBeatTimeoutMills = 3_000;
    private long scanNotActiveBrokerInterval = 500;
    private boolean enableElectUncleanMaster = false;
    private boolean notifyBrokerRoleChanged = true;
    private long controllerElectionTimeoutMillis = 500;
    private long controllerRequestTimeoutMillis = 5_000;
    private long controllerSnapshotThreshold = 1_000;
    private int controllerThreadPoolNums = 4;

    /** Name of the Raft group; every node of one controller cluster uses the same. */
    public String getControllerGroup() {
        return controllerGroup;
    }

    public void setControllerGroup(String controllerGroup) {
        if (controllerGroup == null || controllerGroup.isBlank()) {
            throw new IllegalArgumentException("controllerGroup must not be empty");
        }
        this.controllerGroup = controllerGroup.trim();
    }

    /**
     * The nodes of the controller cluster with their Raft addresses: {@code n0=host:port,n1=host:port,n2=host:port}
     * (',' or ';' between nodes). Every node lists all nodes, itself included, identically.
     */
    public String getControllerPeers() {
        return controllerPeers;
    }

    public void setControllerPeers(String controllerPeers) {
        this.controllerPeers = controllerPeers == null ? "" : controllerPeers.trim();
    }

    /** This node's id in {@link #getControllerPeers()}. */
    public String getControllerSelfId() {
        return controllerSelfId;
    }

    public void setControllerSelfId(String controllerSelfId) {
        this.controllerSelfId = controllerSelfId == null ? "" : controllerSelfId.trim();
    }

    /** This node's data folder: Raft log, metadata and snapshots. */
    public String getControllerStorePath() {
        return controllerStorePath;
    }

    public void setControllerStorePath(String controllerStorePath) {
        if (controllerStorePath == null || controllerStorePath.isBlank()) {
            throw new IllegalArgumentException("controllerStorePath must not be empty");
        }
        this.controllerStorePath = controllerStorePath;
    }

    /** A broker silent this long (ms) is dead, unless its heartbeat names its own timeout. */
    public long getControllerHeartBeatTimeoutMills() {
        return controllerHeartBeatTimeoutMills;
    }

    public void setControllerHeartBeatTimeoutMills(long controllerHeartBeatTimeoutMills) {
        positive("controllerHeartBeatTimeoutMills", controllerHeartBeatTimeoutMills);
        this.controllerHeartBeatTimeoutMills = controllerHeartBeatTimeoutMills;
    }

    /** How often (ms) the leader looks for dead brokers and for groups that need a master. */
    public long getScanNotActiveBrokerInterval() {
        return scanNotActiveBrokerInterval;
    }

    public void setScanNotActiveBrokerInterval(long scanNotActiveBrokerInterval) {
        positive("scanNotActiveBrokerInterval", scanNotActiveBrokerInterval);
        this.scanNotActiveBrokerInterval = scanNotActiveBrokerInterval;
    }

    /** Whether a replica outside the sync-state set may become master when no member is alive (may lose messages). */
    public boolean isEnableElectUncleanMaster() {
        return enableElectUncleanMaster;
    }

    public void setEnableElectUncleanMaster(boolean enableElectUncleanMaster) {
        this.enableElectUncleanMaster = enableElectUncleanMaster;
    }

    /** Whether the leader pushes NOTIFY_BROKER_ROLE_CHANGED to the replicas after an election (they also poll). */
    public boolean isNotifyBrokerRoleChanged() {
        return notifyBrokerRoleChanged;
    }

    public void setNotifyBrokerRoleChanged(boolean notifyBrokerRoleChanged) {
        this.notifyBrokerRoleChanged = notifyBrokerRoleChanged;
    }

    /**
     * Raft election timeout (ms): a follower waits between this and twice this before it stands for leader. Twice
     * this plus a heartbeat interval must stay below the brokers' masterLeaseMillis, or a leader change lets masters'
     * leases lapse.
     */
    public long getControllerElectionTimeoutMillis() {
        return controllerElectionTimeoutMillis;
    }

    public void setControllerElectionTimeoutMillis(long controllerElectionTimeoutMillis) {
        positive("controllerElectionTimeoutMillis", controllerElectionTimeoutMillis);
        this.controllerElectionTimeoutMillis = controllerElectionTimeoutMillis;
    }

    /** How long (ms) a request waits for its change to be committed by a majority. */
    public long getControllerRequestTimeoutMillis() {
        return controllerRequestTimeoutMillis;
    }

    public void setControllerRequestTimeoutMillis(long controllerRequestTimeoutMillis) {
        positive("controllerRequestTimeoutMillis", controllerRequestTimeoutMillis);
        this.controllerRequestTimeoutMillis = controllerRequestTimeoutMillis;
    }

    /** Log entries between automatic snapshots (the log before a snapshot is then purged). */
    public long getControllerSnapshotThreshold() {
        return controllerSnapshotThreshold;
    }

    public void setControllerSnapshotThreshold(long controllerSnapshotThreshold) {
        positive("controllerSnapshotThreshold", controllerSnapshotThreshold);
        this.controllerSnapshotThreshold = controllerSnapshotThreshold;
    }

    /** Threads that handle controller requests. */
    public int getControllerThreadPoolNums() {
        return controllerThreadPoolNums;
    }

    public void setControllerThreadPoolNums(int controllerThreadPoolNums) {
        positive("controllerThreadPoolNums", controllerThreadPoolNums);
        this.controllerThreadPoolNums = controllerThreadPoolNums;
    }

    private static void positive(String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be positive, got " + value);
        }
    }
}

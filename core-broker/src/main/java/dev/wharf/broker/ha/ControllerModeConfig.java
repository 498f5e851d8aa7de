package dev.wharf.broker.ha;

import dev.wharf.controller.client.ControllerClientConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * A broker's controller-mode settings (RocketMQ's key names where one exists): whether a Raft controller decides
 * the master of this broker name ({@code enableControllerMode}), where the controllers are, and the heartbeat and
 * lease timing. In controller mode {@code brokerRole} names the role an elected replica takes (ASYNC_MASTER or
 * SYNC_MASTER) and {@code brokerId} is the replica's fixed id at the controller (0: the controller assigns one,
 * which the broker keeps in its store folder for its next start).
 */
public class ControllerModeConfig extends ControllerClientConfig {

    private boolean enableControllerMode;
    private long masterLeaseMillis = 2_000;

    /** Whether the controllers elect this broker name's master (off: classic replication, roles from the file). */
    public boolean isEnableControllerMode() {
        return enableControllerMode;
    }

    public void setEnableControllerMode(boolean enableControllerMode) {
        this.enableControllerMode = enableControllerMode;
    }

    /**
     * How long (ms) a heartbeat the controller accepted lets a master acknowledge writes; below
     * controllerHeartBeatTimeoutMills, so a master cut off from the controllers stops acknowledging before another
     * replica can be elected.
     */
    public long getMasterLeaseMillis() {
        return masterLeaseMillis;
    }

    public void setMasterLeaseMillis(long masterLeaseMillis) {
        this.masterLeaseMillis = masterLeaseMillis;
    }

    /**
     * Checks the settings of a broker in controller mode (nothing when it is off).
     *
     * @param electedRole the configured brokerRole, the role this replica takes when elected
     * @throws IllegalArgumentException naming every wrong key and what to set instead
     */
    public void validate(BrokerRole electedRole) {
        if (!enableControllerMode) {
            return;
        }
        List<String> errors = new ArrayList<>();
        if (getControllerAddr().isEmpty()) {
            errors.add("enableControllerMode=true needs controllerAddr: the controllers' addresses as"
                    + " host:port;host:port (the NameServers' addresses when enableControllerInNamesrv is on)");
        }
        if (!electedRole.isMaster()) {
            errors.add("brokerRole is " + electedRole + " with enableControllerMode=true: in controller mode brokerRole"
                    + " is the role an elected replica takes; set ASYNC_MASTER or SYNC_MASTER (every replica starts"
                    + " as a fenced slave until the controller elects a master)");
        }
        if (masterLeaseMillis <= 0 || masterLeaseMillis >= getControllerHeartBeatTimeoutMills()) {
            errors.add("masterLeaseMillis is " + masterLeaseMillis + "; set it above 0 and below"
                    + " controllerHeartBeatTimeoutMills (" + getControllerHeartBeatTimeoutMills() + "), or a master cut"
                    + " off from the controllers could acknowledge writes after another replica was elected");
        }
        if (getBrokerHeartbeatInterval() * 2 > masterLeaseMillis) {
            errors.add("brokerHeartbeatInterval is " + getBrokerHeartbeatInterval() + " but masterLeaseMillis is "
                    + masterLeaseMillis + "; heartbeat at least twice per lease (lower brokerHeartbeatInterval), or"
                    + " one late heartbeat fences the master");
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", errors));
        }
    }

    @Override
    public String toString() {
        return "ControllerModeConfig{enableControllerMode=" + enableControllerMode + ", controllerAddr="
                + getControllerAddr() + ", brokerHeartbeatInterval=" + getBrokerHeartbeatInterval()
                + ", controllerHeartBeatTimeoutMills=" + getControllerHeartBeatTimeoutMills() + ", masterLeaseMillis="
                + masterLeaseMillis + "}";
    }
}

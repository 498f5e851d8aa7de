package dev.wharf.namesrv;

/** Settings of a NameServer (RocketMQ's key names). The listen port and bind address are the remoting server's. */
public class NameServerConfig {

    private long scanNotActiveBrokerInterval = 10_000;
    private long brokerChannelExpiredTime = 120_000;

    /** How often silent brokers are looked for, in milliseconds. */
    public long getScanNotActiveBrokerInterval() {
        return scanNotActiveBrokerInterval;
    }

    public void setScanNotActiveBrokerInterval(long scanNotActiveBrokerInterval) {
        if (scanNotActiveBrokerInterval <= 0) {
            throw new IllegalArgumentException("scanNotActiveBrokerInterval must be positive (milliseconds)");
        }
        this.scanNotActiveBrokerInterval = scanNotActiveBrokerInterval;
    }

    /** A broker silent for longer than this (milliseconds) is evicted from the routes. */
    public long getBrokerChannelExpiredTime() {
        return brokerChannelExpiredTime;
    }

    public void setBrokerChannelExpiredTime(long brokerChannelExpiredTime) {
        if (brokerChannelExpiredTime <= 0) {
            throw new IllegalArgumentException("brokerChannelExpiredTime must be positive (milliseconds)");
        }
        this.brokerChannelExpiredTime = brokerChannelExpiredTime;
    }

    private boolean enableControllerInNamesrv = false;

    /**
     * Whether this NameServer also runs a controller node, answering the controller requests on the NameServer's
     * port (RocketMQ's key). Its settings (controllerPeers, controllerSelfId, controllerStorePath, ...) are those of
     * {@link dev.wharf.controller.ControllerConfig}, given to the NameServer beside this config.
     */
    public boolean isEnableControllerInNamesrv() {
        return enableControllerInNamesrv;
    }

    public void setEnableControllerInNamesrv(boolean enableControllerInNamesrv) {
        this.enableControllerInNamesrv = enableControllerInNamesrv;
    }
}

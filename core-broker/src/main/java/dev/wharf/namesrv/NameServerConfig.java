package dev.wharf.namesrv;

import dev.wharf.common.config.MetricsExporterKeys;

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

    private String metricsExporterType = MetricsExporterKeys.DISABLE;
    private String metricsPromExporterHost = MetricsExporterKeys.DEFAULT_HOST;
    /** One above a broker's default, so a standalone NameServer and broker on one host can both export. */
    private int metricsPromExporterPort = MetricsExporterKeys.DEFAULT_PORT + 1;

    /** DISABLE (default: no port opens) or PROM (Prometheus text format at http://host:port/metrics). */
    public String getMetricsExporterType() {
        return metricsExporterType;
    }

    public void setMetricsExporterType(String metricsExporterType) {
        this.metricsExporterType = MetricsExporterKeys.exporterType(metricsExporterType);
    }

    /** Interface the Prometheus endpoint listens on; loopback by default, 0.0.0.0 for every interface. */
    public String getMetricsPromExporterHost() {
        return metricsPromExporterHost;
    }

    public void setMetricsPromExporterHost(String metricsPromExporterHost) {
        this.metricsPromExporterHost = MetricsExporterKeys.host(metricsPromExporterHost);
    }

    /** Port of the Prometheus endpoint (0 = any free port). */
    public int getMetricsPromExporterPort() {
        return metricsPromExporterPort;
    }

    public void setMetricsPromExporterPort(int metricsPromExporterPort) {
        this.metricsPromExporterPort = MetricsExporterKeys.port(metricsPromExporterPort);
    }
}

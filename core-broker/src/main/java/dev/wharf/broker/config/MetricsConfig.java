package dev.wharf.broker.config;

import dev.wharf.common.config.MetricsExporterKeys;
import java.util.List;

/**
 * Settings of the broker's metrics (read by {@code dev.wharf.metrics}): whether and where the Prometheus endpoint
 * listens, and how many series the per-topic and lag meters may make.
 */
public class MetricsConfig {

    private String metricsExporterType = MetricsExporterKeys.DISABLE;
    private String metricsPromExporterHost = MetricsExporterKeys.DEFAULT_HOST;
    private int metricsPromExporterPort = MetricsExporterKeys.DEFAULT_PORT;
    private int metricsMaxTopics = 1_000;
    private int metricsMaxLagSeries = 2_000;

    /** Adds a sentence to {@code errors} for each bad setting, naming the key and what is allowed. */
    public void validate(List<String> errors) {
        try {
            metricsExporterType = MetricsExporterKeys.exporterType(metricsExporterType);
        } catch (IllegalArgumentException e) {
            errors.add(e.getMessage());
        }
        try {
            metricsPromExporterHost = MetricsExporterKeys.host(metricsPromExporterHost);
        } catch (IllegalArgumentException e) {
            errors.add(e.getMessage());
        }
        try {
            MetricsExporterKeys.port(metricsPromExporterPort);
        } catch (IllegalArgumentException e) {
            errors.add(e.getMessage());
        }
        if (metricsMaxTopics < 0) {
            errors.add("metricsMaxTopics is " + metricsMaxTopics + "; use 0 or more (0 = no per-topic series).");
        }
        if (metricsMaxLagSeries < 0) {
            errors.add("metricsMaxLagSeries is " + metricsMaxLagSeries + "; use 0 or more.");
        }
    }

    /** DISABLE (default: no port opens) or PROM (Prometheus text format at http://host:port/metrics). */
    public String getMetricsExporterType() {
        return metricsExporterType;
    }

    public void setMetricsExporterType(String metricsExporterType) {
        this.metricsExporterType = metricsExporterType;
    }

    /** Interface the Prometheus endpoint listens on; loopback by default, 0.0.0.0 for every interface. */
    public String getMetricsPromExporterHost() {
        return metricsPromExporterHost;
    }

    public void setMetricsPromExporterHost(String metricsPromExporterHost) {
        this.metricsPromExporterHost = metricsPromExporterHost;
    }

    /** Port of the Prometheus endpoint (0 = any free port). */
    public int getMetricsPromExporterPort() {
        return metricsPromExporterPort;
    }

    public void setMetricsPromExporterPort(int metricsPromExporterPort) {
        this.metricsPromExporterPort = metricsPromExporterPort;
    }

    /**
     * Topics that get series of their own (messages and bytes in and out); traffic of topics beyond the cap is
     * counted under topic="_other". Retry and dead-letter topics are counted as "%RETRY%" and "%DLQ%".
     */
    public int getMetricsMaxTopics() {
        return metricsMaxTopics;
    }

    public void setMetricsMaxTopics(int metricsMaxTopics) {
        this.metricsMaxTopics = metricsMaxTopics;
    }

    /**
     * Consumer group/topic pairs exported with their lag at a scrape: the ones lagging most; the rest are summed
     * in wharf_consumer_lag_dropped_pairs.
     */
    public int getMetricsMaxLagSeries() {
        return metricsMaxLagSeries;
    }

    public void setMetricsMaxLagSeries(int metricsMaxLagSeries) {
        this.metricsMaxLagSeries = metricsMaxLagSeries;
    }
}

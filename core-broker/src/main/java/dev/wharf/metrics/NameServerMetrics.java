package dev.wharf.metrics;

import dev.wharf.common.config.MetricsExporterKeys;
import dev.wharf.namesrv.NameServer;
import dev.wharf.namesrv.NameServerConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * A NameServer's metrics: requests per code with latency, live brokers, topics routed and connections, served in
 * Prometheus's text format on {@code metricsPromExporterHost:Port}. Create it before the NameServer starts (it
 * observes requests from the first), {@link #start()} it after. Thread-safe.
 */
public final class NameServerMetrics {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PrometheusEndpoint endpoint;
    private final NameServer nameServer;

    private NameServerMetrics(NameServer nameServer, NameServerConfig config) {
        this.nameServer = nameServer;
        Gauge.builder("wharf.namesrv.brokers.alive", nameServer, n -> n.routes().liveBrokers().size())
                .description("Brokers registered and not expired").register(registry);
        Gauge.builder("wharf.namesrv.topics", nameServer, n -> n.routes().topics().size())
                .description("Topics with a route").register(registry);
        Gauge.builder("wharf.namesrv.connections", nameServer, NameServer::connectionCount)
                .description("Connections open (brokers and clients)").register(registry);
        this.endpoint = new PrometheusEndpoint(registry, List.of(), config.getMetricsPromExporterHost(),
                config.getMetricsPromExporterPort());
    }

    /** Binds metrics to a NameServer that has not started yet. */
    public static NameServerMetrics attach(NameServer nameServer, NameServerConfig config) {
        Objects.requireNonNull(nameServer, "nameServer");
        NameServerMetrics metrics = new NameServerMetrics(nameServer, Objects.requireNonNull(config, "config"));
        nameServer.setRequestObserver(new RequestMeters(metrics.registry, "wharf.namesrv"));
        return metrics;
    }

    /** Whether a NameServer's settings ask for the Prometheus endpoint. */
    public static boolean enabled(NameServerConfig config) {
        return MetricsExporterKeys.PROM.equals(config.getMetricsExporterType());
    }

    /** Serves the metrics over HTTP. */
    public void start() throws IOException {
        endpoint.start("NameServer");
    }

    public void shutdown() {
        endpoint.stop();
        nameServer.setRequestObserver(null);
        registry.close();
    }

    /** The port the endpoint listens on, or -1 before {@link #start()}. */
    public int port() {
        return endpoint.port();
    }

    /** The metrics as a scrape would see them, in Prometheus's text format. */
    public String scrape() {
        return endpoint.scrape();
    }
}

package dev.wharf.metrics;

import dev.wharf.broker.Broker;
import dev.wharf.broker.BrokerService;
import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.broker.config.MetricsConfig;
import dev.wharf.common.config.MetricsExporterKeys;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * A broker's metrics: the meters of its store, requests, topics, consumer groups, transactions, schedule and
 * replication in one Prometheus registry, served over HTTP when {@code metricsExporterType=PROM}. Every series
 * carries the labels {@code cluster}, {@code broker} and {@code broker_id}.
 *
 * <p>{@link #attach} before the broker starts; the meters start and stop with it. The server command does this
 * when the configuration asks for it; an application embedding a broker calls it itself. Thread-safe.
 */
public final class BrokerMetrics {

    private final Broker broker;
    private final PrometheusMeterRegistry registry;
    private final TopicMeters topics;
    private final LagSampler lag;
    private final PrometheusEndpoint endpoint;
    private volatile BrokerGauges gauges;

    private BrokerMetrics(Broker broker) {
        this.broker = broker;
        BrokerConfig config = broker.config();
        this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().commonTags("cluster", config.getBrokerClusterName(), "broker", config.getBrokerName(),
                "broker_id", String.valueOf(config.getBrokerId()));
        MetricsConfig metrics = config.metrics();
        this.topics = new TopicMeters(registry, metrics.getMetricsMaxTopics());
        this.lag = new LagSampler(registry, broker, metrics.getMetricsMaxLagSeries(), System::currentTimeMillis);
        this.endpoint = new PrometheusEndpoint(registry, List.of(lag::refresh, this::refreshGauges),
                metrics.getMetricsPromExporterHost(), metrics.getMetricsPromExporterPort());
    }

    /**
     * Binds metrics to a broker that has not started yet, and serves them on {@code metricsPromExporterHost:Port}
     * once it starts if {@code metricsExporterType=PROM} (otherwise they are only read through {@link #scrape()}).
     *
     * @throws IllegalStateException the broker was started already
     */
    public static BrokerMetrics attach(Broker broker) {
        Objects.requireNonNull(broker, "broker");
        BrokerMetrics metrics = new BrokerMetrics(broker);
        broker.addService(metrics.service());
        broker.setRequestObserver(new RequestMeters(metrics.registry, "wharf"));
        return metrics;
    }

    /** Whether a broker's settings ask for the Prometheus endpoint. */
    public static boolean enabled(BrokerConfig config) {
        return MetricsExporterKeys.PROM.equals(config.metrics().getMetricsExporterType());
    }

    private BrokerService service() {
        return new BrokerService() {
            @Override
            public String name() {
                return "metrics";
            }

            @Override
            public void start() throws IOException {
                StoreMeters store = new StoreMeters(registry, broker.store(), topics);
                gauges = new BrokerGauges(registry, broker, System.currentTimeMillis());
                // from here on: what the store replayed while starting is not counted as traffic
                broker.store().stats().setObserver(store);
                if (enabled(broker.config())) {
                    endpoint.start("broker " + broker.config().getBrokerName());
                }
            }

            @Override
            public void shutdown() {
                endpoint.stop();
                broker.store().stats().setObserver(null);
                broker.setRequestObserver(null);
                registry.close();
            }
        };
    }

    private void refreshGauges() {
        BrokerGauges g = gauges;
        if (g != null) {
            g.refresh();
        }
    }

    /** The port the endpoint listens on (the one picked when configured as 0), or -1 when it does not serve. */
    public int port() {
        return endpoint.port();
    }

    /** The registry, for an application that exports it another way. */
    public MeterRegistry registry() {
        return registry;
    }

    /** The metrics as a scrape would see them (samplers run first), in Prometheus's text format. */
    public String scrape() {
        return endpoint.scrape();
    }
}

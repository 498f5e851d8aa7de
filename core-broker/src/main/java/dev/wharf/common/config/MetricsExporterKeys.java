package dev.wharf.common.config;

import java.util.Locale;

/**
 * The checks behind RocketMQ's metrics exporter keys, shared by the broker's and the NameServer's settings:
 * {@code metricsExporterType}, {@code metricsPromExporterHost}, {@code metricsPromExporterPort}.
 */
public final class MetricsExporterKeys {

    /** No exporter: nothing listens (the default). */
    public static final String DISABLE = "DISABLE";
    /** Prometheus text format over HTTP at {@code http://host:port/metrics}. */
    public static final String PROM = "PROM";
    /** The exporter's default address: this machine only, until the operator names another interface. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** RocketMQ's default exporter port. */
    public static final int DEFAULT_PORT = 5557;

    private MetricsExporterKeys() {
    }

    /** The exporter type in upper case, or an error naming the types Wharf has. */
    public static String exporterType(String value) {
        String type = value == null ? "" : value.trim().toUpperCase(Locale.ROOT);
        return switch (type) {
            case DISABLE, PROM -> type;
            case "OTLP_GRPC", "LOG" -> throw new IllegalArgumentException("metricsExporterType=" + value
                    + " is a RocketMQ exporter Wharf does not have; use PROM (Prometheus over HTTP) or DISABLE.");
            default -> throw new IllegalArgumentException("metricsExporterType \"" + value
                    + "\" is not known; use PROM (Prometheus over HTTP) or DISABLE.");
        };
    }

    /** The interface to listen on, or an error when blank. */
    public static String host(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("metricsPromExporterHost is blank; give the address to listen on"
                    + " (" + DEFAULT_HOST + " for this machine only, 0.0.0.0 for every interface).");
        }
        return value.trim();
    }

    /** The port, or an error when outside 0..65535 (0 = any free port). */
    public static int port(int value) {
        if (value < 0 || value > 65_535) {
            throw new IllegalArgumentException("metricsPromExporterPort must be a port from 0 to 65535 (0 = any"
                    + " free port), got " + value + ".");
        }
        return value;
    }
}

package dev.wharf.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.wharf.common.util.NamedThreadFactory;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoint Prometheus scrapes: {@code GET /metrics} answers the registry in the text exposition format
 * (version 0.0.4), after running the samplers that read levels (lag, depths) so that a scrape sees them fresh.
 * One thread serves it: scrapes come seconds apart, and a slow one must not pile up more. The JDK's HTTP server
 * keeps this free of another web stack in the server jar.
 */
final class PrometheusEndpoint {

    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final Logger log = LoggerFactory.getLogger(PrometheusEndpoint.class);

    private final PrometheusMeterRegistry registry;
    private final List<Runnable> samplers;
    private final String host;
    private final int port;
    private HttpServer server;
    private ExecutorService executor;

    PrometheusEndpoint(PrometheusMeterRegistry registry, List<Runnable> samplers, String host, int port) {
        this.registry = registry;
        this.samplers = List.copyOf(samplers);
        this.host = host;
        this.port = port;
    }

    /**
     * Binds and serves.
     *
     * @throws IOException the address cannot be bound (the message names it and the keys that set it)
     */
    synchronized void start(String what) throws IOException {
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 16);
        } catch (IOException e) {
            throw new IOException("Cannot serve " + what + " metrics on " + host + ":" + port + " (" + e.getMessage()
                    + "); set metricsPromExporterHost and metricsPromExporterPort to a free address, or"
                    + " metricsExporterType=DISABLE.", e);
        }
        executor = Executors.newSingleThreadExecutor(new NamedThreadFactory("wharf-metrics-http"));
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
        log.info("Serving {} metrics for Prometheus at http://{}:{}/metrics", what, host, port());
    }

    /** The port listened on (the one picked when configured as 0); -1 before start. */
    synchronized int port() {
        return server == null ? -1 : server.getAddress().getPort();
    }

    synchronized void stop() {
        if (server != null) {
            server.stop(0);
            executor.shutdownNow();
            server = null;
        }
    }

    /** Samples the levels and writes the registry in the text format. */
    String scrape() {
        sample();
        return registry.scrape(CONTENT_TYPE);
    }

    private synchronized void sample() {
        for (Runnable sampler : samplers) {
            try {
                sampler.run();
            } catch (RuntimeException e) {
                log.warn("A metrics sampler failed; its series keep their last values: {}", e.toString());
            }
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (!path.equals("/metrics") && !path.equals("/")) {
                send(exchange, 404, "Not found: " + path + ". Metrics are at /metrics.\n");
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "Method " + method + " is not allowed here; use GET.\n");
                return;
            }
            if (path.equals("/")) {
                send(exchange, 200, "Wharf metrics: GET /metrics (Prometheus text format).\n");
                return;
            }
            byte[] body = scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            if (method.equals("HEAD")) {
                exchange.sendResponseHeaders(200, -1);
                return;
            }
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        } catch (RuntimeException e) {
            log.warn("Metrics scrape failed: {}", e.toString());
            throw e;
        }
    }

    private static void send(HttpExchange exchange, int status, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}

package dev.wharf.metrics;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A scrape of a metrics endpoint over real HTTP, and the sums of its samples by name and labels. */
final class Scrape {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+(\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    final String text;

    private Scrape(String text) {
        this.text = text;
    }

    static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    static Scrape of(int port) {
        try {
            HttpResponse<String> response = get(port, "/metrics");
            if (response.statusCode() != 200) {
                throw new AssertionError("GET /metrics answered " + response.statusCode() + ": " + response.body());
            }
            return new Scrape(response.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sum of the samples named {@code name} whose labels include {@code labels} ("k", "v", ...); NaN when none. */
    double value(String name, String... labels) {
        double sum = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line.trim());
            if (!m.matches() || !m.group(1).equals(name)) {
                continue;
            }
            Map<String, String> have = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    have.put(l.group(1), l.group(2));
                }
            }
            boolean matches = true;
            for (int i = 0; i + 1 < labels.length; i += 2) {
                matches &= labels[i + 1].equals(have.get(labels[i]));
            }
            if (matches) {
                sum += Double.parseDouble(m.group(4));
                found = true;
            }
        }
        return found ? sum : Double.NaN;
    }

    /** Like {@link #value}, failing when no sample matches (so a misspelt name cannot pass a comparison). */
    double must(String name, String... labels) {
        double v = value(name, labels);
        if (Double.isNaN(v)) {
            throw new AssertionError("no sample " + name + " with labels " + String.join(",", labels));
        }
        return v;
    }

    /** Like {@link #value} with 0 for none (counters and gauges not created yet). */
    double count(String name, String... labels) {
        double v = value(name, labels);
        return Double.isNaN(v) ? 0 : v;
    }
}

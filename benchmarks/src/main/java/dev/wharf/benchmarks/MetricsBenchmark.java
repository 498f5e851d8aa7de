package dev.wharf.benchmarks;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.common.message.Message;
import dev.wharf.metrics.BrokerMetrics;
import dev.wharf.namesrv.NameServer;
import dev.wharf.store.MessageToStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * What the broker's metrics cost: send throughput with metrics on and off in the same run (runs alternate off, on,
 * off, on, ...; a fresh NameServer and broker each; producer threads sending 1 KiB messages synchronously), and the
 * time of one Prometheus scrape of a broker with many topics and groups (each topic has one unconsumed message and
 * every group has committed offsets on every topic, so every pair has lag to sample).
 *
 * <p>Run: {@code mvn -q -pl benchmarks -am test-compile exec:java -Dbenchmark.main=dev.wharf.benchmarks.MetricsBenchmark
 * -Dexec.args="--seconds 10"}. Options: {@code --seconds} per run (default 10, after a 3 s warm-up), {@code --rounds}
 * of off/on pairs (default 3; 0 measures only the scrape), {@code --threads} (default 4), {@code --topics} (default 1000), {@code --groups}
 * (default 10), {@code --dir} (default: a temporary folder, deleted afterwards).
 */
public final class MetricsBenchmark {

    private static final String TOPIC = "BenchMetrics";
    private static final long WARM_UP_MILLIS = 3_000;

    private Path baseDir;
    private boolean deleteBase;
    private int seconds = 10;
    private int rounds = 3;
    private int threads = 4;
    private int topics = 1_000;
    private int groups = 10;
    private int runNumber;

    public static void main(String[] args) throws Exception {
        MetricsBenchmark bench = new MetricsBenchmark();
        bench.parse(args);
        Bench.runThenExit(bench::run, bench.deleteBase ? bench.baseDir : null);
    }

    private void parse(String[] args) throws IOException {
        BenchArgs a = BenchArgs.parse(args, List.of("--dir", "--seconds", "--rounds", "--threads", "--topics",
                "--groups"));
        seconds = a.integer("--seconds", seconds);
        rounds = a.integer("--rounds", rounds);
        threads = a.integer("--threads", threads);
        topics = a.integer("--topics", topics);
        groups = a.integer("--groups", groups);
        baseDir = a.dir("wharf-metrics-bench");
        deleteBase = a.temporaryDir();
    }


    private void run() throws Exception {
        System.out.printf(Locale.ROOT, "Wharf metrics benchmark: %d thread(s), %d s per run, %d round(s), %d CPU(s)%n",
                threads, seconds, rounds, Runtime.getRuntime().availableProcessors());
        double[] off = new double[rounds];
        double[] on = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            off[r] = sendRate(false);
            on[r] = sendRate(true);
            System.out.printf(Locale.ROOT, "round %d: metrics off %.0f msg/s, on %.0f msg/s (%.3fx)%n", r + 1, off[r],
                    on[r], on[r] / off[r]);
        }
        if (rounds > 0) {
            System.out.printf(Locale.ROOT, "send TPS, metrics on / off: median %.3fx (medians %.0f / %.0f msg/s;"
                    + " target >= 0.97)%n", Bench.median(on) / Bench.median(off), Bench.median(on), Bench.median(off));
        }
        scrapeTime();
    }

    private BrokerSettings settings(Path store, String namesrv, boolean metrics) {
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(store.toString());
        s.store().setMappedFileSizeCommitLog(256 * 1024 * 1024);
        s.netty().setListenPort(0);
        s.broker().setBrokerName("bench-metrics");
        s.broker().setDefaultTopicQueueNums(8);
        s.broker().setNamesrvAddr(namesrv);
        if (metrics) {
            s.broker().metrics().setMetricsExporterType("PROM");
            s.broker().metrics().setMetricsPromExporterPort(0);
        }
        return s;
    }

    private double sendRate(boolean metrics) throws Exception {
        Path dir = baseDir.resolve("run" + (++runNumber));
        NameServer nameServer = NameServer.onPort(0);
        nameServer.start();
        Broker broker = new Broker(settings(dir, nameServer.address(), metrics));
        BrokerMetrics meters = metrics ? BrokerMetrics.attach(broker) : null;
        Producer producer = null;
        try {
            broker.start();
            broker.registerWithNameServers().join();
            ClientConfig config = clientConfig(nameServer);
            AdminClient admin = new AdminClient(config);
            admin.start();
            admin.createTopic(TOPIC, 8);
            admin.shutdown();
            producer = new Producer("bench-metrics", config);
            producer.start();
            double rate = drive(producer);
            if (meters != null && meters.scrape().isEmpty()) {
                throw new IllegalStateException("the metrics scrape came back empty");
            }
            return rate;
        } finally {
            if (producer != null) {
                producer.shutdown();
            }
            broker.shutdown();
            nameServer.shutdown();
            Bench.deleteTree(dir);
        }
    }

    private ClientConfig clientConfig(NameServer nameServer) {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(nameServer.address());
        config.setInstanceName("metrics-bench-" + runNumber);
        return config;
    }

    private double drive(Producer producer) throws InterruptedException {
        return TimedSenders.run("metrics-bench", threads, 1024, WARM_UP_MILLIS, seconds * 1_000L,
                body -> producer.send(new Message(TOPIC, body)).sendStatus() == SendStatus.SEND_OK ? 1 : 0).perSecond();
    }

    /** Scrape time for {@code topics} topics x {@code groups} groups, all pairs exported. */
    private void scrapeTime() throws Exception {
        Path dir = baseDir.resolve("scrape");
        NameServer nameServer = NameServer.onPort(0);
        nameServer.start();
        BrokerSettings s = settings(dir, nameServer.address(), true);
        s.broker().metrics().setMetricsMaxTopics(topics);
        s.broker().metrics().setMetricsMaxLagSeries(topics * groups);
        Broker broker = new Broker(s);
        BrokerMetrics metrics = BrokerMetrics.attach(broker);
        try {
            broker.start();
            long t0 = System.nanoTime();
            for (int t = 0; t < topics; t++) {
                String topic = "bench-topic-" + t;
                broker.topics().createIfAbsent(topic, 1);
                MessageToStore msg = new MessageToStore();
                msg.setTopic(topic);
                msg.setQueueId(0);
                msg.setBody(new byte[100]);
                broker.store().putMessage(msg);
                for (int g = 0; g < groups; g++) {
                    broker.offsets().commitOffset("bench-group-" + g, topic, 0, 0);
                }
            }
            broker.store().awaitDispatched(30_000);
            System.out.printf(Locale.ROOT, "set up %d topics x %d groups in %.1f s%n", topics, groups,
                    (System.nanoTime() - t0) / 1e9);
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics.port() + "/metrics"))
                    .GET().build();
            List<Double> millis = new ArrayList<>();
            int bytes = 0;
            long series = 0;
            for (int i = 0; i < 25; i++) {
                long start = System.nanoTime();
                HttpResponse<String> response = http.send(get, HttpResponse.BodyHandlers.ofString());
                double took = (System.nanoTime() - start) / 1e6;
                if (i >= 5) {
                    millis.add(took); // the first scrapes warm up the code
                }
                bytes = response.body().length();
                series = response.body().lines().filter(l -> !l.startsWith("#")).count();
            }
            millis.sort(Comparator.naturalOrder());
            // where the time goes: the registry's text alone (the samplers ran in the scrapes above)
            List<Double> textOnly = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                long start = System.nanoTime();
                ((io.micrometer.prometheusmetrics.PrometheusMeterRegistry) metrics.registry()).scrape();
                textOnly.add((System.nanoTime() - start) / 1e6);
            }
            textOnly.sort(Comparator.naturalOrder());
            System.out.printf(Locale.ROOT, "of which writing the text format (no sampling): median %.1f ms%n",
                    textOnly.get(textOnly.size() / 2));
            System.out.printf(Locale.ROOT, "scrape of %d topics x %d groups: %d series, %d KiB, median %.1f ms, max"
                    + " %.1f ms (%d scrapes over HTTP)%n", topics, groups, series, bytes / 1024,
                    millis.get(millis.size() / 2), millis.get(millis.size() - 1), millis.size());
        } finally {
            broker.shutdown();
            nameServer.shutdown();
        }
    }
}

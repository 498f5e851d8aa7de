package dev.wharf.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.broker.ha.BrokerRole;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.Message;
import dev.wharf.store.MessageToStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The Grafana dashboard shipped in grafana/ asks only for series a real broker group exports: every metric its
 * queries name is in a scrape of a master (with a slave, a consumer, retries, dead letters) or of the NameServer.
 */
class DashboardTest {

    private static final Path DASHBOARD = Path.of("..", "grafana", "wharf-dashboard.json");
    private static final Pattern METRIC = Pattern.compile("\\b(wharf_[a-z_]+)");
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private MetricsCluster cluster;
    private Broker slave;

    @AfterEach
    void stop() {
        if (slave != null) {
            slave.shutdown();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everySeriesTheDashboardQueriesIsExported() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        Set<String> queried = new TreeSet<>();
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.path("targets")) {
                Matcher m = METRIC.matcher(target.get("expr").asString());
                while (m.find()) {
                    queried.add(m.group(1).replaceAll("_(bucket|count|sum)$", ""));
                }
            }
        }
        assertThat(queried).hasSizeGreaterThan(20);

        cluster = new MetricsCluster(dir, s -> s.ha().setHaListenPort(0));
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(dir.resolve("slave").toString());
        s.store().setMappedFileSizeCommitLog(4 * 1024 * 1024);
        s.store().setMaxMessageSize(256 * 1024);
        s.netty().setListenPort(0);
        s.broker().setBrokerName("metrics-broker");
        s.broker().setBrokerId(1);
        s.ha().setBrokerRole(BrokerRole.SLAVE);
        s.ha().setHaMasterAddress(cluster.broker.haAddress());
        slave = new Broker(s);
        slave.start();

        Producer producer = new Producer("dashboard-producer", cluster.clientConfig());
        producer.start();
        cluster.track(producer, producer::shutdown);
        producer.send(new Message("dashboard-topic", "hello".getBytes()));
        PushConsumer consumer = new PushConsumer("dashboard-app", cluster.clientConfig());
        consumer.subscribe("dashboard-topic", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) ->
                ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        consumer.start();
        cluster.track(consumer, consumer::shutdown);
        // a retry offset and a dead letter, as a failing consumer would leave them
        Broker master = cluster.broker;
        master.offsets().commitOffset("dashboard-app", SystemTopics.retryTopic("dashboard-app"), 0, 0);
        master.topics().createDlqTopicIfAbsent("dashboard-app");
        MessageToStore dead = new MessageToStore();
        dead.setTopic(SystemTopics.dlqTopic("dashboard-app"));
        dead.setQueueId(0);
        dead.setBody("dead".getBytes());
        master.store().putMessage(dead);

        await().atMost(WAIT).untilAsserted(() -> {
            Scrape broker = cluster.scrape();
            Scrape nameServer = Scrape.of(cluster.nameServerMetrics.port());
            Set<String> missing = new TreeSet<>();
            for (String name : queried) {
                if (!broker.text.contains("\n" + name) && !nameServer.text.contains("\n" + name)) {
                    missing.add(name);
                }
            }
            assertThat(missing).as("series the dashboard asks for that no scrape has").isEmpty();
            assertThat(broker.value("wharf_replication_lag_bytes", "replica", "1")).isZero();
            assertThat(broker.value("wharf_consumer_group_clients", "group", "dashboard-app")).isEqualTo(1);
            assertThat(broker.value("wharf_consumer_dlq_depth_messages", "group", "dashboard-app")).isEqualTo(1);
        });
    }
}

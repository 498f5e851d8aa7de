package dev.wharf.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.TransactionListener;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scrapes the HTTP endpoint of a real broker after real sends and consumes, and checks the figures. */
class BrokerMetricsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private MetricsCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private AdminClient admin() throws Exception {
        AdminClient admin = new AdminClient(cluster.clientConfig());
        admin.start();
        return cluster.track(admin, admin::shutdown);
    }

    private void createTopic(AdminClient admin, String topic) throws Exception {
        admin.createTopic(topic, 2);
        cluster.broker.registerWithNameServers().join();
        await().atMost(WAIT).ignoreExceptions().until(() -> admin.route(topic) != null);
    }

    private Producer producer() throws Exception {
        Producer producer = new Producer("metrics-producer", cluster.clientConfig());
        producer.start();
        return cluster.track(producer, producer::shutdown);
    }

    private PushConsumer consumer(String group, String topic, MessageListenerConcurrently listener) throws Exception {
        PushConsumer consumer = new PushConsumer(group, cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener(listener);
        return consumer;
    }

    @Test
    void trafficLatencyRequestsAndLagFollowRealSendsAndConsumes() throws Exception {
        cluster = new MetricsCluster(dir, s -> { });
        AdminClient admin = admin();
        createTopic(admin, "metrics-orders");
        Producer producer = producer();
        byte[] body = new byte[100];
        for (int i = 0; i < 20; i++) {
            producer.send(new Message("metrics-orders", body));
        }
        Set<String> seen = ConcurrentHashMap.newKeySet();
        PushConsumer consumer = consumer("metrics-app", "metrics-orders", (msgs, ctx) -> {
            msgs.forEach(m -> seen.add(m.getMsgId()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        await().atMost(WAIT).until(() -> seen.size() == 20);
        await().atMost(WAIT).until(() -> cluster.scrape().value("wharf_consumer_lag_messages",
                "group", "metrics-app", "topic", "metrics-orders") == 0);
        consumer.shutdown(); // commits its offsets

        for (int i = 0; i < 5; i++) {
            producer.send(new Message("metrics-orders", body));
        }
        await().atMost(WAIT).until(() -> cluster.scrape().value("wharf_consumer_lag_messages",
                "group", "metrics-app", "topic", "metrics-orders") == 5);
        await().atMost(WAIT).until(() -> cluster.scrape().value("wharf_consumer_lag_age_seconds",
                "group", "metrics-app", "topic", "metrics-orders") > 0);
        await().atMost(WAIT).until(() -> cluster.scrape().count("wharf_store_flush_latency_seconds_count") > 0);

        Scrape s = cluster.scrape();
        assertThat(s.must("wharf_messages_in_total", "topic", "metrics-orders")).isEqualTo(25);
        assertThat(s.must("wharf_bytes_in_total", "topic", "metrics-orders")).isGreaterThan(25 * 100);
        assertThat(s.must("wharf_messages_out_total", "topic", "metrics-orders")).isGreaterThanOrEqualTo(20);
        assertThat(s.must("wharf_bytes_out_total", "topic", "metrics-orders")).isGreaterThan(20 * 100);
        assertThat(s.must("wharf_messages_in_total", "topic", "metrics-orders", "broker", "metrics-broker",
                "cluster", "DefaultCluster", "broker_id", "0")).as("every series names its broker").isEqualTo(25);
        double sends = s.count("wharf_requests_total", "request", "SEND_MESSAGE", "response", "SUCCESS")
                + s.count("wharf_requests_total", "request", "SEND_MESSAGE_V2", "response", "SUCCESS");
        assertThat(sends).isEqualTo(25);
        assertThat(s.count("wharf_requests_total", "request", "PULL_MESSAGE")).isPositive();
        assertThat(s.count("wharf_request_latency_seconds_count", "request", "HEART_BEAT")).isPositive();
        assertThat(s.must("wharf_store_put_latency_seconds_count")).isGreaterThanOrEqualTo(25);
        assertThat(s.must("wharf_store_put_latency_seconds_bucket", "le", "+Inf")).isGreaterThanOrEqualTo(25);
        assertThat(s.must("wharf_store_put_messages_total")).isGreaterThanOrEqualTo(25);
        assertThat(s.must("wharf_store_commitlog_size_bytes")).isGreaterThan(25 * 100);
        assertThat(s.must("wharf_store_disk_total_bytes")).isPositive();
        assertThat(s.must("wharf_store_disk_used_ratio")).isBetween(0.0, 1.0);
        assertThat(s.must("wharf_store_dispatch_behind_bytes")).isGreaterThanOrEqualTo(0);
        assertThat(s.must("wharf_store_writable")).isEqualTo(1);
        assertThat(s.must("wharf_connections")).as("producer and admin are connected").isGreaterThanOrEqualTo(2);
        assertThat(s.must("wharf_replication_in_sync_replicas")).isZero();
    }

    @Test
    void deadLettersRetriesScheduledAndHalfMessages() throws Exception {
        cluster = new MetricsCluster(dir, s -> {
            s.broker().transaction().setTransactionCheckInterval(200);
            s.broker().transaction().setTransactionTimeOut(100);
        });
        AdminClient admin = admin();
        createTopic(admin, "metrics-billing");
        Producer producer = producer();
        producer.send(new Message("metrics-billing", "poison".getBytes()));
        PushConsumer failing = consumer("metrics-billing-app", "metrics-billing",
                (msgs, ctx) -> ConsumeConcurrentlyStatus.RECONSUME_LATER);
        failing.setMaxReconsumeTimes(1);
        failing.start();
        await().atMost(WAIT).until(() -> cluster.scrape().value("wharf_consumer_dlq_depth_messages",
                "group", "metrics-billing-app") == 1);
        failing.shutdown();
        Scrape dead = cluster.scrape();
        assertThat(dead.must("wharf_messages_in_total", "topic", "%DLQ%")).isEqualTo(1);
        assertThat(dead.must("wharf_messages_in_total", "topic", "%RETRY%")).isGreaterThanOrEqualTo(1);
        assertThat(dead.count("wharf_requests_total", "request", "CONSUMER_SEND_MSG_BACK", "response", "SUCCESS"))
                .isGreaterThanOrEqualTo(2);

        assertThat(admin.dlqResend("metrics-billing-app", null)).isEqualTo(1);
        await().atMost(WAIT).until(() -> cluster.scrape().value("wharf_consumer_dlq_depth_messages",
                "group", "metrics-billing-app") == 0);

        Message later = new Message("metrics-billing", "in an hour".getBytes());
        later.setDelayTimeLevel(4);
        producer.send(later);
        await().atMost(WAIT).until(() -> cluster.scrape().value("wharf_schedule_pending_messages") == 1);

        TransactionProducer tx = new TransactionProducer("metrics-tx", cluster.clientConfig());
        tx.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return LocalTransactionState.UNKNOW;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return LocalTransactionState.UNKNOW;
            }
        });
        tx.start();
        cluster.track(tx, tx::shutdown);
        tx.sendMessageInTransaction(new Message("metrics-billing", "undecided".getBytes()), null);
        await().atMost(WAIT).until(() -> cluster.scrape().value("wharf_transaction_half_open") == 1);
        await().atMost(WAIT).until(() -> cluster.scrape().value("wharf_transaction_checkbacks_total") >= 1);
    }

    @Test
    void theEndpointServesOnlyMetricsAndSaysWhereTheyAre() throws Exception {
        cluster = new MetricsCluster(dir, s -> { });
        int port = cluster.metrics.port();
        HttpResponse<String> ok = Scrape.get(port, "/metrics");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().firstValue("Content-Type")).hasValue(PrometheusEndpoint.CONTENT_TYPE);
        assertThat(ok.body()).contains("# TYPE wharf_store_put_latency_seconds histogram");
        HttpResponse<String> missing = Scrape.get(port, "/nothing-here");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("/metrics");
        assertThat(Scrape.get(port, "/").body()).contains("/metrics");
    }

    @Test
    void theNameServerCountsRegistrationsAndLiveBrokers() throws Exception {
        cluster = new MetricsCluster(dir, s -> { });
        await().atMost(WAIT).until(() -> Scrape.of(cluster.nameServerMetrics.port())
                .value("wharf_namesrv_brokers_alive") == 1);
        Scrape s = Scrape.of(cluster.nameServerMetrics.port());
        assertThat(s.must("wharf_namesrv_requests_total", "request", "REGISTER_BROKER", "response", "SUCCESS"))
                .isGreaterThanOrEqualTo(1);
        assertThat(s.must("wharf_namesrv_connections")).isGreaterThanOrEqualTo(1);
    }
}

package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.client.ClientException;
import dev.wharf.client.ack.AckConsumer;
import dev.wharf.client.ack.PeekCursor;
import dev.wharf.client.ack.PeekResult;
import dev.wharf.client.ack.PeekedMessage;
import dev.wharf.client.ack.PopResult;
import dev.wharf.client.ack.PopStatus;
import dev.wharf.client.ack.PoppedMessage;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.AckStats;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link AckConsumer} end to end: a NameServer and two brokers, the topic on both. */
class AckConsumerTest {

    private static final long LEASE = 30_000;

    @TempDir
    static Path dir;
    private static TestWharf cluster;
    private static Producer producer;

    @BeforeAll
    static void start() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a", "broker-b");
        producer = new Producer("ack-it-producer", cluster.clientConfig());
        producer.start();
        cluster.track(producer::shutdown);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static AckConsumer consumer(String group) throws ClientException {
        AckConsumer c = new AckConsumer(group, cluster.clientConfig());
        c.start();
        cluster.track(c::shutdown);
        return c;
    }

    /** Sends to every queue of both brokers in turn. */
    private static void send(String topic, int n, String prefix, Map<String, String> props) throws Exception {
        List<MessageQueue> queues = producer.fetchPublishMessageQueues(topic);
        for (int i = 0; i < n; i++) {
            Message m = new Message(topic, (prefix + i).getBytes(StandardCharsets.UTF_8));
            props.forEach(m::putProperty);
            producer.send(m, queues.get(i % queues.size()));
        }
    }

    private static List<String> bodies(List<? extends Message> msgs) {
        return msgs.stream().map(m -> new String(m.getBody(), StandardCharsets.UTF_8)).toList();
    }

    /** Pops until nothing is left, acknowledging everything; returns body -> delivery count. */
    private static Map<String, Integer> drain(AckConsumer c, String topic, MessageSelector selector) throws Exception {
        Map<String, Integer> got = new HashMap<>();
        while (true) {
            PopResult r = c.pop(topic, -1, 32, LEASE, 300, selector, InitMode.EARLIEST, false);
            if (r.status() == PopStatus.NO_MESSAGE) {
                return got;
            }
            for (PoppedMessage m : r.messages()) {
                assertThat(got.put(new String(m.getBody(), StandardCharsets.UTF_8), m.deliveryCount()))
                        .as("delivered twice: %s", m).isNull();
            }
            c.ack(r.messages());
        }
    }

    @Test
    void selectorsSplitAQueueOverTwoBrokersAndTheRestStaysBrowsable() throws Exception {
        cluster.createTopic("jobs", 2);
        Map<String, String> red = Map.of("color", "red");
        send("jobs", 12, "red", red);
        send("jobs", 12, "blue", Map.of("color", "blue"));
        send("jobs", 4, "green", Map.of("color", "green"));
        AckConsumer reds = consumer("jobs");
        AckConsumer blues = consumer("jobs");
        Map<String, Integer> gotRed = drain(reds, "jobs", MessageSelector.bySql("color = 'red'"));
        Map<String, Integer> gotBlue = drain(blues, "jobs", MessageSelector.bySql("color = 'blue'"));
        assertThat(gotRed).hasSize(12).allSatisfy((b, n) -> assertThat(b).startsWith("red"));
        assertThat(gotBlue).hasSize(12).allSatisfy((b, n) -> assertThat(b).startsWith("blue"));

        // the green messages matched nobody: a browse over both brokers finds them, page by page
        List<PeekedMessage> browsed = new ArrayList<>();
        Set<String> brokers = new HashSet<>();
        PeekCursor cursor = null;
        do {
            PeekResult page = reds.peek("jobs", null, cursor, 3);
            assertThat(page.messages().size()).isLessThanOrEqualTo(3);
            browsed.addAll(page.messages());
            page.messages().forEach(p -> brokers.add(p.message().getBrokerName()));
            cursor = page.next();
        } while (!cursor.isEnd());
        assertThat(bodies(browsed.stream().map(PeekedMessage::message).toList()))
                .containsExactlyInAnyOrder("green0", "green1", "green2", "green3");
        assertThat(brokers).containsExactlyInAnyOrder("broker-a", "broker-b");
        assertThat(drain(consumer("jobs"), "jobs", MessageSelector.bySql("color = 'green'"))).hasSize(4);
    }

    @Test
    void aWaitingPopIsAnsweredFromWhicheverBrokerGetsAMessage() throws Exception {
        cluster.createTopic("waits", 1);
        AckConsumer c = consumer("waits");
        for (String broker : List.of("broker-a", "broker-b")) {
            CompletableFuture<PopResult> waiting = c.popAsync("waits", -1, 1, LEASE, 10_000, null, InitMode.EARLIEST,
                    false);
            long start = System.nanoTime();
            producer.send(new Message("waits", broker.getBytes(StandardCharsets.UTF_8)),
                    new MessageQueue("waits", broker, 0));
            PopResult r = waiting.get(10, TimeUnit.SECONDS);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
            assertThat(r.messages()).singleElement().satisfies(m -> assertThat(m.getBrokerName()).isEqualTo(broker));
            c.ack(r.messages());
        }
    }

    @Test
    void rollbackReleaseAndDeadLetterQueue() throws Exception {
        cluster.createTopic("payments", 1);
        send("payments", 1, "p", Map.of(MessageProperties.KEYS, "order-1"));
        AckConsumer c = consumer("payments");
        c.setMaxReconsumeTimes(1);

        PoppedMessage first = c.pop("payments", -1, 1, LEASE, 3_000, null, null, false).messages().get(0);
        assertThat(first.deliveryCount()).isEqualTo(1);
        assertThat(first.isRedelivered()).isFalse();
        c.changeInvisibleTime(List.of(first), 0, false); // prefetched, never shown
        PoppedMessage again = c.pop("payments", -1, 1, LEASE, 3_000, null, null, false).messages().get(0);
        assertThat(again.deliveryCount()).isEqualTo(1);
        c.changeInvisibleTime(List.of(again), 0, true); // rollback
        PoppedMessage redelivered = c.pop("payments", -1, 1, LEASE, 3_000, null, null, false).messages().get(0);
        assertThat(redelivered.deliveryCount()).isEqualTo(2);
        assertThat(redelivered.isRedelivered()).isTrue();
        assertThat(redelivered.getMsgId()).isEqualTo(first.getMsgId());
        c.changeInvisibleTime(List.of(redelivered), 0, true); // second rollback: beyond maxReconsumeTimes 1

        assertThat(c.pop("payments", -1, 1, LEASE, 500, null, null, false).status()).isEqualTo(PopStatus.NO_MESSAGE);
        AckConsumer dlq = consumer("%DLQ%payments");
        PopResult dead = dlq.pop("%DLQ%payments", -1, 1, LEASE, 10_000, null, null, false);
        assertThat(dead.messages()).singleElement().satisfies(m -> {
            assertThat(m.getMsgId()).isEqualTo(first.getMsgId());
            assertThat(m.getKeys()).isEqualTo("order-1");
            assertThat(m.getProperty(MessageProperties.DLQ_ORIGIN_TOPIC)).isEqualTo("payments");
            assertThat(m.getProperty(MessageProperties.DLQ_DELIVERY_COUNT)).isEqualTo("2");
        });
        dlq.ack(dead.messages());
    }

    @Test
    void leasesOfAConsumerWhoseConnectionClosedComeBack() throws Exception {
        cluster.createTopic("handover", 2);
        send("handover", 4, "h", Map.of());
        AckConsumer leaving = new AckConsumer("handover", cluster.clientConfig()); // its own connection
        leaving.start();
        List<PoppedMessage> taken = new ArrayList<>();
        while (taken.size() < 4) {
            taken.addAll(leaving.pop("handover", -1, 4, LEASE, 1_000, null, null, false).messages());
        }
        leaving.shutdown(); // the last user of its client instance: the connections close
        Map<String, Integer> got = drain(consumer("handover"), "handover", null);
        assertThat(got).containsOnlyKeys("h0", "h1", "h2", "h3").allSatisfy((b, n) -> assertThat(n).isEqualTo(2));
    }

    @Test
    void aLatestSubscriptionStartsWhenItIsCreatedAndUnsubscribeForgetsIt() throws Exception {
        cluster.createTopic("news", 2);
        send("news", 4, "old", Map.of());
        AckConsumer sub = consumer("news-subscriber");
        sub.createGroup("news", InitMode.LATEST);
        send("news", 4, "new", Map.of());
        Map<String, Integer> got = drain(sub, "news", null);
        assertThat(got).containsOnlyKeys("new0", "new1", "new2", "new3");
        Map<String, AckStats> stats = sub.stats("news");
        assertThat(stats).containsOnlyKeys("broker-a", "broker-b");
        assertThat(stats.values()).allSatisfy(s -> assertThat(s.queues()).hasSize(2)
                .allSatisfy(q -> assertThat(q.backlog()).isZero()));
        sub.deleteGroup("news");
        assertThat(sub.stats("news").values()).allSatisfy(s -> assertThat(s.queues()).isEmpty());
        assertThat(drain(sub, "news", null)).hasSize(8); // a new EARLIEST state sees everything
    }

    @Test
    void shutdownAnswersAWaitingPopAtOnce() throws Exception {
        cluster.createTopic("quiet", 1);
        AckConsumer c = new AckConsumer("quiet", cluster.clientConfig());
        c.start();
        CompletableFuture<PopResult> waiting = c.popAsync("quiet", -1, 1, LEASE, 60_000, null, null, false);
        c.shutdown();
        assertThat(waiting.get(2, TimeUnit.SECONDS).status()).isEqualTo(PopStatus.NO_MESSAGE);
    }

    @Test
    void badArgumentsAndUnknownTopicsAreReportedClearly() throws Exception {
        AckConsumer c = consumer("strict-client");
        assertThatThrownBy(() -> c.pop("t", -1, 0, LEASE, 0, null, null, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxNums is 0");
        assertThatThrownBy(() -> c.pop("t", -1, 1, 0, 0, null, null, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invisibleTimeMillis is 0");
        assertThatThrownBy(() -> c.pop("bad topic", -1, 1, LEASE, 0, null, null, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad topic");
        assertThatThrownBy(() -> c.ack(new MessageExt()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no broker name");
        assertThatThrownBy(() -> c.pop("NoSuchTopicAnywhere", -1, 1, LEASE, 0, null, null, false))
                .isInstanceOf(ClientException.class)
                .satisfies(e -> assertThat(((ClientException) e).responseCode()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST));
    }
}

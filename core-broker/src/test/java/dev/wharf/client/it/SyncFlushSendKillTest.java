package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.store.FlushDiskType;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Single sends under SYNC_FLUSH, which the broker's I/O threads force at the end of each turn of reads: every
 * send answered SEND_OK is there after a {@code kill -9} of the broker process, from one producer and from several
 * sharing a connection.
 */
@Timeout(120)
class SyncFlushSendKillTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private TestWharf cluster;

    @AfterEach
    void tearDown() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyAcknowledgedSendSurvivesTheBrokersKill() throws Exception {
        cluster = TestWharf.cluster(dir, 1, s -> s.store().setFlushDiskType(FlushDiskType.SYNC_FLUSH));
        Process child = SyncFlushBrokerMain.startWithTopic(dir, cluster, "durable-sends");
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        ExecutorService senders = Executors.newFixedThreadPool(4);
        try {
            Producer producer = new Producer("durable-senders", cluster.clientConfig());
            producer.start();
            cluster.track(producer::shutdown);
            MessageQueue mq = new MessageQueue("durable-sends", "broker-a", 0);
            // one producer alone, then four threads on the same connection (several sends per read)
            send(producer, mq, "lone-", 50, acknowledged);
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                String prefix = "shared" + t + "-";
                running.add(senders.submit(() -> {
                    send(producer, mq, prefix, 50, acknowledged);
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            senders.shutdownNow();
            child.destroyForcibly(); // right after the last answer: no shutdown, no final flush
            assertThat(child.waitFor(20, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(acknowledged).hasSize(250);

        cluster.startBroker("broker-a");
        Set<String> seen = ConcurrentHashMap.newKeySet();
        PushConsumer consumer = new PushConsumer("durable-readers", cluster.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("durable-sends", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                seen.add(new String(m.getBody(), StandardCharsets.UTF_8));
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);
        await().atMost(WAIT).until(() -> seen.containsAll(acknowledged));
        assertThat(seen).containsAll(acknowledged);
    }

    private static void send(Producer producer, MessageQueue mq, String prefix, int count, Set<String> acknowledged)
            throws Exception {
        for (int i = 0; i < count; i++) {
            String body = prefix + i;
            SendResult result = producer.send(new Message(mq.topic(), body.getBytes(StandardCharsets.UTF_8)), mq);
            assertThat(result.sendStatus()).as("send of %s", body).isEqualTo(SendStatus.SEND_OK);
            acknowledged.add(body);
        }
    }
}

package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.client.consumer.PullStatus;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.embedded.EmbeddedServerException;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.store.TmpfsMount;
import dev.wharf.testing.TestWharf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A broker whose store is on a small file system (a tmpfs the test mounts) that another file fills up: every send
 * is either stored (SEND_OK) or refused at once with the disk-full error, never a time-out; once the filler is
 * gone, sends succeed again without a restart; after a restart every acknowledged message is consumed and no
 * refused one; a restart on the full disk fails with one clear message, and starts once space returns.
 */
@EnabledOnOs(OS.LINUX)
class FullDiskTest {

    private static final String BROKER = "broker-full";
    private static final String TOPIC = "full-disk";
    private static final int QUEUES = 4;
    private static final int BODY_BYTES = 2048;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void sendsAreStoredOrRefusedAsDiskFullAndResumeWhenSpaceReturns() throws Exception {
        try (TmpfsMount disk = TmpfsMount.mount(dir.resolve("disk"), 40);
                TestWharf cluster = TestWharf.cluster(disk.dir(), 1, s -> {
                    s.store().setPreallocateStepCommitLog(1024 * 1024);
                    // no clean-up round during the test: above diskMaxUsedSpaceRatio it would delete unread files
                    s.store().setCleanResourceInterval(3_600_000);
                }, BROKER)) {
            cluster.createTopic(TOPIC, QUEUES);
            Producer producer = new Producer("full-disk-producer", cluster.clientConfig());
            producer.setSendMsgTimeout(5_000);
            producer.start();
            cluster.track(producer::shutdown);
            Set<String> acked = new HashSet<>();
            Set<String> refused = new HashSet<>();

            sendAll(producer, "before-", 100, acked, refused);
            assertThat(refused).as("room enough before the filler").isEmpty();

            long filled = disk.fill();
            assertThat(filled).isPositive();
            // far more than the store reserved ahead of itself: the disk must refuse some of these
            sendAll(producer, "full-", 3_000, acked, refused);
            assertThat(refused).as("refused while the disk was full").isNotEmpty();
            LoggerFactory.getLogger(FullDiskTest.class).info("Full disk: {} sends acknowledged, {} refused as disk full",
                    acked.size(), refused.size());
            Broker broker = cluster.broker(BROKER);
            assertThat(broker.store().health().isUp()).as(broker.store().health().summary()).isFalse();

            disk.free();
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() ->
                    trySend(producer, "probe-" + System.nanoTime(), acked, refused));
            int refusedBefore = refused.size();
            sendAll(producer, "after-", 100, acked, refused);
            assertThat(refused).as("no refusal once space returned").hasSize(refusedBefore);
            assertThat(broker.store().health().isUp()).as(broker.store().health().summary()).isTrue();
            assertThat(broker.store().awaitDispatched(10_000)).isTrue();

            cluster.stopBroker(BROKER);
            cluster.startBroker(BROKER);
            Set<String> consumed = consumeAll(cluster);
            assertThat(consumed).as("every acknowledged message, after the restart").containsAll(acked);
            assertThat(consumed).as("no refused message was stored").doesNotContainAnyElementsOf(refused);

            // a restart on a full disk fails with one clear message; once space returns it starts and serves
            disk.fill();
            cluster.stopBroker(BROKER);
            assertThatThrownBy(() -> cluster.startBroker(BROKER)).isInstanceOf(EmbeddedServerException.class)
                    .hasCauseInstanceOf(IOException.class).hasMessageContaining("is full").hasMessageContaining("Free space on it and start again")
                    .hasMessageNotContaining("InternalError");
            disk.free();
            cluster.startBroker(BROKER);
            assertThat(consumeAll(cluster)).containsAll(acked);
            // a new producer: the old one may still route to the port of the broker that failed to start
            Producer after = new Producer("full-disk-producer-2", cluster.clientConfig());
            after.start();
            cluster.track(after::shutdown);
            assertThat(trySend(after, "last", acked, refused)).isTrue();
        }
    }

    /** Sends {@code count} messages one by one; each must be stored or refused as disk full. */
    private static void sendAll(Producer producer, String prefix, int count, Set<String> acked, Set<String> refused)
            throws InterruptedException {
        for (int i = 0; i < count; i++) {
            trySend(producer, prefix + i, acked, refused);
        }
    }

    /** One send: true when stored; a refusal must be the broker's disk-full answer, anything else fails the test. */
    private static boolean trySend(Producer producer, String key, Set<String> acked, Set<String> refused)
            throws InterruptedException {
        byte[] body = new byte[BODY_BYTES];
        byte[] id = key.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(id, 0, body, 0, id.length);
        try {
            SendResult result = producer.send(new Message(TOPIC, body));
            assertThat(result.sendStatus()).isEqualTo(SendStatus.SEND_OK);
            acked.add(key);
            return true;
        } catch (ClientException e) {
            assertThat(e.responseCode()).as(e.getMessage()).isEqualTo(ResponseCode.SERVICE_NOT_AVAILABLE);
            assertThat(e.getMessage()).contains("disk full");
            refused.add(key);
            return false;
        }
    }

    private static Set<String> consumeAll(TestWharf cluster) throws Exception {
        PullConsumer consumer = new PullConsumer("full-disk-reader-" + System.nanoTime(), cluster.clientConfig());
        consumer.start();
        try {
            Set<String> keys = new HashSet<>();
            List<MessageQueue> queues = new ArrayList<>(consumer.fetchSubscribeMessageQueues(TOPIC));
            for (MessageQueue mq : queues) {
                long offset = 0;
                for (;;) {
                    PullResult r = consumer.pull(mq, MessageSelector.all(), offset, 32);
                    if (r.pullStatus() != PullStatus.FOUND) {
                        break;
                    }
                    for (MessageExt m : r.msgFoundList()) {
                        keys.add(keyOf(m.getBody()));
                    }
                    offset = r.nextBeginOffset();
                }
            }
            return keys;
        } finally {
            consumer.shutdown();
        }
    }

    private static String keyOf(byte[] body) {
        int end = 0;
        while (end < body.length && body[end] != 0) {
            end++;
        }
        return new String(body, 0, end, StandardCharsets.UTF_8);
    }
}

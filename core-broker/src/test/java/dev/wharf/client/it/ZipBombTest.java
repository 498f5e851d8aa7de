package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.management.ThreadMXBean;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.ZlibBombs;
import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.PutMessageStatus;
import dev.wharf.testing.TestWharf;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compressed bodies that inflate beyond maxMessageSize: the broker refuses them, and a consumer that meets one
 * already stored (written before the check existed, or under a larger limit) skips it within its own limit.
 */
@Timeout(60)
class ZipBombTest {

    private static final int MIB = 1024 * 1024;

    @TempDir
    Path dir;
    private TestWharf cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theBrokerRefusesABodyThatInflatesBeyondMaxMessageSize() throws Exception {
        cluster = TestWharf.cluster(dir, 1, s -> s.store().setMaxMessageSize(256 * 1024), "broker-a");
        cluster.createTopic("bomb-topic", 1);
        // the client's own limit is raised, so only the broker stands in the way of a 16 MiB body sent as ~16 KiB
        Producer producer = new Producer("bomb-producer", cluster.clientConfig());
        producer.setMaxMessageSize(64 * MIB);
        producer.start();
        cluster.track(producer::shutdown);

        byte[] inflatesTo16Mib = new byte[16 * MIB];
        assertThatThrownBy(() -> producer.send(new Message("bomb-topic", inflatesTo16Mib)))
                .isInstanceOfSatisfying(ClientException.class,
                        e -> assertThat(e.responseCode()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL))
                .hasMessageContaining("inflates to more than 262144 bytes")
                .hasMessageContaining("(maxMessageSize)");

        // the same limit, met exactly, still passes; the broker serves on
        byte[] atTheLimit = new byte[256 * 1024];
        assertThat(producer.send(new Message("bomb-topic", atTheLimit)).sendStatus().name()).isEqualTo("SEND_OK");
    }

    @Test
    void aConsumerSkipsAStoredBombWithinItsLimitAndGoesOn() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        cluster.createTopic("stored-bomb", 1);
        Producer producer = new Producer("stored-producer", cluster.clientConfig());
        producer.start();
        cluster.track(producer::shutdown);
        producer.send(new Message("stored-bomb", "before".getBytes(StandardCharsets.UTF_8)));
        // a 1 GiB body stored as ~1 MiB, written past the send check as a record from an older broker would be
        byte[] bomb = ZlibBombs.zeros(1024);
        assertThat(bomb.length).isLessThan(2 * MIB);
        MessageToStore stored = new MessageToStore();
        stored.setTopic("stored-bomb");
        stored.setQueueId(0);
        stored.setBody(bomb);
        stored.setSysFlag(MessageSysFlag.COMPRESSED);
        stored.setBornTimestamp(System.currentTimeMillis());
        stored.setBornHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 5555));
        stored.setStoreHost(HostAddress.pack(new byte[] {127, 0, 0, 1}, 10911));
        assertThat(cluster.broker("broker-a").store().putMessage(stored).status()).isEqualTo(PutMessageStatus.PUT_OK);
        producer.send(new Message("stored-bomb", "after".getBytes(StandardCharsets.UTF_8)));

        PullConsumer pull = new PullConsumer("bomb-pull", cluster.clientConfig());
        pull.start();
        cluster.track(pull::shutdown);
        MessageQueue mq = pull.fetchSubscribeMessageQueues("stored-bomb").iterator().next();
        await().atMost(Duration.ofSeconds(10)).until(() -> pull.maxOffset(mq) == 3);

        // the broker may cut a pull short by bytes, so pull until the queue's end
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<String> pulled = new ArrayList<>();
        long offset = 0;
        long allocatedBefore = threads.getCurrentThreadAllocatedBytes();
        for (int pulls = 0; offset < 3 && pulls < 10; pulls++) {
            PullResult result = pull.pull(mq, null, offset, 32);
            result.msgFoundList().forEach(m -> pulled.add(new String(m.getBody(), StandardCharsets.UTF_8)));
            offset = result.nextBeginOffset();
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - allocatedBefore;
        assertThat(pulled).containsExactly("before", "after");
        assertThat(offset).as("the pulls went past the skipped message").isEqualTo(3);
        // inflation stopped at the client's 4 MiB limit: the pulls allocated a few MiB, not a GiB
        assertThat(allocated).isLessThan(64L * MIB);

        ClientConfig config = cluster.clientConfig();
        PushConsumer push = new PushConsumer("bomb-push", config);
        push.subscribe("stored-bomb", "*");
        push.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        List<String> consumed = new CopyOnWriteArrayList<>();
        push.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs) {
                consumed.add(new String(m.getBody(), StandardCharsets.UTF_8));
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        push.start();
        cluster.track(push::shutdown);
        producer.send(new Message("stored-bomb", "later".getBytes(StandardCharsets.UTF_8)));
        await().atMost(Duration.ofSeconds(20)).until(() -> consumed.size() >= 3);
        assertThat(consumed).containsExactlyInAnyOrder("before", "after", "later");
    }

    @Test
    void aConsumerWithASmallerLimitSkipsWhatItWillNotInflate() throws Exception {
        cluster = TestWharf.cluster(dir, 1, s -> s.store().setMaxMessageSize(3 * MIB), "broker-a");
        cluster.createTopic("limits", 1);
        Producer producer = new Producer("limits-producer", cluster.clientConfig());
        producer.start();
        cluster.track(producer::shutdown);
        byte[] twoMib = new byte[2 * MIB];
        twoMib[twoMib.length - 1] = 7;
        producer.send(new Message("limits", "small".getBytes(StandardCharsets.UTF_8)));
        producer.send(new Message("limits", twoMib));

        ClientConfig small = cluster.clientConfig();
        small.setMaxMessageSize(MIB);
        PullConsumer limited = new PullConsumer("limited", small);
        limited.start();
        cluster.track(limited::shutdown);
        MessageQueue mq = limited.fetchSubscribeMessageQueues("limits").iterator().next();
        await().atMost(Duration.ofSeconds(10)).until(() -> limited.maxOffset(mq) == 2);
        assertThat(limited.pull(mq, null, 0, 32).msgFoundList()).extracting(MessageExt::getQueueOffset)
                .containsExactly(0L);

        PullConsumer fitting = new PullConsumer("fitting", cluster.clientConfig());
        fitting.start();
        cluster.track(fitting::shutdown);
        List<MessageExt> all = fitting.pull(mq, null, 0, 32).msgFoundList();
        assertThat(all).hasSize(2);
        assertThat(all.get(1).getBody()).isEqualTo(twoMib);
        assertThat(all.get(1).getSysFlag() & MessageSysFlag.COMPRESSED).isZero();
    }
}

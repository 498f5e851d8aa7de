package dev.wharf.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DefaultLitePullConsumer in both of its modes: subscribe (rebalanced, committed offsets) and assign. */
class LitePullCompatTest {

    @TempDir
    static Path dir;

    private static TestWharf servers;
    private RocketClients clients;

    @BeforeAll
    static void startServers() throws Exception {
        servers = WharfServers.start(dir);
    }

    @AfterAll
    static void stopServers() {
        servers.close();
    }

    @BeforeEach
    void clients() {
        clients = new RocketClients(servers.namesrvAddr());
    }

    @AfterEach
    void closeClients() {
        clients.close();
    }

    private void send(String topic, int count) throws Exception {
        DefaultMQProducer producer = clients.producer("lite-pg-" + topic);
        for (int i = 0; i < count; i++) {
            producer.send(new Message(topic, "t", topic + "-" + i, ("m" + i).getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static void pollInto(DefaultLitePullConsumer consumer, Set<String> keys, int expected) {
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            List<MessageExt> polled = consumer.poll(500);
            polled.forEach(m -> keys.add(m.getKeys()));
            return keys.size() >= expected;
        });
    }

    @Test
    void aSubscribingLitePullConsumerReadsEveryMessageAndCommits() throws Exception {
        send("LiteSub", 12);
        DefaultLitePullConsumer consumer = clients.litePullConsumer("lite-sub-cg");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("LiteSub", "*");
        consumer.start();
        Set<String> keys = ConcurrentHashMap.newKeySet();
        pollInto(consumer, keys, 12);
        assertThat(keys).hasSize(12);
        consumer.commitSync();
        Collection<MessageQueue> queues = consumer.fetchMessageQueues("LiteSub");
        long committed = 0;
        for (MessageQueue mq : queues) {
            committed += Math.max(0, consumer.committed(mq));
        }
        assertThat(committed).isEqualTo(12);
    }

    @Test
    void anAssigningLitePullConsumerReadsItsQueuesFromAnOffset() throws Exception {
        send("LiteAssign", 8);
        DefaultLitePullConsumer consumer = clients.litePullConsumer("lite-assign-cg");
        consumer.setAutoCommit(false);
        consumer.start();
        Collection<MessageQueue> queues = consumer.fetchMessageQueues("LiteAssign");
        // opens the broker connection from this thread first: the client's pull threads, started by assign, race to
        // open it otherwise, and the client may close the one a loser is writing to
        consumer.committed(queues.iterator().next());
        consumer.assign(queues);
        for (MessageQueue mq : queues) {
            consumer.seek(mq, 0);
        }
        Set<String> keys = ConcurrentHashMap.newKeySet();
        pollInto(consumer, keys, 8);
        assertThat(keys).hasSize(8);
    }
}

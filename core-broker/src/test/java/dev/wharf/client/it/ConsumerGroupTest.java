package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.protocol.body.ConsumerModel.MessageModel;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Push consumers of one group over 8 queues: exactly-once in a normal run, no loss across membership changes. */
class ConsumerGroupTest {

    private static final Logger log = LoggerFactory.getLogger(ConsumerGroupTest.class);
    private static final String TOPIC = "group-topic";

    @TempDir
    Path dir;
    private TestWharf cluster;
    private Producer producer;
    private final Set<String> sent = ConcurrentHashMap.newKeySet();

    @BeforeEach
    void start() throws Exception {
        cluster = TestWharf.cluster(dir, 1, "broker-a");
        cluster.createTopic(TOPIC, 8);
        producer = new Producer("group-producer", cluster.clientConfig());
        producer.start();
        cluster.track(producer::shutdown);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private PushConsumer member(String group, String name, Deliveries got, MessageModel model) throws Exception {
        ClientConfig config = cluster.clientConfig();
        PushConsumer consumer = new PushConsumer(group, config);
        consumer.setMessageModel(model);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setConsumeThreadMin(2);
        consumer.setConsumeThreadMax(2);
        consumer.setOffsetStoreDir(dir.resolve("offsets"));
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            got.add(name, msgs);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        cluster.track(consumer::shutdown);
        return consumer;
    }

    private void send(int count, String prefix) throws Exception {
        for (int i = 0; i < count; i++) {
            sent.add(producer.send(new Message(TOPIC, (prefix + i).getBytes(StandardCharsets.UTF_8))).msgId());
        }
    }

    /** The member's queues of the test topic (it also owns queues of the group's retry topic). */
    private static Set<MessageQueue> owned(PushConsumer c) {
        Set<MessageQueue> out = new HashSet<>();
        for (MessageQueue mq : c.assignedQueues()) {
            if (mq.topic().equals(TOPIC)) {
                out.add(mq);
            }
        }
        return out;
    }

    /** Waits until the members own every queue, each queue exactly once. */
    private static void awaitPartition(List<PushConsumer> members) {
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            Set<MessageQueue> union = new HashSet<>();
            int total = 0;
            for (PushConsumer c : members) {
                union.addAll(owned(c));
                total += owned(c).size();
            }
            return union.size() == 8 && total == 8 && members.stream().allMatch(c -> !owned(c).isEmpty());
        });
    }

    @Test
    void threeMembersShareEightQueuesAndEveryMessageIsConsumedOnceEvenWhileMembersComeAndGo() throws Exception {
        Deliveries got = new Deliveries();
        List<PushConsumer> members = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            members.add(member("g3", "c" + i, got, MessageModel.CLUSTERING));
        }
        awaitPartition(members);
        assertThat(members).extracting(c -> owned(c).size()).containsExactlyInAnyOrder(3, 3, 2);

        send(300, "normal-");
        await().atMost(Duration.ofSeconds(30)).until(() -> got.ids().containsAll(sent));
        assertThat(got.duplicates()).as("a normal run delivers each message once").isZero();
        assertThat(got.perConsumer()).hasSize(3);

        // a fourth member joins while messages keep coming, then the first leaves
        Thread sender = new Thread(() -> {
            try {
                send(300, "change-");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        sender.start();
        members.add(member("g3", "c3", got, MessageModel.CLUSTERING));
        awaitPartition(members);
        members.remove(0).shutdown();
        awaitPartition(members);
        sender.join();
        send(100, "after-");

        await().atMost(Duration.ofSeconds(30)).until(() -> got.ids().containsAll(sent));
        assertThat(got.ids()).containsAll(sent);
        assertThat(got.distinct()).isEqualTo(700);
        log.info("Membership changes: {} messages, {} deliveries, {} duplicates (allowed around the changes), per "
                + "member {}", got.distinct(), got.total(), got.duplicates(), got.perConsumer());
        assertThat(members).extracting(c -> owned(c).size()).containsExactlyInAnyOrder(3, 3, 2);
    }

    @Test
    void broadcastingDeliversEveryMessageToEveryMember() throws Exception {
        Deliveries first = new Deliveries();
        Deliveries second = new Deliveries();
        PushConsumer a = member("gb", "a", first, MessageModel.BROADCASTING);
        PushConsumer b = member("gb", "b", second, MessageModel.BROADCASTING);
        await().atMost(Duration.ofSeconds(20)).until(() -> owned(a).size() == 8 && owned(b).size() == 8);
        send(50, "all-");
        await().atMost(Duration.ofSeconds(20)).until(() -> first.ids().containsAll(sent) && second.ids().containsAll(sent));
        assertThat(first.duplicates()).isZero();
        assertThat(second.duplicates()).isZero();
    }
}

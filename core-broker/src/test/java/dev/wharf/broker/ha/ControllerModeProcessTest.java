package dev.wharf.broker.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.ha.ControllerModeCluster.Replica;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.client.consumer.PullStatus;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.ControllerData.BrokerGroupInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Controller mode with real broker processes: three Raft controllers and a NameServer in this JVM, one broker name
 * with three replica processes (SYNC_MASTER when elected, minInSyncReplicas=2), producers that follow the routes.
 * The master is killed with SIGKILL under load: another replica is elected, the routes follow it, every send the
 * producers saw acknowledged is consumable from the new master, and the old master, restarted on its store, comes
 * back as a slave and copies the new master's log (cutting any tail it wrote that was never acknowledged).
 */
@Timeout(150)
class ControllerModeProcessTest {

    private static final String TOPIC = "ctrl-failover";
    private static final int PRODUCERS = 2;

    @TempDir
    Path dir;
    private ControllerModeCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = new ControllerModeCluster(dir);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void killedMasterIsReplacedAndLosesNoAcknowledgedSend() throws Exception {
        Replica a = cluster.replica("a");
        Replica b = cluster.replica("b");
        Replica c = cluster.replica("c");
        for (Replica r : List.of(a, b, c)) {
            cluster.start(r);
        }
        cluster.awaitSyncStateSet(3, Duration.ofSeconds(60));
        Replica master = cluster.master();
        assertThat(master).isNotNull();
        BrokerGroupInfo before = cluster.group();

        Set<String> acked = ConcurrentHashMap.newKeySet();
        AtomicLong lastAckNanos = new AtomicLong();
        AtomicInteger failures = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        Thread[] senders = new Thread[PRODUCERS];
        Producer[] producers = new Producer[PRODUCERS];
        for (int t = 0; t < PRODUCERS; t++) {
            Producer producer = new Producer("ctrl-producers-" + t, cluster.clientConfig());
            producer.setSendMsgTimeout(3_000);
            producer.start();
            producers[t] = producer;
            int thread = t;
            senders[t] = new Thread(() -> {
                for (int i = 0; !stop.get(); i++) {
                    String key = "p" + thread + "-" + i;
                    try {
                        if (producer.send(Workload.message(TOPIC, key)).sendStatus() == SendStatus.SEND_OK) {
                            acked.add(key);
                            lastAckNanos.set(System.nanoTime());
                        } else {
                            failures.incrementAndGet();
                        }
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                }
            }, "ctrl-sender-" + t);
            senders[t].start();
        }
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> acked.size() >= 500);
            long killedAt = System.nanoTime();
            cluster.kill(master);
            int ackedAtKill = acked.size();
            // sends succeed again once a new master is elected, registered and has a slave in sync
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                    .until(() -> lastAckNanos.get() > killedAt && acked.size() > ackedAtKill + 100);
            System.out.printf("Controller mode, kill -9 of the master: %d sends acknowledged before, %d failed"
                    + " attempts reported to the producers%n", ackedAtKill, failures.get());
        } finally {
            stop.set(true);
            for (Thread s : senders) {
                s.join(20_000);
            }
            for (Producer p : producers) {
                p.shutdown();
            }
        }
        BrokerGroupInfo after = cluster.group();
        assertThat(after.masterAddress()).isNotEqualTo(master.address);
        assertThat(after.masterEpoch()).isGreaterThan(before.masterEpoch());
        assertThat(before.syncStateSet()).contains(after.masterBrokerId());

        // every acknowledged send is consumable through the routes, which now name the new master
        Set<String> consumed = consumeAll();
        Set<String> lost = new HashSet<>(acked);
        lost.removeAll(consumed);
        assertThat(lost).as("sends acknowledged but not consumable from the new master").isEmpty();

        // the old master comes back as a slave of the new one and ends with the same log
        cluster.start(master);
        Replica newMaster = cluster.master();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
            BrokerGroupInfo g = cluster.group();
            long masterMax = g.replicas().stream().filter(r -> r.brokerId() == g.masterBrokerId()).findFirst()
                    .orElseThrow().maxOffset();
            return g.replicas().stream().anyMatch(r -> master.address.equals(r.address()) && r.alive()
                    && r.maxOffset() == masterMax) && g.masterAddress().equals(newMaster.address);
        });
        assertThat(cluster.group().masterAddress()).isNotEqualTo(master.address);
    }

    /** Reads every message of the topic from the first offset of each queue, through the routes. */
    private Set<String> consumeAll() throws Exception {
        Set<String> keys = new HashSet<>();
        PullConsumer consumer = new PullConsumer("ctrl-check", cluster.clientConfig());
        consumer.start();
        try {
            Set<MessageQueue> queues = consumer.fetchSubscribeMessageQueues(TOPIC);
            for (MessageQueue mq : queues) {
                long offset = consumer.minOffset(mq);
                long max = consumer.maxOffset(mq);
                while (offset < max) {
                    PullResult r = consumer.pull(mq, MessageSelector.all(), offset, 32);
                    if (r.pullStatus() != PullStatus.FOUND) {
                        break;
                    }
                    for (MessageExt m : r.msgFoundList()) {
                        keys.add(m.getKeys());
                    }
                    offset = r.nextBeginOffset();
                }
            }
        } finally {
            consumer.shutdown();
        }
        return keys;
    }
}

package dev.wharf.broker.ha;

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
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One fault under load against a {@link ControllerModeCluster}: producers that follow the routes send unique keys and
 * record every acknowledged one; the master is killed (SIGKILL) or paused (SIGSTOP); the run measures the failover
 * as the producers see it (from the fault to the acknowledgement of the first send begun after it), brings the old master back (restart,
 * or SIGCONT) and waits until it is a slave holding the new master's log.
 */
final class FailoverRun {

    enum Fault { KILL, PAUSE }

    /** What a run saw: the failover time, the acknowledged keys, the failures the producers reported. */
    record Outcome(long failoverMillis, Set<String> acked, int failures, BrokerGroupInfo before,
                   BrokerGroupInfo after, Replica oldMaster) {
    }

    private static final AtomicInteger RUNS = new AtomicInteger();

    private final ControllerModeCluster cluster;
    private final String topic;

    FailoverRun(ControllerModeCluster cluster, String topic) {
        this.cluster = cluster;
        this.topic = topic;
    }

    Outcome run(Fault fault, int producers, int ackedBeforeFault, int ackedAfterFault) throws Exception {
        Replica master = cluster.master();
        if (master == null) {
            throw new IllegalStateException("no master to fault");
        }
        BrokerGroupInfo before = cluster.group();
        String run = "r" + RUNS.incrementAndGet() + "-";
        Set<String> acked = ConcurrentHashMap.newKeySet();
        AtomicLong faultAt = new AtomicLong(Long.MAX_VALUE);
        AtomicLong firstAckAfterFault = new AtomicLong();
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger ackedAfter = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        Thread[] senders = new Thread[producers];
        Producer[] clients = new Producer[producers];
        for (int t = 0; t < producers; t++) {
            Producer producer = new Producer("failover-" + run + t, cluster.clientConfig());
            producer.setSendMsgTimeout(3_000);
            producer.start();
            clients[t] = producer;
            String prefix = run + t + "-";
            senders[t] = new Thread(() -> {
                for (int i = 0; !stop.get(); i++) {
                    String key = prefix + i;
                    long began = System.nanoTime();
                    try {
                        if (producer.send(Workload.message(topic, key)).sendStatus() == SendStatus.SEND_OK) {
                            acked.add(key);
                            long now = System.nanoTime();
                            if (began > faultAt.get()) { // a send begun after the fault: the new master took it
                                firstAckAfterFault.compareAndSet(0, now);
                                ackedAfter.incrementAndGet();
                            }
                        } else {
                            failures.incrementAndGet();
                        }
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                }
            }, "failover-sender-" + t);
            senders[t].start();
        }
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> acked.size() >= ackedBeforeFault);
            faultAt.set(System.nanoTime());
            if (fault == Fault.KILL) {
                cluster.kill(master);
            } else {
                cluster.signal(master, "STOP");
            }
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10))
                    .until(() -> ackedAfter.get() >= ackedAfterFault);
        } finally {
            stop.set(true);
            for (Thread s : senders) {
                s.join(20_000);
            }
            for (Producer p : clients) {
                p.shutdown();
            }
        }
        long failoverMillis = (firstAckAfterFault.get() - faultAt.get()) / 1_000_000;
        BrokerGroupInfo after = cluster.group();

        // the old master comes back (restarted on its store, or resumed) and must end a slave of the new master
        // holding the same log
        if (fault == Fault.KILL) {
            cluster.start(master);
        } else {
            cluster.signal(master, "CONT");
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
            BrokerGroupInfo g = cluster.group();
            long masterMax = g.replicas().stream().filter(r -> r.brokerId() == g.masterBrokerId()).findFirst()
                    .orElseThrow().maxOffset();
            return g.hasMaster() && !master.address.equals(g.masterAddress()) && g.replicas().stream()
                    .anyMatch(r -> master.address.equals(r.address()) && r.alive() && r.maxOffset() == masterMax);
        });
        return new Outcome(failoverMillis, Set.copyOf(acked), failures.get(), before, after, master);
    }

    /** Every key of the topic, read from the first offset of each queue through the routes (the master's). */
    Set<String> consumeAll() throws Exception {
        Set<String> keys = new HashSet<>();
        PullConsumer consumer = new PullConsumer("failover-check-" + RUNS.incrementAndGet(), cluster.clientConfig());
        consumer.start();
        try {
            for (MessageQueue mq : consumer.fetchSubscribeMessageQueues(topic)) {
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

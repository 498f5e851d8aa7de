package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.AckProtocol.Got;
import dev.wharf.broker.AckProtocol.Popped;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.AckStats.QueueAckStats;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.AckHeaders;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.protocol.header.AckHeaders.PopMessageRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Acknowledgement-based consumption against a real broker over the raw protocol. */
class PopAckTest {

    private static final long LEASE = 30_000;

    @TempDir
    static Path dir;

    private static Broker broker;
    private static ProtocolClient producer;

    @BeforeAll
    static void start() throws Exception {
        broker = BrokerFixture.start(dir, s -> {
            s.broker().pop().setPopScanUnitsPerQueue(64);
            s.broker().pop().setPopLeaseScanInterval(50);
        });
        producer = new ProtocolClient(broker.address());
    }

    @AfterAll
    static void stop() {
        producer.close();
        broker.shutdown();
    }

    private static void topic(String name, int queues) throws Exception {
        broker.topics().update(new TopicConfig(name, queues));
    }

    private static void send(String topic, int queueId, String body, Map<String, String> props) throws Exception {
        producer.sendOk(topic, queueId, body.getBytes(StandardCharsets.UTF_8), props);
    }

    private static void sendN(String topic, int queueId, int n, String prefix) throws Exception {
        for (int i = 0; i < n; i++) {
            send(topic, queueId, prefix + i, Map.of());
        }
        awaitStored(topic, queueId);
    }

    /** Waits until the queue's last message is readable. */
    private static void awaitStored(String topic, int queueId) {
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.store().dispatchBehindBytes() == 0
                && broker.store().getMaxOffsetInQueue(topic, queueId) > 0);
    }

    private static AckProtocol consumer(String group) {
        return new AckProtocol(broker.address(), group);
    }

    private static QueueAckStats stats(AckProtocol c, String topic, int queueId) throws Exception {
        return c.stats(topic).queues().stream().filter(q -> q.queueId() == queueId).findFirst().orElseThrow();
    }

    @Test
    void consumersWithDifferentSelectorsShareAQueueAndUnmatchedMessagesStay() throws Exception {
        topic("Colors", 1);
        String[] colors = {"red", "blue", "green"};
        for (int i = 0; i < 12; i++) {
            send("Colors", 0, colors[i % 3] + i, Map.of("color", colors[i % 3]));
        }
        awaitStored("Colors", 0);
        try (AckProtocol red = consumer("colors"); AckProtocol blue = consumer("colors");
             AckProtocol green = consumer("colors")) {
            Popped reds = red.pop("Colors", -1, 32, LEASE, 0, "color = 'red'");
            Popped blues = blue.pop("Colors", -1, 32, LEASE, 0, "color = 'blue'");
            assertThat(reds.bodies()).containsExactly("red0", "red3", "red6", "red9");
            assertThat(blues.bodies()).containsExactly("blue1", "blue4", "blue7", "blue10");
            red.ack("Colors", reds.messages());
            blue.ack("Colors", blues.messages());
            assertThat(red.pop("Colors", -1, 32, LEASE, 0, "color = 'red'").messages()).isEmpty();

            // nothing matched the green messages: they stay on the queue, ackOffset did not pass them
            assertThat(red.browse("Colors", 0)).containsExactly("green2", "green5", "green8", "green11");
            QueueAckStats s = stats(red, "Colors", 0);
            assertThat(s.ackOffset()).isEqualTo(2);
            assertThat(s.backlog()).isEqualTo(4);
            assertThat(s.ackedAbove()).isEqualTo(6);

            Popped greens = green.pop("Colors", -1, 32, LEASE, 0, "color = 'green'");
            assertThat(greens.bodies()).containsExactly("green2", "green5", "green8", "green11");
            green.ack("Colors", greens.messages());
            assertThat(stats(green, "Colors", 0).ackOffset()).isEqualTo(12);
        }
    }

    @Test
    void outOfOrderAcksLoseNothingAndHoldNothingBack() throws Exception {
        topic("OutOfOrder", 1);
        sendN("OutOfOrder", 0, 10, "m");
        try (AckProtocol c = consumer("ooo")) {
            Popped first = c.pop("OutOfOrder", 0, 10, LEASE, 0, null);
            assertThat(first.messages()).hasSize(10).allMatch(g -> g.count() == 1);
            List<Got> shuffled = new ArrayList<>(first.messages());
            Collections.shuffle(shuffled, new Random(7));
            List<Got> acked = shuffled.subList(0, 5);
            List<Got> released = shuffled.subList(5, 10);
            for (Got g : acked) {
                c.ack("OutOfOrder", List.of(g)); // one at a time, in random order
            }
            c.change("OutOfOrder", released, 0, true);

            Popped again = c.pop("OutOfOrder", 0, 10, LEASE, 0, null);
            assertThat(again.bodies()).containsExactlyInAnyOrderElementsOf(released.stream().map(Got::body).toList());
            assertThat(again.messages()).allMatch(g -> g.count() == 2);
            // queue order within the queue
            assertThat(again.messages().stream().map(Got::offset).toList()).isSorted();
            c.ack("OutOfOrder", again.messages());
            QueueAckStats s = stats(c, "OutOfOrder", 0);
            assertThat(s.ackOffset()).isEqualTo(10);
            assertThat(s.inFlight()).isZero();
            assertThat(s.ackedAbove()).isZero();
            // acknowledging again is harmless
            c.ack("OutOfOrder", first.messages());
        }
    }

    @Test
    void anExpiredLeaseIsRedeliveredWithAHigherCountAndWakesAWaitingPop() throws Exception {
        topic("Lease", 1);
        sendN("Lease", 0, 1, "x");
        try (AckProtocol a = consumer("lease"); AckProtocol b = consumer("lease")) {
            Popped first = a.pop("Lease", 0, 1, 300, 0, null);
            assertThat(first.messages()).singleElement().extracting(Got::count).isEqualTo(1);
            long start = System.nanoTime();
            Popped second = b.pop("Lease", -1, 1, LEASE, 5_000, null);
            assertThat(second.messages()).singleElement().satisfies(g -> {
                assertThat(g.body()).isEqualTo("x0");
                assertThat(g.count()).isEqualTo(2);
            });
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(4_000);
            // the first consumer's late change is about an older delivery: it must not cut b's lease short
            a.change("Lease", first.messages(), 0, true);
            assertThat(a.pop("Lease", 0, 1, LEASE, 0, null).messages()).isEmpty();
            b.ack("Lease", second.messages());
        }
    }

    @Test
    void theLeasesOfAClosedConnectionComeBackAtOnce() throws Exception {
        topic("Closed", 1);
        sendN("Closed", 0, 3, "c");
        AckProtocol dying = consumer("closed");
        Popped taken = dying.pop("Closed", 0, 3, LEASE, 0, null);
        assertThat(taken.messages()).hasSize(3);
        try (AckProtocol other = consumer("closed")) {
            assertThat(other.pop("Closed", 0, 3, LEASE, 0, null).messages()).isEmpty();
            dying.close();
            long start = System.nanoTime();
            Popped back = other.pop("Closed", -1, 3, LEASE, 10_000, null);
            assertThat(back.bodies()).containsExactly("c0", "c1", "c2");
            assertThat(back.messages()).allMatch(g -> g.count() == 2);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(LEASE / 3);
            other.ack("Closed", back.messages());
        }
    }

    @Test
    void eightConsumersOnTwoQueuesAllReceiveWorkAndEveryMessageOnce() throws Exception {
        topic("Shared", 2);
        for (int i = 0; i < 80; i++) {
            send("Shared", i % 2, "s" + i, Map.of());
        }
        awaitStored("Shared", 0);
        List<AckProtocol> consumers = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int i = 0; i < 8; i++) {
                consumers.add(consumer("shared"));
            }
            // first round: all pop at once; each gets a batch although there are only two queues
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Popped>> firsts = new ArrayList<>();
            for (AckProtocol c : consumers) {
                firsts.add(pool.submit(() -> {
                    go.await();
                    return c.pop("Shared", -1, 5, LEASE, 2_000, null);
                }));
            }
            go.countDown();
            Map<String, Integer> seen = new ConcurrentHashMap<>();
            for (int i = 0; i < 8; i++) {
                Popped p = firsts.get(i).get(10, TimeUnit.SECONDS);
                assertThat(p.messages()).as("consumer %d", i).hasSize(5);
                p.bodies().forEach(b -> seen.merge(b, 1, Integer::sum));
                consumers.get(i).ack("Shared", p.messages());
            }
            // then everyone drains concurrently
            AtomicInteger total = new AtomicInteger(seen.size());
            List<Future<?>> loops = new ArrayList<>();
            for (AckProtocol c : consumers) {
                loops.add(pool.submit(() -> {
                    while (total.get() < 80) {
                        Popped p = c.pop("Shared", -1, 3, LEASE, 200, null);
                        p.bodies().forEach(b -> seen.merge(b, 1, Integer::sum));
                        total.addAndGet(p.messages().size());
                        c.ack("Shared", p.messages());
                    }
                    return null;
                }));
            }
            for (Future<?> loop : loops) {
                loop.get(20, TimeUnit.SECONDS);
            }
            assertThat(seen).hasSize(80);
            assertThat(seen.values()).allMatch(n -> n == 1);
            assertThat(stats(consumers.get(0), "Shared", 0).ackOffset()).isEqualTo(40);
            assertThat(stats(consumers.get(0), "Shared", 1).ackOffset()).isEqualTo(40);
        } finally {
            pool.shutdownNow();
            consumers.forEach(AckProtocol::close);
        }
    }

    @Test
    void aMessageDeliveredTooOftenMovesToTheDeadLetterQueueWhichIsConsumable() throws Exception {
        topic("Poison", 1);
        send("Poison", 0, "bad", Map.of(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, "0A0B0C0D0E0F00112233445566778899"));
        send("Poison", 0, "good", Map.of());
        awaitStored("Poison", 0);
        try (AckProtocol c = consumer("poison"); AckProtocol dlq = consumer("%DLQ%poison")) {
            for (int attempt = 1; attempt <= 3; attempt++) {
                Popped p = c.pop(AckProtocol.popHeader("poison", "Poison", 0, 1, LEASE, 0, null, InitMode.EARLIEST,
                        false, 2));
                assertThat(p.messages()).singleElement().satisfies(g -> assertThat(g.body()).isEqualTo("bad"));
                assertThat(p.messages().get(0).count()).isEqualTo(attempt);
                c.change("Poison", p.messages(), 0, true); // rollback
            }
            // delivered 1 + maxReconsumeTimes times: now it is dead-lettered, the next message is next
            Popped next = c.pop("Poison", 0, 1, LEASE, 3_000, null);
            assertThat(next.bodies()).containsExactly("good");
            c.ack("Poison", next.messages());
            await().atMost(Duration.ofSeconds(10)).until(() -> stats(c, "Poison", 0).deadLettered() == 1);
            assertThat(stats(c, "Poison", 0).ackOffset()).isEqualTo(2);

            Popped dead = dlq.pop("%DLQ%poison", -1, 32, LEASE, 5_000, null);
            assertThat(dead.messages()).singleElement().satisfies(g -> {
                assertThat(g.body()).isEqualTo("bad");
                assertThat(g.count()).isEqualTo(1);
                assertThat(g.msg().getProperty(MessageProperties.DLQ_ORIGIN_TOPIC)).isEqualTo("Poison");
                assertThat(g.msg().getProperty(MessageProperties.DLQ_ORIGIN_QUEUE_OFFSET)).isEqualTo("0");
                assertThat(g.msg().getProperty(MessageProperties.DLQ_DELIVERY_COUNT)).isEqualTo("3");
                assertThat(g.msg().getProperty(MessageProperties.DLQ_REASON)).contains("maxReconsumeTimes 2");
                assertThat(g.msg().getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID))
                        .isEqualTo("0A0B0C0D0E0F00112233445566778899");
                assertThat(g.msg().getProperty(MessageProperties.ORIGIN_MESSAGE_ID)).hasSize(32);
            });
            assertThat(dlq.browse("%DLQ%poison", 0)).containsExactly("bad");
            dlq.ack("%DLQ%poison", dead.messages());
            assertThat(dlq.browse("%DLQ%poison", 0)).isEmpty();
        }
    }

    @Test
    void expiredMessagesAreNeverDelivered() throws Exception {
        topic("Expiring", 1);
        long now = System.currentTimeMillis();
        send("Expiring", 0, "stale", Map.of("JMSExpiration", Long.toString(now - 1)));
        send("Expiring", 0, "fresh", Map.of("JMSExpiration", Long.toString(now + 600_000)));
        send("Expiring", 0, "forever", Map.of("JMSExpiration", "0"));
        awaitStored("Expiring", 0);
        try (AckProtocol c = consumer("expiring")) {
            assertThat(c.browse("Expiring", 0)).containsExactly("fresh", "forever");
            Popped p = c.pop("Expiring", 0, 32, LEASE, 0, null);
            assertThat(p.bodies()).containsExactly("fresh", "forever");
            c.ack("Expiring", p.messages());
            QueueAckStats s = stats(c, "Expiring", 0);
            assertThat(s.expired()).isEqualTo(1);
            assertThat(s.ackOffset()).isEqualTo(3);
        }
    }

    @Test
    void browsingChangesNothing() throws Exception {
        topic("Browsed", 1);
        sendN("Browsed", 0, 5, "b");
        try (AckProtocol c = consumer("browsed")) {
            Popped leased = c.pop("Browsed", 0, 1, LEASE, 0, null);
            c.ack("Browsed", c.pop("Browsed", 0, 1, LEASE, 0, null).messages());
            QueueAckStats before = stats(c, "Browsed", 0);
            AckProtocol.Peeked peek = c.peek("Browsed", 0, 0, 32, null);
            // the leased one is still on the queue; the acknowledged one is not
            assertThat(peek.bodies()).containsExactly("b0", "b2", "b3", "b4");
            assertThat(peek.messages().get(0).count()).isEqualTo(1);
            assertThat(peek.messages().get(1).count()).isZero();
            assertThat(c.peek("Browsed", 0, 3, 1, null).bodies()).containsExactly("b3");
            assertThat(c.peek("Browsed", 0, 0, 32, "JMSXDeliveryCount = 2").bodies()).containsExactly("b0");
            assertThat(stats(c, "Browsed", 0)).isEqualTo(before);
            Popped rest = c.pop("Browsed", 0, 32, LEASE, 0, null);
            assertThat(rest.bodies()).containsExactly("b2", "b3", "b4");
            assertThat(rest.messages()).allMatch(g -> g.count() == 1);
            c.ack("Browsed", rest.messages());
            c.ack("Browsed", leased.messages());
        }
    }

    @Test
    void aSubscriptionSkipsWhatItsSelectorDoesNotMatch() throws Exception {
        topic("News", 1);
        for (int i = 0; i < 6; i++) {
            send("News", 0, "n" + i, Map.of(MessageProperties.TAGS, i % 2 == 0 ? "sport" : "weather"));
        }
        awaitStored("News", 0);
        try (AckProtocol sub = consumer("news-sub")) {
            RemotingCommand raw = sub.popRaw(new PopMessageRequest("news-sub", "News", -1, 32, LEASE, 0, "TAG", "sport",
                    InitMode.EARLIEST, true, null));
            assertThat(raw.code()).isEqualTo(ResponseCode.SUCCESS);
            assertThat(ProtocolClient.messages(raw)).extracting(m -> new String(m.getBody(), StandardCharsets.UTF_8))
                    .containsExactly("n0", "n2", "n4");
            QueueAckStats s = stats(sub, "News", 0);
            assertThat(s.skipped()).isEqualTo(3);
            assertThat(s.backlog()).isEqualTo(3);
            sub.ack("News", ProtocolClient.messages(raw).stream().map(m -> new Got(m, 1)).toList());
            assertThat(stats(sub, "News", 0).ackOffset()).isEqualTo(6);
        }
    }

    @Test
    void aLatestGroupStartsAtTheQueueEndWhenItIsCreated() throws Exception {
        topic("Latest", 2);
        sendN("Latest", 0, 3, "old");
        try (AckProtocol c = consumer("latest")) {
            c.create("Latest", InitMode.LATEST);
            send("Latest", 1, "new", Map.of());
            awaitStored("Latest", 1);
            Popped p = c.pop("Latest", -1, 32, LEASE, 2_000, null);
            assertThat(p.bodies()).containsExactly("new");
            c.ack("Latest", p.messages());
            // creating again changes nothing
            c.create("Latest", InitMode.EARLIEST);
            assertThat(c.pop("Latest", -1, 32, LEASE, 0, null).messages()).isEmpty();
        }
    }

    @Test
    void deletingAGroupForgetsItsState() throws Exception {
        topic("Unsubscribed", 1);
        sendN("Unsubscribed", 0, 3, "u");
        try (AckProtocol c = consumer("unsub")) {
            c.ack("Unsubscribed", c.pop("Unsubscribed", 0, 2, LEASE, 0, null).messages());
            c.pop("Unsubscribed", 0, 1, LEASE, 0, null);
            assertThat(c.stats("Unsubscribed").queues()).hasSize(1);
            c.delete("Unsubscribed");
            assertThat(c.stats("Unsubscribed").queues()).isEmpty();
            assertThat(broker.ack().hasGroup("unsub", "Unsubscribed")).isFalse();
            // a later consumer of that name starts over
            Popped again = c.pop("Unsubscribed", 0, 32, LEASE, 0, null);
            assertThat(again.bodies()).containsExactly("u0", "u1", "u2");
            assertThat(again.messages()).allMatch(g -> g.count() == 1);
        }
    }

    @Test
    void aPopWaitingWhenItsGroupIsDeletedIsAnsweredEmptyAndDoesNotCreateTheGroupAgain() throws Exception {
        topic("HeldUnsubscribed", 1);
        sendN("HeldUnsubscribed", 0, 1, "leased");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (AckProtocol waiting = consumer("held-unsub"); AckProtocol admin = consumer("held-unsub")) {
            assertThat(admin.pop("HeldUnsubscribed", 0, 1, LEASE, 0, null).messages()).hasSize(1);
            int heldBefore = broker.heldPullCount();
            Future<Popped> held = pool.submit(() -> waiting.pop("HeldUnsubscribed", 0, 1, LEASE, 10_000, null));
            await().atMost(Duration.ofSeconds(10)).until(() -> broker.heldPullCount() > heldBefore);
            admin.delete("HeldUnsubscribed");
            send("HeldUnsubscribed", 0, "after", Map.of()); // wakes the waiting pop
            assertThat(held.get(10, TimeUnit.SECONDS).messages()).isEmpty();
            assertThat(broker.ack().hasGroup("held-unsub", "HeldUnsubscribed")).isFalse();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRedeliveryDelayKeepsTheMessageAwayUntilItEnds() throws Exception {
        topic("Delayed", 1);
        sendN("Delayed", 0, 1, "d");
        try (AckProtocol c = consumer("delayed")) {
            Popped p = c.pop("Delayed", 0, 1, LEASE, 0, null);
            long start = System.nanoTime();
            c.change("Delayed", p.messages(), 600, true);
            assertThat(c.pop("Delayed", 0, 1, LEASE, 0, null).messages()).isEmpty();
            Popped again = c.pop("Delayed", 0, 1, LEASE, 5_000, null);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(600);
            assertThat(again.messages()).singleElement().extracting(Got::count).isEqualTo(2);
            // released unseen: the delivery does not count
            c.change("Delayed", again.messages(), 0, false);
            assertThat(c.pop("Delayed", 0, 1, LEASE, 0, null).messages()).singleElement().extracting(Got::count)
                    .isEqualTo(2);
        }
    }

    @Test
    void aLongUnmatchedBacklogIsScannedInStepsAndOnlyOnce() throws Exception {
        topic("Backlog", 1);
        for (int i = 0; i < 300; i++) {
            send("Backlog", 0, "x" + i, Map.of("kind", "noise"));
        }
        send("Backlog", 0, "needle", Map.of("kind", "needle"));
        awaitStored("Backlog", 0);
        try (AckProtocol c = consumer("backlog")) {
            // 301 units with 64 per scan: a pop that may not wait keeps scanning a few rounds
            Popped p = c.pop("Backlog", 0, 1, LEASE, 0, "kind = 'needle'");
            assertThat(p.bodies()).containsExactly("needle");
            c.ack("Backlog", p.messages());
            send("Backlog", 0, "needle2", Map.of("kind", "needle"));
            awaitStored("Backlog", 0);
            // the scan position remembers that the noise does not match: one step finds the new one
            Popped q = c.pop("Backlog", 0, 1, LEASE, 0, "kind = 'needle'");
            assertThat(q.bodies()).containsExactly("needle2");
            assertThat(q.moreToScan()).isFalse();
        }
    }

    @Test
    void badRequestsAreRefusedWithAReason() throws Exception {
        topic("Strict", 1);
        sendN("Strict", 0, 1, "s");
        try (AckProtocol c = consumer("strict")) {
            Map<String, RemotingCommand> answers = new HashMap<>();
            answers.put("too many", c.popRaw(AckProtocol.popHeader("strict", "Strict", 0, AckHeaders.MAX_POP_NUMS + 1, LEASE, 0, null,
                    InitMode.EARLIEST, false, null)));
            answers.put("no lease", c.popRaw(AckProtocol.popHeader("strict", "Strict", 0, 1, 0, 0, null,
                    InitMode.EARLIEST, false, null)));
            answers.put("bad queue", c.popRaw(AckProtocol.popHeader("strict", "Strict", 5, 1, LEASE, 0, null,
                    InitMode.EARLIEST, false, null)));
            answers.put("bad sql", c.popRaw(AckProtocol.popHeader("strict", "Strict", 0, 1, LEASE, 0, "a = = 1",
                    InitMode.EARLIEST, false, null)));
            answers.put("internal", c.popRaw(AckProtocol.popHeader("strict", "WHARF_SYS_ACK_LOG", 0, 1, LEASE, 0,
                    null, InitMode.EARLIEST, false, null)));
            answers.put("unknown topic", c.popRaw(AckProtocol.popHeader("strict", "NoSuchTopic", 0, 1, LEASE, 0,
                    null, InitMode.EARLIEST, false, null)));
            answers.put("beyond end", c.ackRaw("Strict", 0, "0,7"));
            answers.put("not offsets", c.ackRaw("Strict", 0, "0,x"));
            answers.put("counts mismatch", c.changeRaw("Strict", 0, "0", "1,1", 0, true));
            assertThat(answers.get("too many").code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
            assertThat(answers.get("too many").remark()).contains("maxMsgNums is " + (AckHeaders.MAX_POP_NUMS + 1));
            assertThat(answers.get("no lease").remark()).contains("invisibleTime is 0");
            assertThat(answers.get("bad queue").remark()).contains("queueId 5 is out of range");
            assertThat(answers.get("bad sql").code()).isEqualTo(ResponseCode.SUBSCRIPTION_PARSE_FAILED);
            assertThat(answers.get("internal").code()).isEqualTo(ResponseCode.NO_PERMISSION);
            assertThat(answers.get("unknown topic").code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
            assertThat(answers.get("beyond end").remark()).contains("The offset 7 is beyond the end (1)");
            assertThat(answers.get("not offsets").remark()).contains("\"x\"");
            assertThat(answers.get("counts mismatch").remark()).contains("2 values for 1 offsets");
            // nothing of it changed the queue
            assertThat(c.browse("Strict", 0)).containsExactly("s0");
        }
    }
}

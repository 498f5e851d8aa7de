package dev.wharf.broker;

import static dev.wharf.broker.ScheduleTestSupport.props;
import static dev.wharf.broker.ScheduleTestSupport.readQueue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.Tags;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Delayed messages over the wire: levels and arbitrary delivery times, measured against the clock. */
class ScheduledDeliveryTest {

    private static final Logger log = LoggerFactory.getLogger(ScheduledDeliveryTest.class);
    private static final byte[] BODY = "payload".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private Broker broker;
    private ProtocolClient client;

    @BeforeEach
    void start() throws Exception {
        broker = BrokerFixture.start(dir, s -> s.broker().schedule().setMessageDelayLevel(ScheduleTestSupport.TEST_LEVELS));
        client = new ProtocolClient(broker.address());
    }

    @AfterEach
    void stop() {
        client.close();
        broker.shutdown();
    }

    @Test
    void messagesArriveNoEarlierThanAskedAndLessThanASecondLate() throws Exception {
        String topic = "delays";
        long base = System.currentTimeMillis();
        // absolute delivery times: the due time is known exactly
        long[] delays = {300, 1_500, 3_000, 700, 2_200};
        Map<String, Long> dueById = new HashMap<>();
        for (int i = 0; i < delays.length; i++) {
            long due = base + delays[i];
            String id = "abs-" + i;
            dueById.put(id, due);
            client.sendOk(topic, 0, BODY, props(id, MessageProperties.DELIVER_TIME_MS, String.valueOf(due)));
        }
        // relative delays and a level: due = send time at the broker + delay, bounded by the calls around it
        Map<String, long[]> windows = new HashMap<>();
        for (long delay : new long[] {300, 1_500}) {
            long before = System.currentTimeMillis();
            client.sendOk(topic, 0, BODY, props("rel-" + delay, MessageProperties.DELAY_MS, String.valueOf(delay)));
            windows.put("rel-" + delay, new long[] {before + delay, System.currentTimeMillis() + delay});
        }
        long before = System.currentTimeMillis();
        client.sendOk(topic, 0, BODY, props("level-9", MessageProperties.DELAY_TIME_LEVEL, "9")); // 1 s
        windows.put("level-9", new long[] {before + 1_000, System.currentTimeMillis() + 1_000});

        assertThat(readQueue(client, "g", topic, 0, 0)).as("nothing is visible before it is due").isEmpty();
        int expected = delays.length + windows.size();
        List<MessageExt> delivered = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            delivered.clear();
            delivered.addAll(readQueue(client, "g", topic, 0, 0));
            return delivered.size() >= expected;
        });
        assertThat(delivered).hasSize(expected);
        List<String> report = new ArrayList<>();
        for (MessageExt m : delivered) {
            String id = m.getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID);
            long stored = m.getStoreTimestamp();
            long earliest;
            long latest;
            if (dueById.containsKey(id)) {
                earliest = dueById.get(id);
                latest = earliest;
            } else {
                earliest = windows.get(id)[0];
                latest = windows.get(id)[1];
            }
            assertThat(stored).as("%s is never early", id).isGreaterThanOrEqualTo(earliest);
            assertThat(stored - latest).as("%s is less than a second late", id).isLessThan(1_000);
            report.add(id + " +" + (stored - latest) + " ms");
        }
        log.info("Delivery lateness (store time of the delivered copy minus the due time): {}", report);
        assertThat(delivered).extracting(m -> m.getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID))
                .as("the timer delivers in due-time order").startsWith("abs-0", "rel-300", "abs-3");
    }

    @Test
    void theDeliveredCopyIsTheSentMessageUnderItsRealTopic() throws Exception {
        Map<String, String> p = props("uid-1", MessageProperties.DELAY_MS, "200", MessageProperties.TAGS, "tagA",
                MessageProperties.KEYS, "k1 k2", "color", "blue");
        client.sendOk("real", 2, BODY, p);
        List<MessageExt> scheduled = readScheduled(broker.schedule().layout().timerQueueId());
        assertThat(scheduled).hasSize(1);
        assertThat(scheduled.get(0).getProperty(MessageProperties.REAL_TOPIC)).isEqualTo("real");
        assertThat(scheduled.get(0).getProperty(MessageProperties.REAL_QUEUE_ID)).isEqualTo("2");
        assertThat(scheduled.get(0).getProperty(MessageProperties.DELIVER_TIME_MS)).isNotNull();
        assertThat(scheduled.get(0).getProperty(MessageProperties.DELAY_MS)).isNull();

        List<MessageExt> delivered = awaitMessages("real", 2, 1);
        MessageExt m = delivered.get(0);
        assertThat(m.getTopic()).isEqualTo("real");
        assertThat(m.getQueueId()).isEqualTo(2);
        assertThat(m.getBody()).isEqualTo(BODY);
        assertThat(m.getMsgId()).isEqualTo("uid-1");
        assertThat(m.getTags()).isEqualTo("tagA");
        assertThat(m.getKeys()).isEqualTo("k1 k2");
        assertThat(m.getProperty("color")).isEqualTo("blue");
        assertThat(m.getProperty(MessageProperties.DELIVER_TIME_MS)).isNull();
        assertThat(m.getProperty(MessageProperties.REAL_TOPIC)).isNull();
        assertThat(m.getProperty(MessageProperties.SCHEDULE_SOURCE))
                .isEqualTo(broker.schedule().layout().timerQueueId() + ":0");
        assertThat(m.getCommitLogOffset()).as("a new record").isGreaterThan(scheduled.get(0).getCommitLogOffset());
        // the tag filter works on the delivered copy: its tag hash is restored
        RemotingCommand tagged = client.pull("g2", "real", 2, 0, 32, "tagA", "TAG");
        assertThat(ProtocolClient.messages(tagged)).hasSize(1);
        RemotingCommand other = client.pull("g3", "real", 2, 0, 32, "tagB", "TAG");
        assertThat(ProtocolClient.messages(other)).isEmpty();
        // and it is found by key and by unique id
        var byKey = broker.store().queryMessage("real", "k2", 10, 0, Long.MAX_VALUE);
        assertThat(byKey.buffers()).hasSize(1);
        byKey.release();
        assertThat(Tags.hash("tagA")).isNotZero();
    }

    @Test
    void aDueTimeInThePastOrWithin50MsIsStoredUnderTheRealTopicAtOnce() throws Exception {
        long now = System.currentTimeMillis();
        client.sendOk("now", 0, BODY, props("past", MessageProperties.DELIVER_TIME_MS, String.valueOf(now - 10_000)));
        client.sendOk("now", 0, BODY, props("zero", MessageProperties.DELAY_MS, "0"));
        client.sendOk("now", 0, BODY, props("near", MessageProperties.DELAY_MS, "20"));
        client.sendOk("now", 0, BODY, props("level0", MessageProperties.DELAY_TIME_LEVEL, "0"));
        List<MessageExt> got = awaitMessages("now", 0, 4);
        assertThat(got).extracting(m -> m.getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID))
                .containsExactly("past", "zero", "near", "level0");
        assertThat(got).allSatisfy(m -> {
            assertThat(m.getProperty(MessageProperties.SCHEDULE_SOURCE)).isNull();
            assertThat(m.getProperty(MessageProperties.DELAY_MS)).isNull();
            assertThat(m.getProperty(MessageProperties.DELIVER_TIME_MS)).isNull();
        });
        assertThat(broker.store().getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC,
                broker.schedule().layout().timerQueueId())).isZero();
    }

    @Test
    void aSevenDayDelayIsAcceptedAndWaits() throws Exception {
        long week = 7L * 86_400_000;
        client.sendOk("later", 0, BODY, props("week", MessageProperties.DELAY_MS, String.valueOf(week)));
        await().atMost(Duration.ofSeconds(5)).until(() -> broker.schedule().timerPendingCount() == 1);
        assertThat(readQueue(client, "g", "later", 0, 0)).isEmpty();
        assertThat(broker.schedule().deliveredCount()).isZero();
        List<MessageExt> scheduled = readScheduled(broker.schedule().layout().timerQueueId());
        long due = Long.parseLong(scheduled.get(0).getProperty(MessageProperties.DELIVER_TIME_MS));
        assertThat(due - scheduled.get(0).getStoreTimestamp()).isBetween(week - 1_000, week);
    }

    @Test
    void badDelaysAreRefusedWithASentenceSayingWhatToDo() throws Exception {
        RemotingCommand tooFar = client.send("bad", 0, BODY, props("a", MessageProperties.DELAY_MS,
                String.valueOf(31L * 86_400_000)));
        assertThat(tooFar.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(tooFar.remark()).contains("timerMaxDelaySec").contains("2592000 s");

        RemotingCommand tooFarAbsolute = client.send("bad", 0, BODY, props("b", MessageProperties.DELIVER_TIME_MS,
                String.valueOf(System.currentTimeMillis() + 40L * 86_400_000)));
        assertThat(tooFarAbsolute.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);

        RemotingCommand notANumber = client.send("bad", 0, BODY, props("c", MessageProperties.DELAY_MS, "soon"));
        assertThat(notANumber.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(notANumber.remark()).contains(MessageProperties.DELAY_MS).contains("\"soon\"");

        RemotingCommand negative = client.send("bad", 0, BODY, props("d", MessageProperties.DELAY_MS, "-5"));
        assertThat(negative.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);

        RemotingCommand badLevel = client.send("bad", 0, BODY, props("e", MessageProperties.DELAY_TIME_LEVEL, "x"));
        assertThat(badLevel.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(badLevel.remark()).contains("from 1 to 10");

        RemotingCommand badTime = client.send("bad", 0, BODY, props("f", MessageProperties.DELIVER_TIME_MS, "tomorrow"));
        assertThat(badTime.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(badTime.remark()).contains("epoch milliseconds");

    }

    @Test
    void aLevelAboveTheLastIsClampedToIt() throws Exception {
        client.sendOk("clamp", 0, BODY, props("high", MessageProperties.DELAY_TIME_LEVEL, "99"));
        List<MessageExt> scheduled = readScheduled(9); // level 10 = queue 9
        assertThat(scheduled).hasSize(1);
        assertThat(scheduled.get(0).getProperty(MessageProperties.DELAY_TIME_LEVEL)).isEqualTo("10");
        awaitMessages("clamp", 0, 1);
        assertThat(broker.schedule().levelOffset(10)).isEqualTo(1);
    }

    @Test
    void aClientCannotForgeTheSchedulersSourceMark() throws Exception {
        client.sendOk("forge", 0, BODY, props("f1", MessageProperties.SCHEDULE_SOURCE, "10:5"));
        List<MessageExt> got = awaitMessages("forge", 0, 1);
        assertThat(got.get(0).getProperty(MessageProperties.SCHEDULE_SOURCE)).isNull();
    }

    @Test
    void manyLevelsAndTimerMessagesAreEachDeliveredOnce() throws Exception {
        int n = 400;
        for (int i = 0; i < n; i++) {
            long due = System.currentTimeMillis() + 200 + (i * 7919L) % 1_500;
            Map<String, String> p = i % 2 == 0
                    ? props("m" + i, MessageProperties.DELIVER_TIME_MS, String.valueOf(due))
                    : props("m" + i, MessageProperties.DELAY_TIME_LEVEL, String.valueOf(1 + i % 8));
            client.sendOk("many", i % 4, BODY, p);
        }
        await().atMost(Duration.ofSeconds(15)).until(() -> broker.schedule().deliveredCount() == n);
        List<MessageExt> all = ScheduleTestSupport.readTopic(client, "g", "many", 4);
        assertThat(all).extracting(m -> m.getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID))
                .doesNotHaveDuplicates().hasSize(n);
        assertThat(all).allSatisfy(m -> assertThat(m.getQueueId()).isEqualTo(
                Integer.parseInt(m.getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID).substring(1)) % 4));
        await().atMost(Duration.ofSeconds(5)).until(() -> broker.schedule().timerLowWater() == n / 2);
    }

    private List<MessageExt> readScheduled(int queueId) {
        List<MessageExt> out = new ArrayList<>();
        await().atMost(Duration.ofSeconds(5)).until(() ->
                broker.store().getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, queueId) > 0);
        long max = broker.store().getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, queueId);
        for (long o = 0; o < max; o++) {
            long phy = broker.store().getCommitLogOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, queueId, o);
            out.add(broker.store().readMessageAt(phy));
        }
        return out;
    }

    private List<MessageExt> awaitMessages(String topic, int queueId, int count) {
        List<MessageExt> got = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            got.clear();
            got.addAll(readQueue(client, "reader", topic, queueId, 0));
            return got.size() >= count;
        });
        return got;
    }
}

package dev.wharf.broker;

import static dev.wharf.broker.ScheduleTestSupport.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Scheduled messages across restarts: due ones delivered right after start, none delivered twice. */
class ScheduleRestartTest {

    private static final Logger log = LoggerFactory.getLogger(ScheduleRestartTest.class);
    private static final byte[] BODY = "x".getBytes(StandardCharsets.UTF_8);
    private static final String TOPIC = "restart";
    private static final int QUEUES = 4;

    @TempDir
    Path dir;
    @TempDir
    Path work;

    private Broker broker;
    private ProtocolClient client;
    private Process child;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (broker != null) {
            broker.shutdown();
        }
        if (child != null) {
            child.destroyForcibly();
        }
    }

    private Broker startBroker() throws Exception {
        broker = BrokerFixture.start(dir, s -> s.broker().schedule().setMessageDelayLevel(ScheduleTestSupport.TEST_LEVELS));
        client = new ProtocolClient(broker.address());
        return broker;
    }

    /** Sends a timer message due at {@code due}; returns its id. */
    private String sendAt(String id, long due, int queue) throws Exception {
        client.sendOk(TOPIC, queue, BODY, props(id, MessageProperties.DELIVER_TIME_MS, String.valueOf(due)));
        return id;
    }

    private Map<String, List<MessageExt>> delivered() throws Exception {
        return ScheduleTestSupport.readTopic(client, "reader", TOPIC, QUEUES).stream()
                .collect(Collectors.groupingBy(m -> m.getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID)));
    }

    private static void awaitClock(long epochMillis) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> System.currentTimeMillis() >= epochMillis);
    }

    @Test
    void aCleanRestartDeliversWhatFellDueWhileDownAndNothingTwice() throws Exception {
        startBroker();
        long t0 = System.currentTimeMillis();
        Map<String, Long> due = new HashMap<>();
        for (int i = 0; i < 30; i++) {
            // ten due before the stop, ten while the broker is down, ten after the restart
            long at = t0 + (i < 10 ? 300 : i < 20 ? 2_000 : 4_500) + 10L * i;
            due.put(sendAt("t" + i, at, i % QUEUES), at);
        }
        client.sendOk(TOPIC, 0, BODY, props("level-early", MessageProperties.DELAY_TIME_LEVEL, "3")); // 300 ms
        client.sendOk(TOPIC, 1, BODY, props("level-down", MessageProperties.DELAY_TIME_LEVEL, "10")); // 2 s
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered().size() == 11);
        assertThat(delivered().keySet()).contains("t0", "t9", "level-early").doesNotContain("t10", "level-down");
        broker.shutdown();
        client.close();
        String progress = Files.readString(dir.resolve("config").resolve("delayOffset.json"));
        assertThat(progress).contains("commitLogOffset").contains("timerLowWater");

        awaitClock(t0 + 2_500); // the middle ten and the 2 s level fall due while the broker is down
        long restart = System.currentTimeMillis();
        startBroker();
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered().size() == 32);
        Map<String, List<MessageExt>> got = delivered();
        assertThat(got.values()).allSatisfy(copies -> assertThat(copies).as("delivered once").hasSize(1));
        for (int i = 10; i < 30; i++) {
            MessageExt m = got.get("t" + i).get(0);
            assertThat(m.getStoreTimestamp()).isGreaterThanOrEqualTo(due.get("t" + i));
            long lateFrom = Math.max(due.get("t" + i), restart);
            assertThat(m.getStoreTimestamp() - lateFrom).as("t%d late after the restart", i).isLessThan(2_000);
        }
        assertThat(broker.schedule().deliveredCount()).as("only what was left").isEqualTo(21);
    }

    /**
     * Progress written every 200 ms (the restart relies on the saved offsets, the settled bitmap and a short
     * scan) or only at start (the commit-log scan alone must find every delivery).
     */
    @ParameterizedTest
    @ValueSource(ints = {200, 60_000})
    void aKilledBrokerDeliversEveryScheduledMessageExactlyOnceAfterRestart(int flushInterval) throws Exception {
        String address = startChild(flushInterval);
        client = new ProtocolClient(address);
        int timerCount = 600;
        int levelCount = 120;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < timerCount; i++) {
            ids.add(sendAt("t" + i, System.currentTimeMillis() + 1_000 + (i * 7_919L) % 3_000, i % QUEUES));
        }
        for (int i = 0; i < levelCount; i++) {
            String id = "l" + i;
            client.sendOk(TOPIC, i % QUEUES, BODY, props(id, MessageProperties.DELAY_TIME_LEVEL,
                    String.valueOf(5 + i % 6))); // 0.5 s to 2 s
            ids.add(id);
        }
        int total = ids.size();
        // kill while the scheduler is in the middle of delivering
        int[] seen = new int[1];
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
                .until(() -> (seen[0] = delivered().size()) >= total / 3);
        child.destroyForcibly();
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        int beforeKill = seen[0];
        client.close();
        client = null;
        log.info("Killed the broker with {} of {} scheduled messages delivered", beforeKill, total);

        startBroker();
        await().atMost(Duration.ofSeconds(20)).until(() -> delivered().size() == total);
        Map<String, List<MessageExt>> got = delivered();
        assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(ids);
        List<String> twice = got.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey)
                .toList();
        assertThat(twice).as("delivered more than once").isEmpty();
        assertThat(got.values().stream().mapToInt(List::size).sum()).isEqualTo(total);
        assertThat(beforeKill).isLessThan(total);
        assertThat(broker.schedule().deliveredCount()).as("the rest, delivered after the restart")
                .isLessThanOrEqualTo(total - beforeKill);
    }

    private String startChild(int flushInterval) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path addressFile = work.resolve("address");
        Path logFile = work.resolve("child.log");
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ScheduleChildBroker.class.getName(), dir.toString(), addressFile.toString(),
                String.valueOf(flushInterval));
        builder.redirectErrorStream(true);
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        child = builder.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(addressFile) || !child.isAlive());
        } catch (RuntimeException e) {
            throw new AssertionError("the child broker did not start: " + Files.readString(logFile), e);
        }
        if (!Files.exists(addressFile)) {
            throw new AssertionError("the child broker exited: " + Files.readString(logFile));
        }
        return Files.readString(addressFile).trim();
    }
}

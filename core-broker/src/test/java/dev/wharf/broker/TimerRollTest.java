package dev.wharf.broker;

import static dev.wharf.broker.ScheduleTestSupport.props;
import static dev.wharf.broker.ScheduleTestSupport.readQueue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Long timer waits are copied forward ("rolled") so commit-log clean-up never deletes a waiting message; with a
 * one-second roll interval a 3.5 s delay rolls a few times, across a restart, and is still delivered once and
 * on time.
 */
class TimerRollTest {

    @TempDir
    Path dir;

    private Broker broker;
    private ProtocolClient client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (broker != null) {
            broker.shutdown();
        }
    }

    private void startBroker() throws Exception {
        broker = BrokerFixture.start(dir, s -> s.broker().schedule().setTimerRollIntervalSec(1));
        client = new ProtocolClient(broker.address());
    }

    @Test
    void aRolledMessageIsDeliveredOnceAndOnTimeAcrossARestart() throws Exception {
        startBroker();
        long due = System.currentTimeMillis() + 3_500;
        client.sendOk("rolling", 0, "r".getBytes(StandardCharsets.UTF_8),
                props("roll-1", MessageProperties.DELIVER_TIME_MS, String.valueOf(due), "extra", "kept"));
        int timerQueue = broker.schedule().layout().timerQueueId();
        await().atMost(Duration.ofSeconds(5)).until(() -> broker.schedule().rolledCount() >= 1);
        assertThat(readQueue(client, "g", "rolling", 0, 0)).isEmpty();
        broker.shutdown();
        client.close();

        startBroker();
        await().atMost(Duration.ofSeconds(10)).until(() -> !readQueue(client, "g", "rolling", 0, 0).isEmpty());
        await().atMost(Duration.ofSeconds(3)).until(() -> broker.schedule().timerPendingCount() == 0);
        List<MessageExt> got = readQueue(client, "g", "rolling", 0, 0);
        assertThat(got).hasSize(1);
        MessageExt m = got.get(0);
        assertThat(m.getStoreTimestamp()).isGreaterThanOrEqualTo(due).isLessThan(due + 1_000);
        assertThat(m.getProperty("extra")).isEqualTo("kept");
        assertThat(m.getMsgId()).isEqualTo("roll-1");
        long copies = broker.store().getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, timerQueue);
        assertThat(copies).as("the original and at least two rolled copies").isGreaterThanOrEqualTo(3);
        assertThat(m.getProperty(MessageProperties.SCHEDULE_SOURCE)).isEqualTo(timerQueue + ":" + (copies - 1));
        await().atMost(Duration.ofSeconds(3)).until(() -> broker.schedule().timerLowWater() == copies);
    }
}

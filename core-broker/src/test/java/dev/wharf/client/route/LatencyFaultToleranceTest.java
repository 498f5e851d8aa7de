package dev.wharf.client.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.MessageQueue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LatencyFaultToleranceTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final LatencyFaultTolerance faults = new LatencyFaultTolerance(now::get);

    private static TopicPublishInfo twoBrokers() {
        List<MessageQueue> queues = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            queues.add(new MessageQueue("t", "a", i));
            queues.add(new MessageQueue("t", "b", i));
        }
        queues.sort(null);
        return new TopicPublishInfo("t", queues);
    }

    @Test
    void avoidancePeriodGrowsWithLatency() {
        assertThat(LatencyFaultTolerance.notAvailableDuration(10)).isZero();
        assertThat(LatencyFaultTolerance.notAvailableDuration(100)).isZero();
        assertThat(LatencyFaultTolerance.notAvailableDuration(600)).isEqualTo(30_000);
        assertThat(LatencyFaultTolerance.notAvailableDuration(2_500)).isEqualTo(120_000);
        assertThat(LatencyFaultTolerance.notAvailableDuration(LatencyFaultTolerance.ISOLATION_LATENCY_MILLIS))
                .isEqualTo(600_000);
    }

    @Test
    void aFailedBrokerIsSkippedUntilItsPeriodEndsOrItIsFastAgain() {
        faults.update("a", 5, true);
        assertThat(faults.isAvailable("a")).isFalse();
        assertThat(faults.isAvailable("b")).isTrue();
        TopicPublishInfo info = twoBrokers();
        for (int i = 0; i < 20; i++) {
            assertThat(info.select(null, faults).brokerName()).isEqualTo("b");
        }
        now.addAndGet(600_000);
        assertThat(faults.isAvailable("a")).isTrue();
        faults.update("a", 5, true);
        faults.update("a", 20, false);
        assertThat(faults.isAvailable("a")).as("a fast answer clears the record").isTrue();
    }

    @Test
    void whenEveryBrokerIsAvoidedTheOneAvailableSoonestIsUsed() {
        faults.update("a", 5, true);     // 10 minutes
        faults.update("b", 700, false);  // 30 seconds
        TopicPublishInfo info = twoBrokers();
        assertThat(info.select(null, faults).brokerName()).isEqualTo("b");
        assertThat(faults.leastBad()).isEqualTo("b");
    }

    @Test
    void roundRobinCoversEveryQueueAndARetryAvoidsThePreviousBroker() {
        TopicPublishInfo info = twoBrokers();
        Set<MessageQueue> seen = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            seen.add(info.select(null));
        }
        assertThat(seen).hasSize(8);
        for (int i = 0; i < 20; i++) {
            assertThat(info.select("a").brokerName()).isEqualTo("b");
            assertThat(info.select("b", faults).brokerName()).isEqualTo("a");
        }
    }

    @Test
    void aTopicOnOneBrokerStillGetsAQueueWhenThatBrokerIsToBeAvoided() {
        TopicPublishInfo info = new TopicPublishInfo("t", List.of(new MessageQueue("t", "a", 0)));
        faults.update("a", 5, true);
        assertThat(info.select("a", faults)).isEqualTo(new MessageQueue("t", "a", 0));
    }
}

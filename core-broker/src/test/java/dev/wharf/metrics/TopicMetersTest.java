package dev.wharf.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The per-topic series stay within the cap, whatever the topics. */
class TopicMetersTest {

    private static double in(SimpleMeterRegistry registry, String topic) {
        var c = registry.find("wharf.messages.in").tag("topic", topic).counter();
        return c == null ? Double.NaN : c.count();
    }

    @Test
    void topicsBeyondTheCapAreSummedAsOtherAndGroupTopicsByKind() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TopicMeters meters = new TopicMeters(registry, 2);
        meters.stored("a", 10);
        meters.stored("b", 10);
        meters.stored("c", 10);
        meters.stored("d", 10);
        meters.stored("a", 10);
        meters.stored("%RETRY%app-1", 10);
        meters.stored("%RETRY%app-2", 10);
        meters.stored("%DLQ%app-1", 10);
        meters.stored("SCHEDULE_TOPIC_XXXX", 10);
        meters.read("c", 3, 30);

        assertThat(in(registry, "a")).isEqualTo(2);
        assertThat(in(registry, "b")).isEqualTo(1);
        assertThat(in(registry, "c")).isNaN();
        assertThat(in(registry, TopicMeters.OTHER)).isEqualTo(2);
        assertThat(in(registry, "%RETRY%")).isEqualTo(2);
        assertThat(in(registry, "%DLQ%")).isEqualTo(1);
        assertThat(in(registry, "SCHEDULE_TOPIC_XXXX")).as("internal topics are few: never capped").isEqualTo(1);
        assertThat(registry.find("wharf.messages.out").tag("topic", TopicMeters.OTHER).counter().count()).isEqualTo(3);
        assertThat(registry.find("wharf.messages.in").counters()).hasSize(6);
    }

    @Test
    void aTopicsCountersAreResolvedOnce() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TopicMeters meters = new TopicMeters(registry, 10);
        assertThat(meters.of("orders")).isSameAs(meters.of("orders"));
        assertThat(meters.of("%RETRY%x")).isSameAs(meters.of("%RETRY%y"));
    }
}

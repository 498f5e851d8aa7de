package dev.wharf.broker.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.store.MessageToStore;
import org.junit.jupiter.api.Test;

/** RocketMQ's other names for a delivery time (__STARTDELIVERTIME) and a delay (TIMER_DELAY_SEC). */
class DelayAliasTest {

    private static final long NOW = 1_700_000_000_000L;
    private final DelayedMessageHook hook = new DelayedMessageHook(new ScheduleLayout(new long[] {1_000, 5_000}),
            3_600, () -> NOW);

    private static MessageToStore message(String property, String value) {
        MessageToStore msg = new MessageToStore();
        msg.setTopic("Orders");
        msg.setQueueId(2);
        msg.putProperty(property, value);
        return msg;
    }

    @Test
    void aStartDeliverTimeIsTheTimerQueuesDueTime() {
        MessageToStore msg = message(MessageProperties.START_DELIVER_TIME, String.valueOf(NOW + 7_000));
        assertThat(hook.route(msg)).isNull();
        assertThat(msg.getTopic()).isEqualTo(SystemTopics.SCHEDULE_TOPIC);
        assertThat(msg.getTagsCode()).isEqualTo(NOW + 7_000);
        assertThat(msg.getProperty(MessageProperties.DELIVER_TIME_MS)).isEqualTo(String.valueOf(NOW + 7_000));
        assertThat(msg.getProperty(MessageProperties.START_DELIVER_TIME)).isNull();
        assertThat(msg.getProperty(MessageProperties.REAL_TOPIC)).isEqualTo("Orders");
    }

    @Test
    void delaySecondsCountFromNow() {
        MessageToStore msg = message(MessageProperties.DELAY_SEC, "3");
        assertThat(hook.route(msg)).isNull();
        assertThat(msg.getTagsCode()).isEqualTo(NOW + 3_000);
        assertThat(msg.getProperty(MessageProperties.DELAY_SEC)).isNull();
    }

    @Test
    void malformedValuesAreRefusedNamingTheProperty() {
        assertThat(hook.route(message(MessageProperties.START_DELIVER_TIME, "soon")))
                .contains("__STARTDELIVERTIME", "soon", "epoch milliseconds");
        assertThat(hook.check(message(MessageProperties.DELAY_SEC, "-4"))).contains("TIMER_DELAY_SEC", "seconds");
        assertThat(hook.check(message(MessageProperties.DELAY_SEC, String.valueOf(7_200))))
                .contains("timerMaxDelaySec");
    }
}

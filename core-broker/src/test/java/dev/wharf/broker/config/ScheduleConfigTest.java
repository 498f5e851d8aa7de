package dev.wharf.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scheduled-delivery keys: delay levels with ms units, the timer's limits. */
class ScheduleConfigTest {

    @Test
    void delayLevelsAcceptMillisecondsAndEveryOtherUnit() {
        ScheduleConfig config = new ScheduleConfig();
        config.setMessageDelayLevel(" 100ms 1s  2m 1h 1d ");
        assertThat(config.delayLevelMillis()).containsExactly(100, 1_000, 120_000, 3_600_000, 86_400_000);
        assertThat(config.delayLevelCount()).isEqualTo(5);
    }

    @Test
    void badLevelsNameTheEntryAndTheForm() {
        ScheduleConfig config = new ScheduleConfig();
        for (String bad : new String[] {"10", "ms", "5x", "-1s", "0ms", "1.5s", "400d"}) {
            config.setMessageDelayLevel("1s " + bad);
            assertThatThrownBy(config::delayLevelMillis).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("\"" + bad + "\"").hasMessageContaining("level 2")
                    .hasMessageContaining("ms, s, m, h or d");
        }
        config.setMessageDelayLevel("1s ".repeat(1_001));
        assertThatThrownBy(config::delayLevelMillis).hasMessageContaining("at most 1000");
    }

    @Test
    void timerKeysBindAndValidate() {
        BrokerSettings settings = BrokerSettings.from(Map.of("messageDelayLevel", "100ms 200ms",
                "timerMaxDelaySec", "604800", "timerRollIntervalSec", "3600", "flushDelayOffsetInterval", "500"),
                "test");
        assertThat(settings.broker().schedule().getTimerMaxDelaySec()).isEqualTo(604_800);
        assertThat(settings.broker().schedule().getTimerRollIntervalSec()).isEqualTo(3_600);
        assertThat(settings.broker().schedule().getFlushDelayOffsetInterval()).isEqualTo(500);
        assertThat(new ScheduleConfig().getTimerMaxDelaySec()).as("30 days by default").isEqualTo(2_592_000);

        assertThatThrownBy(() -> BrokerSettings.from(Map.of("timerMaxDelaySec", "60"), "broker.conf"))
                .hasMessageContaining("timerMaxDelaySec is 60").hasMessageContaining("broker.conf");
        assertThatThrownBy(() -> BrokerSettings.from(Map.of("flushDelayOffsetInterval", "0"), "broker.conf"))
                .hasMessageContaining("flushDelayOffsetInterval");
    }
}

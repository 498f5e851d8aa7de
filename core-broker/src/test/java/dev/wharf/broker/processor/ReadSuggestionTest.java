package dev.wharf.broker.processor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ReadSuggestionTest {

    private final AtomicBoolean slaveReads = new AtomicBoolean(true);

    @Test
    void withSlaveReadsOffEveryBrokerSuggestsTheMaster() {
        slaveReads.set(false);
        assertThat(new ReadSuggestion(0, 1, 0, slaveReads::get, () -> 1_000).suggest(10)).isZero();
        assertThat(new ReadSuggestion(2, 1, 0, slaveReads::get, () -> 1_000).suggest(10)).isZero();
    }

    @Test
    void aMasterSendsLaggingReadsToTheSlowConsumersBrokerAndASlaveKeepsThem() {
        ReadSuggestion master = new ReadSuggestion(0, 3, 0, slaveReads::get, () -> 1_000);
        assertThat(master.suggest(10)).isEqualTo(3);
        assertThat(master.suggest(1_000)).as("caught up").isZero();
        assertThat(master.suggest(-1)).as("nothing read").isZero();
        ReadSuggestion slave = new ReadSuggestion(2, 1, 0, slaveReads::get, () -> 1_000);
        assertThat(slave.suggest(10)).isEqualTo(2);
        assertThat(slave.suggest(1_000)).as("a slave sends caught-up readers back").isZero();
    }

    @Test
    void lagIsMeasuredAgainstAShareOfPhysicalMemory() {
        // 100 % of memory: no commit log this small lags
        assertThat(new ReadSuggestion(0, 1, 100, slaveReads::get, () -> 1L << 30).suggest(0)).isZero();
    }
}

package dev.wharf.client.route;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.MessageQueue;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReadSelectorTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final ReadSelector reads = new ReadSelector(3_000, now::get);
    private final MessageQueue mq = new MessageQueue("t", "broker-a", 0);

    @Test
    void theMasterFirstThenTheSlavesByIdAndNothingForAnUnknownGroup() {
        assertThat(reads.choose(mq, Map.of(0L, "m", 2L, "s2", 1L, "s1"))).isEqualTo("m");
        assertThat(reads.choose(mq, Map.of(2L, "s2", 1L, "s1"))).isEqualTo("s1");
        assertThat(reads.choose(mq, Map.of())).isNull();
    }

    @Test
    void aSuggestedBrokerIsReadWhileItIsInTheRouteAndTheMasterSuggestionSendsReadsBack() {
        reads.suggest(mq, 2);
        assertThat(reads.choose(mq, Map.of(0L, "m", 1L, "s1", 2L, "s2"))).isEqualTo("s2");
        assertThat(reads.choose(mq, Map.of(0L, "m", 1L, "s1"))).isEqualTo("m");
        assertThat(reads.choose(new MessageQueue("t", "broker-a", 1), Map.of(0L, "m", 2L, "s2"))).isEqualTo("m");
        reads.suggest(mq, 0);
        assertThat(reads.choose(mq, Map.of(0L, "m", 2L, "s2"))).isEqualTo("m");
    }

    @Test
    void aFailedBrokerIsPassedOverForAWhileUnlessNothingElseIsLeft() {
        Map<Long, String> group = Map.of(0L, "m", 1L, "s1");
        reads.failed("m");
        assertThat(reads.choose(mq, group)).isEqualTo("s1");
        reads.failed("s1");
        assertThat(reads.choose(mq, group)).isEqualTo("m");
        now.addAndGet(3_000);
        assertThat(reads.isFailing("m")).isFalse();
        reads.failed("s1");
        reads.succeeded("s1");
        assertThat(reads.choose(mq, Map.of(1L, "s1"))).isEqualTo("s1");
    }
}

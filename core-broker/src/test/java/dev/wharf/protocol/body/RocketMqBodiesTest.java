package dev.wharf.protocol.body;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.Unsupported;
import dev.wharf.protocol.body.Stats.ConsumeStats;
import dev.wharf.protocol.body.Stats.QueueBounds;
import dev.wharf.protocol.body.Stats.QueueOffset;
import dev.wharf.protocol.body.Stats.QueueProgress;
import dev.wharf.protocol.body.Stats.ResetOffsetBody;
import dev.wharf.protocol.body.Stats.TopicStats;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RocketMqBodiesTest {

    private static final MessageQueue Q0 = new MessageQueue("T\"x", "b", 0);
    private static final MessageQueue Q1 = new MessageQueue("T\"x", "b", 1);

    private static String text(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }

    @Test
    void topicStatsAreKeyedByTheQueueObjectWithItsNameEscaped() {
        String json = text(RocketMqBodies.topicStats(new TopicStats(List.of(new QueueBounds(Q0, 1, 5, 99),
                new QueueBounds(Q1, 0, 0, 0))), 0));
        assertThat(json).isEqualTo("{\"offsetTable\":{"
                + "{\"brokerName\":\"b\",\"queueId\":0,\"topic\":\"T\\\"x\"}:"
                + "{\"lastUpdateTimestamp\":99,\"maxOffset\":5,\"minOffset\":1},"
                + "{\"brokerName\":\"b\",\"queueId\":1,\"topic\":\"T\\\"x\"}:"
                + "{\"lastUpdateTimestamp\":0,\"maxOffset\":0,\"minOffset\":0}},\"topicPutTps\":0.0}");
    }

    @Test
    void consumeStatsCarryAnOffsetWrapperPerQueue() {
        String json = text(RocketMqBodies.consumeStats(new ConsumeStats(List.of(new QueueProgress(Q0, 7, 3, 42)), 1.5)));
        assertThat(json).isEqualTo("{\"consumeTps\":1.5,\"offsetTable\":{"
                + "{\"brokerName\":\"b\",\"queueId\":0,\"topic\":\"T\\\"x\"}:"
                + "{\"brokerOffset\":7,\"consumerOffset\":3,\"lastTimestamp\":42,\"pullOffset\":3}}}");
    }

    @Test
    void aResetAnswerMapsEachQueueToItsNewOffset() {
        String json = text(RocketMqBodies.resetOffset(new ResetOffsetBody(List.of(new QueueOffset(Q0, 4)))));
        assertThat(json).isEqualTo("{\"offsetTable\":{{\"brokerName\":\"b\",\"queueId\":0,\"topic\":\"T\\\"x\"}:4}}");
        assertThat(text(RocketMqBodies.resetOffset(new ResetOffsetBody(List.of())))).isEqualTo("{\"offsetTable\":{}}");
    }

    @Test
    void anUnservedCodeNamesWharfsAlternative() {
        assertThat(Unsupported.remark(26)).contains("GET_BROKER_CONFIG", "not supported by Wharf", "broker.conf",
                "wharf admin");
        assertThat(Unsupported.remark(123_456)).contains("123456", "not supported by Wharf", "wharf admin --help");
    }
}

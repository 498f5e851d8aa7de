package dev.wharf.protocol.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.HeaderException;
import dev.wharf.protocol.header.MessageHeaders.PullMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProtocolCodecTest {

    @Test
    void headerRoundTrip() {
        SendMessageRequest h = new SendMessageRequest("pg", "orders", 8, 3, 0, 42L, 7, "a\u0001b\u0002", 0, null, false);
        Map<String, String> ext = HeaderCodec.encode(h);
        assertThat(ext).doesNotContainKey("maxReconsumeTimes").containsEntry("queueId", "3");
        assertThat(HeaderCodec.decode(ext, SendMessageRequest.class)).isEqualTo(h);
    }

    @Test
    void missingAndMalformedFieldsAreNamed() {
        assertThatThrownBy(() -> HeaderCodec.decode(Map.of("topic", "t"), PullMessageRequest.class))
                .isInstanceOf(HeaderException.class).hasMessageContaining("\"consumerGroup\"");
        Map<String, String> ext = new java.util.HashMap<>(Map.of("consumerGroup", "g", "topic", "t",
                "queueId", "x1", "queueOffset", "0", "maxMsgNums", "32", "sysFlag", "0", "commitOffset", "0",
                "suspendTimeoutMillis", "0", "subVersion", "0"));
        assertThatThrownBy(() -> HeaderCodec.decode(ext, PullMessageRequest.class))
                .isInstanceOf(HeaderException.class).hasMessageContaining("\"queueId\"").hasMessageContaining("x1");
    }

    @Test
    void jsonBodiesRoundTrip() {
        RouteData.TopicRouteData route = new RouteData.TopicRouteData(
                List.of(new RouteData.QueueData("b1", 8, 8, TopicPerm.READ | TopicPerm.WRITE, 0)),
                List.of(new RouteData.BrokerData("c", "b1", Map.of(0L, "127.0.0.1:10911"))));
        assertThat(Json.decode(Json.encode(route), RouteData.TopicRouteData.class)).isEqualTo(route);

        Heartbeat.LockBatchRequestBody lock = new Heartbeat.LockBatchRequestBody("g", "c1",
                Set.of(new MessageQueue("t", "b1", 0), new MessageQueue("t", "b1", 1)));
        assertThat(Json.decode(Json.encode(lock), Heartbeat.LockBatchRequestBody.class)).isEqualTo(lock);

        byte[] withUnknown = "{\"topicList\":[\"a\"],\"extra\":1}".getBytes();
        assertThat(Json.decode(withUnknown, RouteData.TopicList.class).topicList()).containsExactly("a");
        assertThatThrownBy(() -> Json.decode("{not json".getBytes(), RouteData.TopicList.class))
                .hasMessageContaining("TopicList");
    }

    @Test
    void batchRoundTrip() {
        Message a = new Message("t", "tagA", "k1", "one".getBytes());
        Message b = new Message("t", null, null, new byte[0]);
        b.setFlag(9);
        List<BatchMessageCodec.Entry> entries = BatchMessageCodec.decode(BatchMessageCodec.encode(List.of(a, b)));
        assertThat(entries).hasSize(2);
        assertThat(entries.get(0).body()).isEqualTo("one".getBytes());
        assertThat(entries.get(0).properties()).contains("tagA");
        assertThat(entries.get(1).flag()).isEqualTo(9);
        assertThatThrownBy(() -> BatchMessageCodec.decode(new byte[] {0, 0, 0, 50, 0, 0}))
                .hasMessageContaining("byte 0");
    }
}

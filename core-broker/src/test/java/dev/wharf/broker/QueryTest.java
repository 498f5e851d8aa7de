package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageId;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.MessageHeaders.QueryMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.QueryMessageResponse;
import dev.wharf.protocol.header.MessageHeaders.SendMessageResponse;
import dev.wharf.protocol.header.MessageHeaders.ViewMessageRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryTest {

    @TempDir
    Path dir;

    private Broker broker;
    private ProtocolClient client;

    @BeforeEach
    void start() throws Exception {
        broker = BrokerFixture.start(dir);
        client = new ProtocolClient(broker.address());
    }

    @AfterEach
    void stop() {
        client.close();
        broker.shutdown();
    }

    @Test
    void messagesAreFoundByKeyAndByUniqueId() throws Exception {
        client.sendOk("Orders", 0, "first".getBytes(StandardCharsets.UTF_8), Map.of(MessageProperties.KEYS, "order-7 x"));
        client.sendOk("Orders", 1, "second".getBytes(StandardCharsets.UTF_8), Map.of(MessageProperties.KEYS, "order-7",
                MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, "00112233445566778899AABBCCDDEEFF"));
        client.sendOk("Other", 0, "elsewhere".getBytes(StandardCharsets.UTF_8), Map.of(MessageProperties.KEYS, "order-7"));
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.store().dispatchBehindBytes() == 0
                && query("Orders", "order-7").code() == ResponseCode.SUCCESS
                && ProtocolClient.messages(query("Orders", "order-7")).size() == 2);

        RemotingCommand byKey = query("Orders", "order-7");
        List<MessageExt> found = ProtocolClient.messages(byKey);
        assertThat(found).extracting(m -> new String(m.getBody(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("first", "second");
        assertThat(HeaderCodec.decode(byKey.extFields(), QueryMessageResponse.class).indexLastUpdateTimestamp())
                .isPositive();
        assertThat(ProtocolClient.messages(query("Orders", "00112233445566778899AABBCCDDEEFF")))
                .extracting(m -> new String(m.getBody(), StandardCharsets.UTF_8)).containsExactly("second");

        RemotingCommand missing = query("Orders", "order-8");
        assertThat(missing.code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        assertThat(missing.remark()).contains("order-8", "Orders");
    }

    private RemotingCommand query(String topic, String key) throws Exception {
        return client.invoke(RequestCode.QUERY_MESSAGE, new QueryMessageRequest(topic, key, 10, 0, 0));
    }

    @Test
    void aMessageIsViewedByItsBrokerIdAndAForgedIdIsNotFound() throws Exception {
        client.sendOk("Viewed", 0, "zero".getBytes(StandardCharsets.UTF_8), Map.of());
        SendMessageResponse sent = client.sendOk("Viewed", 0, "one".getBytes(StandardCharsets.UTF_8), Map.of());
        long offset = MessageId.commitLogOffset(sent.msgId());
        RemotingCommand view = client.invoke(RequestCode.VIEW_MESSAGE_BY_ID, new ViewMessageRequest(offset));
        assertThat(view.code()).as(view.remark()).isEqualTo(ResponseCode.SUCCESS);
        List<MessageExt> messages = ProtocolClient.messages(view);
        assertThat(messages).hasSize(1);
        assertThat(messages.get(0).getBody()).isEqualTo("one".getBytes(StandardCharsets.UTF_8));
        assertThat(messages.get(0).getOffsetMsgId()).isEqualTo(sent.msgId());

        RemotingCommand forged = client.invoke(RequestCode.VIEW_MESSAGE_BY_ID, new ViewMessageRequest(offset + 3));
        assertThat(forged.code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        RemotingCommand beyond = client.invoke(RequestCode.VIEW_MESSAGE_BY_ID, new ViewMessageRequest(1L << 40));
        assertThat(beyond.code()).isEqualTo(ResponseCode.QUERY_NOT_FOUND);
        assertThat(beyond.remark()).contains(String.valueOf(1L << 40));
    }
}

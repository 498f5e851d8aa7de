package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel;
import dev.wharf.protocol.body.Heartbeat.ConsumerData;
import dev.wharf.protocol.body.Heartbeat.HeartbeatData;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.protocol.header.MessageHeaders.PullMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQL92 selectors evaluated by the broker on stored records: typed properties and JMS header identifiers. */
class SqlFilterTest {

    private static final String TOPIC = "Selected";
    private static final long BORN = 1_700_000_000_000L;

    @TempDir
    static Path dir;

    private static Broker broker;
    private static ProtocolClient client;

    @BeforeAll
    static void start() throws Exception {
        broker = BrokerFixture.start(dir);
        client = new ProtocolClient(broker.address());
        // m0: typed numbers, tag "order", priority 7, redelivered twice
        send("m0", Map.of("price", "15", "ratio", "0.25", "express", "true", "color", "red",
                MessageProperties.PROPERTY_TYPES, "price:I,ratio:D,express:Z",
                MessageProperties.TAGS, "order", "JMSPriority", "7", "JMSCorrelationID", "c-1",
                MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, "AAAABBBBCCCCDDDD0000111122223333"), 2, BORN);
        // m1: small typed price, non-persistent, default priority
        send("m1", Map.of("price", "5", "color", "blue", MessageProperties.PROPERTY_TYPES, "price:J",
                "JMSDeliveryMode", "NON_PERSISTENT"), 0, BORN + 1);
        // m2: price as untyped text (a low-level client message): it reads as a number against numbers
        send("m2", Map.of("price", "15", "color", "green"), 0, BORN + 2);
        // m3: no properties at all
        send("m3", Map.of(), 0, BORN + 3);
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.store().getMaxOffsetInQueue(TOPIC, 0) == 4);
    }

    @AfterAll
    static void stop() {
        client.close();
        broker.shutdown();
    }

    private static void send(String body, Map<String, String> props, int reconsumeTimes, long born) throws Exception {
        SendMessageRequest header = new SendMessageRequest("pg", TOPIC, 0, 0, 0, born, 0,
                MessageDecoder.encodeProperties(props), reconsumeTimes, null, false);
        RemotingCommand r = client.invoke(RequestCode.SEND_MESSAGE, header, body.getBytes(StandardCharsets.UTF_8));
        assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
    }

    private static List<String> select(String sql) throws Exception {
        RemotingCommand r = client.pull("g-sql", TOPIC, 0, 0, 32, sql, "SQL92");
        if (r.code() == ResponseCode.PULL_RETRY_IMMEDIATELY) {
            return List.of();
        }
        assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
        return ProtocolClient.messages(r).stream().map(m -> new String(m.getBody(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void typedPropertiesCompareAsTheirTypes() throws Exception {
        assertThat(select("price > 10")).containsExactly("m0", "m2");
        assertThat(select("price < 10")).containsExactly("m1");
        assertThat(select("price BETWEEN 14 AND 16")).containsExactly("m0", "m2");
        assertThat(select("color > 3")).as("text that reads as no number is incomparable").isEmpty();
        assertThat(select("price = '15'")).containsExactly("m2");
        assertThat(select("ratio < 0.5 AND express = TRUE")).containsExactly("m0");
        assertThat(select("color IN ('red', 'blue')")).containsExactly("m0", "m1");
        assertThat(select("color IS NULL")).containsExactly("m3");
    }

    @Test
    void jmsHeaderIdentifiersMapToRecordFieldsAndProperties() throws Exception {
        assertThat(select("JMSType = 'order'")).containsExactly("m0");
        assertThat(select("JMSPriority > 5")).containsExactly("m0");
        assertThat(select("JMSPriority = 4")).containsExactly("m1", "m2", "m3");
        assertThat(select("JMSDeliveryMode = 'PERSISTENT'")).containsExactly("m0", "m2", "m3");
        assertThat(select("JMSXDeliveryCount = 3")).containsExactly("m0");
        assertThat(select("JMSXDeliveryCount = 1")).containsExactly("m1", "m2", "m3");
        assertThat(select("JMSMessageID = 'ID:AAAABBBBCCCCDDDD0000111122223333'")).containsExactly("m0");
        assertThat(select("JMSTimestamp = " + (BORN + 1))).containsExactly("m1");
        assertThat(select("JMSCorrelationID = 'c-1'")).containsExactly("m0");
    }

    @Test
    void aSelectorMatchingNothingMovesTheOffsetPastTheQueue() throws Exception {
        RemotingCommand r = client.pull("g-sql", TOPIC, 0, 0, 32, "color = 'purple'", "SQL92");
        assertThat(r.code()).isEqualTo(ResponseCode.PULL_RETRY_IMMEDIATELY);
        assertThat(ProtocolClient.pullResponse(r).nextBeginOffset()).isEqualTo(4);
    }

    @Test
    void theHeartbeatSubscriptionIsUsedWhenThePullCarriesNone() throws Exception {
        SubscriptionData sub = new SubscriptionData(TOPIC, "price > 10", ConsumerModel.ExpressionType.SQL92,
                Set.of(), Set.of(), 1L);
        ConsumerData consumer = new ConsumerData("g-heartbeat", ConsumerModel.ConsumeType.CONSUME_PASSIVELY,
                ConsumerModel.MessageModel.CLUSTERING, ConsumerModel.ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET,
                Set.of(sub));
        RemotingCommand hb = client.invokeJson(RequestCode.HEART_BEAT,
                new HeartbeatData("client-1", Set.of(), Set.of(consumer)));
        assertThat(hb.code()).as(hb.remark()).isEqualTo(ResponseCode.SUCCESS);
        RemotingCommand r = client.invoke(RequestCode.PULL_MESSAGE,
                new PullMessageRequest("g-heartbeat", TOPIC, 0, 0, 32, 0, 0, 0, null, 0, null));
        assertThat(r.code()).as(r.remark()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(ProtocolClient.messages(r)).extracting(MessageExt::getBody)
                .containsExactly("m0".getBytes(StandardCharsets.UTF_8), "m2".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anEmptySelectorSelectsEverything() throws Exception {
        assertThat(select("")).containsExactly("m0", "m1", "m2", "m3");
    }
}

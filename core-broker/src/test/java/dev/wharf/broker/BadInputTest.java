package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.ZlibBombs;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BatchMessageCodec;
import dev.wharf.protocol.header.MessageHeaders.PullMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import dev.wharf.protocol.header.RouteHeaders.CreateTopicRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every bad input gets its own code and a sentence, and the broker keeps serving afterwards. */
class BadInputTest {

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
    void stop() throws Exception {
        // whatever the test sent, the broker still serves a normal send and pull
        client.sendOk("StillServing", 0, new byte[] {1}, Map.of());
        await().atMost(Duration.ofSeconds(10)).until(() ->
                client.pull("g", "StillServing", 0, 0, 1, "*", "TAG").code() == ResponseCode.SUCCESS);
        client.close();
        broker.shutdown();
    }

    @Test
    void aBadTopicNameIsIllegal() throws Exception {
        RemotingCommand r = client.send("bad topic!", 0, new byte[] {1}, Map.of());
        assertThat(r.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(r.remark()).contains("bad topic!", "position 4");
    }

    @Test
    void internalTopicsRefuseClientSends() throws Exception {
        RemotingCommand r = client.send("SCHEDULE_TOPIC_XXXX", 0, new byte[] {1}, Map.of());
        assertThat(r.code()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(r.remark()).contains("SCHEDULE_TOPIC_XXXX", "internal");
        RemotingCommand pull = client.pull("g", "RMQ_SYS_TRANS_HALF_TOPIC", 0, 0, 1, "*", "TAG");
        assertThat(pull.code()).isEqualTo(ResponseCode.NO_PERMISSION);
    }

    @Test
    void anOversizedBodyNamesItsSizeAndTheLimit() throws Exception {
        RemotingCommand r = client.send("Big", 0, new byte[300 * 1024], Map.of());
        assertThat(r.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(r.remark()).contains("307200", "262144", "maxMessageSize");
        assertThat(broker.topics().find("Big")).as("a refused message creates no topic").isNull();
    }

    @Test
    void malformedPropertiesNameTheProperty() throws Exception {
        SendMessageRequest header = new SendMessageRequest("pg", "Props", 0, 0, 0, 0L, 0,
                "good\u0001value\u0002broken\u0002", 0, null, false);
        RemotingCommand r = client.invoke(RequestCode.SEND_MESSAGE, header, new byte[] {1});
        assertThat(r.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(r.remark()).contains("\"broken\"");

        SendMessageRequest doubled = new SendMessageRequest("pg", "Props", 0, 0, 0, 0L, 0,
                "key\u0001va\u0001lue\u0002", 0, null, false);
        RemotingCommand r2 = client.invoke(RequestCode.SEND_MESSAGE, doubled, new byte[] {1});
        assertThat(r2.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(r2.remark()).contains("\"key\"");
    }

    @Test
    void oversizedPropertiesAreIllegal() throws Exception {
        RemotingCommand r = client.send("Props", 0, new byte[] {1}, Map.of("huge", "x".repeat(40_000)));
        assertThat(r.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(r.remark()).contains("32767");
    }

    @Test
    void aBadSelectorIsASubscriptionParseFailureWithItsColumn() throws Exception {
        client.sendOk("Sql", 0, new byte[] {1}, Map.of());
        RemotingCommand r = client.pull("g", "Sql", 0, 0, 1, "price > > 3", "SQL92");
        assertThat(r.code()).isEqualTo(ResponseCode.SUBSCRIPTION_PARSE_FAILED);
        assertThat(r.remark()).contains("column 9", "price > > 3");
        RemotingCommand unknownType = client.pull("g", "Sql", 0, 0, 1, "a = 1", "XPATH");
        assertThat(unknownType.code()).isEqualTo(ResponseCode.SUBSCRIPTION_PARSE_FAILED);
        assertThat(unknownType.remark()).contains("XPATH", "TAG or SQL92");
    }

    @Test
    void queueIdsOutOfRangeAreRefusedWithTheRange() throws Exception {
        client.sendOk("Range", 0, new byte[] {1}, Map.of());
        RemotingCommand send = client.send("Range", 9, new byte[] {1}, Map.of());
        assertThat(send.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(send.remark()).contains("queueId 9", "0..3");
        RemotingCommand pull = client.pull("g", "Range", 4, 0, 1, "*", "TAG");
        assertThat(pull.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(pull.remark()).contains("queueId 4");
    }

    @Test
    void missingOrMalformedHeaderFieldsAreNamed() throws Exception {
        RemotingCommand noTopic = client.invoke(ProtocolClient.request(RequestCode.SEND_MESSAGE, null)
                .putExt("producerGroup", "pg").setBody(new byte[] {1}));
        assertThat(noTopic.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(noTopic.remark()).contains("\"topic\"");
        RemotingCommand badNumber = client.invoke(ProtocolClient.request(RequestCode.PULL_MESSAGE,
                new PullMessageRequest("g", "T", 0, 0, 1, 0, 0, 0, null, 0, null)).putExt("queueOffset", "abc"));
        assertThat(badNumber.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(badNumber.remark()).contains("queueOffset", "abc");
        RemotingCommand badHeartbeat = client.invoke(ProtocolClient.request(RequestCode.HEART_BEAT, null)
                .setBody("{not json".getBytes()));
        assertThat(badHeartbeat.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(badHeartbeat.remark()).contains("HeartbeatData");
    }

    @Test
    void pullsOfUnknownTopicsAndWithoutSubscriptionAreExplained() throws Exception {
        RemotingCommand unknown = client.pull("g", "NoSuchTopic", 0, 0, 1, "*", "TAG");
        assertThat(unknown.code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(unknown.remark()).contains("NoSuchTopic");
        client.sendOk("Exists", 0, new byte[] {1}, Map.of());
        RemotingCommand noSubscription = client.invoke(RequestCode.PULL_MESSAGE,
                new PullMessageRequest("lonely", "Exists", 0, 0, 1, 0, 0, 0, null, 0, null));
        assertThat(noSubscription.code()).isEqualTo(ResponseCode.SUBSCRIPTION_NOT_EXIST);
        assertThat(noSubscription.remark()).contains("heartbeat");
    }

    @Test
    void badTopicAdministrationIsRefused() throws Exception {
        RemotingCommand tooMany = client.invoke(RequestCode.UPDATE_AND_CREATE_TOPIC,
                new CreateTopicRequest("Admin", 5000, 5000, 6, 0, false));
        assertThat(tooMany.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(tooMany.remark()).contains("1 to 1024");
        RemotingCommand internal = client.invoke(RequestCode.DELETE_TOPIC_IN_BROKER,
                new dev.wharf.protocol.header.RouteHeaders.TopicRequest("SCHEDULE_TOPIC_XXXX"));
        assertThat(internal.code()).isEqualTo(ResponseCode.NO_PERMISSION);
    }

    @Test
    void aGroupWithConsumptionDisabledCannotPull() throws Exception {
        broker.subscriptionGroups().update(new dev.wharf.broker.group.SubscriptionGroupConfig("off", false, true, 1,
                16, true));
        client.sendOk("Open", 0, new byte[] {1}, Map.of());
        RemotingCommand r = client.pull("off", "Open", 0, 0, 1, "*", "TAG");
        assertThat(r.code()).isEqualTo(ResponseCode.NO_PERMISSION);
        assertThat(r.remark()).contains("off", "consumeEnable");
    }

    @Test
    void anEmptyBatchIsIllegal() throws Exception {
        SendMessageRequest header = new SendMessageRequest("pg", "B", 0, 0, 0, 0L, 0, null, 0, null, true);
        RemotingCommand r = client.invoke(RequestCode.SEND_BATCH_MESSAGE, header, new byte[] {0, 0, 0, 3});
        assertThat(r.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(r.remark()).contains("batch");
        RemotingCommand tags = client.send("B", 0, new byte[] {1}, Map.of(MessageProperties.TAGS, "ok"));
        assertThat(tags.code()).isEqualTo(ResponseCode.SUCCESS);
    }

    @Test
    void compressedBodiesThatInflateTooFarOrNotAtAllAreIllegal() throws Exception {
        SendMessageRequest broken = new SendMessageRequest("pg", "Zip", 0, 0, MessageSysFlag.COMPRESSED, 0L, 0, null,
                0, null, false);
        RemotingCommand notZlib = client.invoke(RequestCode.SEND_MESSAGE, broken, new byte[] {1, 2, 3, 4});
        assertThat(notZlib.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(notZlib.remark()).contains("flagged compressed", "not a complete zlib stream");

        // the header's compressed flag covers every entry of a batch: each must inflate within maxMessageSize
        SendMessageRequest batch = new SendMessageRequest("pg", "Zip", 0, 0, MessageSysFlag.COMPRESSED, 0L, 0, null,
                0, null, true);
        byte[] entries = BatchMessageCodec.encode(List.of(new Message("Zip", MessageDecoder.deflate(new byte[100], 5)),
                new Message("Zip", ZlibBombs.zeros(2))));
        RemotingCommand bomb = client.invoke(RequestCode.SEND_BATCH_MESSAGE, batch, entries);
        assertThat(bomb.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
        assertThat(bomb.remark()).contains("Message 2 of the batch", "inflates to more than 262144 bytes",
                "(maxMessageSize)");
    }
}

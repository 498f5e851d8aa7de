package dev.wharf.broker;

import static dev.wharf.broker.ScheduleTestSupport.props;
import static dev.wharf.broker.ScheduleTestSupport.readQueue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.group.SubscriptionGroupConfig;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.MessageHeaders.ConsumerSendMsgBackRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CONSUMER_SEND_MSG_BACK over the wire: the retry chain through the delay levels into the dead-letter queue. */
class RetryDeadLetterTest {

    private static final String GROUP = "orders-app";
    private static final String RETRY = SystemTopics.retryTopic(GROUP);
    private static final String DLQ = SystemTopics.dlqTopic(GROUP);
    private static final byte[] BODY = "order-17".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private Broker broker;
    private ProtocolClient client;

    @BeforeEach
    void start() throws Exception {
        broker = BrokerFixture.start(dir, s -> {
            s.broker().schedule().setMessageDelayLevel("100ms 100ms 100ms 100ms 100ms 100ms 100ms 100ms");
            s.broker().setMaxReconsumeTimes(3);
        });
        client = new ProtocolClient(broker.address());
    }

    @AfterEach
    void stop() {
        client.close();
        broker.shutdown();
    }

    private RemotingCommand sendBack(MessageExt m, int delayLevel, Integer maxReconsumeTimes) throws Exception {
        return client.invoke(RequestCode.CONSUMER_SEND_MSG_BACK, new ConsumerSendMsgBackRequest(m.getCommitLogOffset(),
                GROUP, delayLevel, m.getMsgId(), m.getTopic(), maxReconsumeTimes));
    }

    /** The next message of a queue at {@code offset}, waiting for the scheduler to deliver it. */
    private MessageExt awaitAt(String topic, long offset) {
        List<MessageExt> got = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
            got.clear();
            got.addAll(readQueue(client, GROUP, topic, 0, offset));
            return !got.isEmpty();
        });
        return got.get(0);
    }

    @Test
    void aFailingMessageIsRetriedUntilTheDeadLetterQueueThenResent() throws Exception {
        client.sendOk("orders", 0, BODY, props("uid-17", MessageProperties.KEYS, "order-17",
                MessageProperties.TAGS, "new"));
        MessageExt first = awaitAt("orders", 0);
        long failedAt = System.currentTimeMillis();

        MessageExt current = first;
        for (int attempt = 1; attempt <= 3; attempt++) {
            RemotingCommand response = sendBack(current, 0, null);
            assertThat(response.code()).as(response.remark()).isEqualTo(ResponseCode.SUCCESS);
            MessageExt retry = awaitAt(RETRY, attempt - 1);
            assertThat(retry.getTopic()).isEqualTo(RETRY);
            assertThat(retry.getReconsumeTimes()).isEqualTo(attempt);
            assertThat(retry.getProperty(MessageProperties.RETRY_TOPIC)).isEqualTo("orders");
            assertThat(retry.getProperty(MessageProperties.ORIGIN_MESSAGE_ID)).isEqualTo("uid-17");
            assertThat(Long.parseLong(retry.getProperty(MessageProperties.FIRST_FAILURE_TIME)))
                    .isBetween(failedAt - 1_000, failedAt + 5_000);
            assertThat(retry.getMsgId()).as("the unique id is kept").isEqualTo("uid-17");
            assertThat(retry.getKeys()).isEqualTo("order-17");
            assertThat(retry.getTags()).isEqualTo("new");
            assertThat(retry.getBody()).isEqualTo(BODY);
            assertThat(retry.getProperty(MessageProperties.SCHEDULE_SOURCE))
                    .as("it went through delay level %d", 3 + attempt - 1).startsWith((2 + attempt - 1) + ":");
            if (attempt > 1) {
                assertThat(retry.getProperty(MessageProperties.FIRST_FAILURE_TIME))
                        .isEqualTo(current.getProperty(MessageProperties.FIRST_FAILURE_TIME));
            }
            current = retry;
        }
        TopicConfig retryTopic = broker.topics().find(RETRY);
        assertThat(retryTopic.writeQueueNums()).isEqualTo(1);

        // reconsumed 3 times = maxReconsumeTimes: the next failure dead-letters it, at once
        assertThat(sendBack(current, 0, null).code()).isEqualTo(ResponseCode.SUCCESS);
        MessageExt dead = awaitAt(DLQ, 0);
        assertThat(dead.getReconsumeTimes()).isEqualTo(4);
        assertThat(dead.getProperty(MessageProperties.RETRY_TOPIC)).isEqualTo("orders");
        assertThat(dead.getProperty(MessageProperties.ORIGIN_MESSAGE_ID)).isEqualTo("uid-17");
        assertThat(dead.getProperty(MessageProperties.SCHEDULE_SOURCE)).isNull();
        assertThat(dead.getMsgId()).isEqualTo("uid-17");
        TopicConfig dlq = broker.topics().find(DLQ);
        assertThat(dlq.writeQueueNums()).isEqualTo(1);
        assertThat(dlq.isReadable()).as("an operator can read it with an explicit pull").isTrue();
        assertThat(readQueue(client, GROUP, RETRY, 0, 3)).as("no fourth retry").isEmpty();
        assertThat(broker.schedule().levelOffset(3)).isEqualTo(1);
        assertThat(broker.schedule().levelOffset(4)).isEqualTo(1);
        assertThat(broker.schedule().levelOffset(5)).isEqualTo(1);
    }

    @Test
    void delayLevelMinusOneDeadLettersAtOnceAndAPositiveLevelIsUsed() throws Exception {
        client.sendOk("orders", 0, BODY, props("a"));
        client.sendOk("orders", 0, BODY, props("b"));
        MessageExt a = awaitAt("orders", 0);
        MessageExt b = awaitAt("orders", 1);
        assertThat(sendBack(a, -1, null).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(awaitAt(DLQ, 0).getMsgId()).isEqualTo("a");

        assertThat(sendBack(b, 7, null).code()).isEqualTo(ResponseCode.SUCCESS);
        MessageExt retried = awaitAt(RETRY, 0);
        assertThat(retried.getMsgId()).isEqualTo("b");
        assertThat(retried.getProperty(MessageProperties.SCHEDULE_SOURCE)).startsWith("6:");
    }

    @Test
    void theClientsMaxReconsumeTimesAndTheGroupsRetryMaxTimesDecide() throws Exception {
        broker.subscriptionGroups().update(new SubscriptionGroupConfig(GROUP, true, true, 1, 0, true));
        client.sendOk("orders", 0, BODY, props("group-zero"));
        client.sendOk("orders", 0, BODY, props("client-two"));
        MessageExt groupZero = awaitAt("orders", 0);
        MessageExt clientTwo = awaitAt("orders", 1);

        assertThat(sendBack(groupZero, 0, null).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(awaitAt(DLQ, 0).getMsgId()).as("the group allows no retry").isEqualTo("group-zero");

        assertThat(sendBack(clientTwo, 0, 2).code()).isEqualTo(ResponseCode.SUCCESS);
        MessageExt retry = awaitAt(RETRY, 0);
        assertThat(retry.getProperty(MessageProperties.MAX_RECONSUME_TIMES)).isEqualTo("2");
        // the property now carries the client's limit, even when the request does not
        assertThat(sendBack(retry, 0, null).code()).isEqualTo(ResponseCode.SUCCESS);
        MessageExt second = awaitAt(RETRY, 1);
        assertThat(second.getReconsumeTimes()).isEqualTo(2);
        assertThat(sendBack(second, 0, null).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(awaitAt(DLQ, 1).getMsgId()).isEqualTo("client-two");
    }

    @Test
    void badSendBacksAreAnsweredWithWhatToDo() throws Exception {
        RemotingCommand noMessage = client.invoke(RequestCode.CONSUMER_SEND_MSG_BACK,
                new ConsumerSendMsgBackRequest(987_654, GROUP, 0, null, null, null));
        assertThat(noMessage.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(noMessage.remark()).contains("987654").contains("consume the message again locally");

        RemotingCommand badGroup = client.invoke(RequestCode.CONSUMER_SEND_MSG_BACK,
                new ConsumerSendMsgBackRequest(0, "bad group!", 0, null, null, null));
        assertThat(badGroup.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);

        client.sendOk("orders", 0, BODY, props("x"));
        MessageExt x = awaitAt("orders", 0);
        RemotingCommand badLevel = sendBack(x, -7, null);
        assertThat(badLevel.code()).isEqualTo(ResponseCode.REQUEST_HEADER_INVALID);
        assertThat(badLevel.remark()).contains("-1");
    }
}

package dev.wharf.broker;

import static dev.wharf.broker.ScheduleTestSupport.props;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BrokerStatus;
import dev.wharf.protocol.body.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** GET_BROKER_STATUS tells how long the oldest scheduled and half messages have waited, and the timer's next due. */
class BrokerStatusOldestTest {

    private static final byte[] BODY = "later".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    @Timeout(30)
    void aWaitingScheduledMessageAndAnOpenHalfMessageReportTheirAge() throws Exception {
        Broker broker = BrokerFixture.start(dir, s -> {
            s.broker().schedule().setMessageDelayLevel("100ms 1h");
            s.broker().transaction().setTransactionCheckInterval(100); // check rounds read new halves into the open transactions
        });
        try (ProtocolClient client = new ProtocolClient(broker.address());
             TransactionProtocol producer = new TransactionProtocol(broker.address(), "oldest-tx-group")) {
            BrokerStatus idle = status(client);
            assertThat(idle.delayLevels()).extracting(BrokerStatus.DelayLevel::oldestAgeMillis).containsOnly(-1L);
            assertThat(idle.oldestOpenTransactionAgeMillis()).isEqualTo(-1);
            assertThat(idle.timerEarliestDue()).isEqualTo(-1);

            long sent = System.currentTimeMillis();
            client.sendOk("oldest", 0, BODY, props("level-2", MessageProperties.DELAY_TIME_LEVEL, "2"));
            long due = sent + 300_000; // inside the roll interval: the timer holds the delivery time itself
            client.sendOk("oldest", 0, BODY, props("timer", MessageProperties.DELIVER_TIME_MS, String.valueOf(due)));
            producer.sendHalfOk("oldest", 0, "tx-oldest", "undecided");

            AtomicReference<BrokerStatus> seen = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
                BrokerStatus s = status(client);
                seen.set(s);
                assertThat(s).as("%s", s).matches(x -> x.delayLevels().get(1).pending() == 1
                        && x.delayLevels().get(1).oldestAgeMillis() > 0 && x.openTransactions() == 1
                        && x.oldestOpenTransactionAgeMillis() > 0 && x.timerEarliestDue() > 0);
            });
            BrokerStatus s = seen.get();
            long bound = System.currentTimeMillis() - sent;
            assertThat(s.delayLevels().get(1).oldestAgeMillis()).isBetween(1L, bound);
            assertThat(s.delayLevels().get(0).oldestAgeMillis()).as("level 1 holds nothing").isEqualTo(-1);
            assertThat(s.oldestOpenTransactionAgeMillis()).isBetween(1L, bound);
            assertThat(s.timerEarliestDue()).isEqualTo(due);
        } finally {
            broker.shutdown();
        }
    }

    private static BrokerStatus status(ProtocolClient client) throws Exception {
        RemotingCommand response = client.invoke(ProtocolClient.request(RequestCode.GET_BROKER_STATUS, null));
        assertThat(response.code()).as(response.remark()).isEqualTo(ResponseCode.SUCCESS);
        return Json.decode(response.body(), BrokerStatus.class);
    }
}

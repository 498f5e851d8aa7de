package dev.wharf.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.processor.PutMessageHook;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BatchMessageCodec;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import dev.wharf.remoting.RemotingExecutors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hooks, processors and services that features built on the broker plug in. */
class ExtensionPointsTest {

    @TempDir
    Path dir;

    private Broker broker;
    private final ExecutorService extra = RemotingExecutors.bounded("test-extra", 1, 10);

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.shutdown();
        }
        extra.shutdownNow();
    }

    private static final String HELD = "HELD_TOPIC";
    private static final String HOLD_LEVEL = "HOLD_LEVEL";

    /** A stand-in for a feature's hook: a held message moves to another topic, its real topic kept. */
    private static final PutMessageHook HOLD = (context, msg) -> {
        String level = msg.getProperty(HOLD_LEVEL);
        if (level == null) {
            return null;
        }
        if (Integer.parseInt(level) > 18) {
            return new PutMessageHook.Refusal(ResponseCode.MESSAGE_ILLEGAL, "hold level " + level + " is above 18");
        }
        msg.putProperty(MessageProperties.REAL_TOPIC, msg.getTopic());
        msg.putProperty(MessageProperties.REAL_QUEUE_ID, String.valueOf(msg.getQueueId()));
        msg.setPropertiesString(null);
        msg.setTopic(HELD);
        msg.setQueueId(Integer.parseInt(level) - 1);
        return null;
    };

    @Test
    void hooksTransformOrRefuseMessagesBeforeTheyAreStored() throws Exception {
        List<String> services = new ArrayList<>();
        broker = new Broker(BrokerFixture.settings(dir));
        broker.addPutMessageHook(HOLD);
        broker.addService(new BrokerService() {
            @Override
            public String name() {
                return "test service";
            }

            @Override
            public void start() {
                services.add("started with store " + broker.store().getMaxPhyOffset());
            }

            @Override
            public void shutdown() {
                services.add("stopped");
            }
        });
        broker.registerProcessor(RequestCode.GET_ALL_DELAY_OFFSET, (channel, request) ->
                request.newResponse(ResponseCode.SUCCESS, "delay offsets here"), extra);
        broker.start();
        assertThat(services).containsExactly("started with store 0");

        try (ProtocolClient client = new ProtocolClient(broker.address())) {
            client.sendOk("Later", 0, new byte[] {1}, Map.of(HOLD_LEVEL, "3"));
            await().atMost(Duration.ofSeconds(10)).until(() -> broker.store().getMaxOffsetInQueue(HELD, 2) == 1);
            assertThat(broker.store().getMaxOffsetInQueue("Later", 0)).isZero();
            long phy = broker.store().getCommitLogOffsetInQueue(HELD, 2, 0);
            assertThat(broker.store().readMessageAt(phy).getProperties())
                    .containsEntry(MessageProperties.REAL_TOPIC, "Later")
                    .containsEntry(MessageProperties.REAL_QUEUE_ID, "0");

            RemotingCommand refused = client.send("Later", 0, new byte[] {1},
                    Map.of(HOLD_LEVEL, "99"));
            assertThat(refused.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
            assertThat(refused.remark()).isEqualTo("hold level 99 is above 18");

            Message delayed = new Message("Later", new byte[] {2});
            delayed.setDelayTimeLevel(1);
            RemotingCommand batch = client.invoke(RequestCode.SEND_BATCH_MESSAGE, new SendMessageRequest("pg", "Later",
                    0, 0, 0, 0L, 0, null, 0, null, true), BatchMessageCodec.encode(List.of(new Message("Later",
                    new byte[] {1}), delayed)));
            assertThat(batch.code()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL);
            assertThat(batch.remark()).contains("Message 2 of the batch", "one at a time");

            RemotingCommand custom = client.invoke(RequestCode.GET_ALL_DELAY_OFFSET, null);
            assertThat(custom.remark()).isEqualTo("delay offsets here");
        }
        broker.shutdown();
        assertThat(services).containsExactly("started with store 0", "stopped");
    }

    @Test
    void aFailingServiceStopsTheStartAndReleasesTheStore() throws Exception {
        broker = new Broker(BrokerFixture.settings(dir));
        broker.addService(new BrokerService() {
            @Override
            public String name() {
                return "broken";
            }

            @Override
            public void start() throws Exception {
                throw new java.io.IOException("cannot open its file");
            }

            @Override
            public void shutdown() {
            }
        });
        org.assertj.core.api.Assertions.assertThatThrownBy(broker::start).hasMessageContaining("cannot open its file");
        assertThat(broker.isStarted()).isFalse();
        // the store lock was released: a new broker opens the same folder
        Broker again = BrokerFixture.start(dir);
        again.shutdown();
    }
}

package dev.wharf.client.impl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.FakeBroker;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.message.Message;
import dev.wharf.namesrv.NameServer;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.MessageHeaders.SendMessageResponse;
import dev.wharf.protocol.header.TransactionHeaders.CheckTransactionStateRequest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Requests a broker sends to the client over the client's own connection, and member registration rules. */
class BrokerRequestsTest {

    private NameServer nameServer;
    private FakeBroker broker;

    @BeforeEach
    void start() {
        nameServer = NameServer.onPort(0);
        nameServer.start();
        broker = new FakeBroker("broker-a");
    }

    @AfterEach
    void stop() {
        broker.close();
        nameServer.shutdown();
    }

    private ClientConfig config(String name) {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(nameServer.address());
        config.setInstanceName(name + "-" + System.nanoTime());
        return config;
    }

    @Test
    void aCheckBackReachesTheHandlerOfTheProducerGroup() throws Exception {
        // the broker answers the send, then asks the producer about a transaction over the same connection
        broker.handle(RequestCode.SEND_MESSAGE, (channel, request) -> {
            RemotingCommand check = RemotingCommand.createRequest(RequestCode.CHECK_TRANSACTION_STATE);
            HeaderCodec.encode(new CheckTransactionStateRequest("tx-1", 4242L, "MSGID", "tx-group"))
                    .forEach(check::putExt);
            channel.invokeOneway(check.markOneway());
            RemotingCommand response = RemotingCommand.createResponse(ResponseCode.SUCCESS, null);
            HeaderCodec.encode(new SendMessageResponse("00000000000000000000000000000001", 0, 0, null))
                    .forEach(response::putExt);
            return response;
        });
        broker.registerWith(nameServer.address(), new TopicConfig("tx-topic", 1));
        Producer producer = new Producer("tx-group", config("tx"));
        producer.start();
        try {
            CompletableFuture<String> asked = new CompletableFuture<>();
            producer.clientInstance().registerTransactionCheckHandler("tx-group",
                    (brokerAddr, half, header) -> asked.complete(brokerAddr + " " + header.transactionId() + " "
                            + header.commitLogOffset()));
            producer.send(new Message("tx-topic", new byte[1]));
            assertThat(asked.get(5, TimeUnit.SECONDS)).isEqualTo(broker.address() + " tx-1 4242");
        } finally {
            producer.shutdown();
        }
    }

    @Test
    void consumerStartRefusesIncompleteSetupsBeforeAnyNetworkCall() throws Exception {
        PushConsumer noListener = new PushConsumer("g", config("c"));
        noListener.subscribe("t", "*");
        assertThatThrownBy(noListener::start).isInstanceOf(ClientException.class)
                .hasMessageContaining("registerMessageListener");
        PushConsumer noSubscription = new PushConsumer("g", config("c"));
        noSubscription.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) ->
                ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        assertThatThrownBy(noSubscription::start).hasMessageContaining("subscribe(topic");
        assertThatThrownBy(() -> noSubscription.subscribe("bad topic", "*")).hasMessageContaining("position 4");
        assertThatThrownBy(() -> noSubscription.subscribe("t", "a ||")).hasMessageContaining("empty tag");
        PushConsumer badTimeouts = new PushConsumer("g", config("c"));
        badTimeouts.subscribe("t", "*");
        badTimeouts.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) ->
                ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        badTimeouts.setConsumerTimeoutMillisWhenSuspend(1000);
        assertThatThrownBy(badTimeouts::start).hasMessageContaining("must exceed brokerSuspendMaxTimeMillis");
    }

    @Test
    void twoConsumersOfOneGroupNeedTwoInstanceNames() throws Exception {
        ClientConfig shared = config("shared");
        PushConsumer first = consumer(shared);
        first.start();
        try {
            assertThatThrownBy(() -> consumer(shared).start()).isInstanceOf(ClientException.class)
                    .hasMessageContaining("own ClientConfig.instanceName");
            PushConsumer second = consumer(config("other"));
            second.start();
            second.shutdown();
        } finally {
            first.shutdown();
        }
    }

    private static PushConsumer consumer(ClientConfig config) {
        PushConsumer consumer = new PushConsumer("same-group", config);
        consumer.subscribe("t", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) ->
                ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        return consumer;
    }
}

package dev.wharf.client.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.FakeBroker;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.namesrv.NameServer;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.HeaderCodec;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.SendMessageResponse;
import dev.wharf.remoting.RequestProcessor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The producer against a real NameServer and scripted brokers on loopback. */
class ProducerTest {

    /** One SEND_MESSAGE as a broker received it. */
    record Received(String broker, SendMessageRequest header, byte[] body) {
        Map<String, String> properties() {
            return MessageDecoder.decodeProperties(header.properties());
        }
    }

    private final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
    private final AtomicInteger failNext = new AtomicInteger();
    private final List<FakeBroker> brokers = new ArrayList<>();
    private final List<Producer> producers = new ArrayList<>();
    private NameServer nameServer;

    @BeforeEach
    void startNameServer() {
        nameServer = NameServer.onPort(0);
        nameServer.start();
    }

    @AfterEach
    void stopAll() {
        producers.forEach(Producer::shutdown);
        brokers.forEach(FakeBroker::close);
        nameServer.shutdown();
    }

    /** A broker that records sends and answers SYSTEM_BUSY while {@link #failNext} is positive. */
    private FakeBroker broker(String name, String... topics) throws Exception {
        FakeBroker broker = new FakeBroker(name).handle(RequestCode.SEND_MESSAGE, recording(name))
                .handle(RequestCode.SEND_BATCH_MESSAGE, recording(name));
        brokers.add(broker);
        TopicConfig[] configs = Arrays.stream(topics).map(t -> new TopicConfig(t, 4)).toArray(TopicConfig[]::new);
        broker.registerWith(nameServer.address(), configs);
        return broker;
    }

    private RequestProcessor recording(String name) {
        AtomicInteger offsets = new AtomicInteger();
        return (channel, request) -> {
            SendMessageRequest header = HeaderCodec.decode(request.extFields(), SendMessageRequest.class);
            received.add(new Received(name, header, request.body()));
            if (failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return RemotingCommand.createResponse(ResponseCode.SYSTEM_BUSY, "busy, try another broker");
            }
            RemotingCommand response = RemotingCommand.createResponse(ResponseCode.SUCCESS, null);
            HeaderCodec.encode(new SendMessageResponse("00000000000000000000000000000001", header.queueId(),
                    offsets.getAndIncrement(), null)).forEach(response::putExt);
            return response;
        };
    }

    private Producer producer(String namesrvAddr) throws ClientException {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(namesrvAddr);
        config.setInstanceName("producer-test-" + System.nanoTime());
        Producer producer = new Producer("pg", config);
        producer.start();
        producers.add(producer);
        return producer;
    }

    @Test
    void aFailedSendIsRetriedOnTheOtherBrokerWithTheSameUniqueId() throws Exception {
        broker("broker-a", "orders");
        broker("broker-b", "orders");
        Producer producer = producer(nameServer.address());
        failNext.set(1);
        SendResult result = producer.send(new Message("orders", "TagA", "order-1", "hello".getBytes()));

        assertThat(result.sendStatus()).isEqualTo(SendStatus.SEND_OK);
        List<Received> sends = new ArrayList<>(received);
        assertThat(sends).hasSize(2);
        assertThat(sends.get(0).broker()).isNotEqualTo(sends.get(1).broker());
        String id = sends.get(0).properties().get(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID);
        assertThat(id).hasSize(32);
        assertThat(sends.get(1).properties()).containsEntry(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, id)
                .containsEntry(MessageProperties.TAGS, "TagA").containsEntry(MessageProperties.KEYS, "order-1");
        assertThat(result.msgId()).isEqualTo(id);
        assertThat(result.messageQueue().brokerName()).isEqualTo(sends.get(1).broker());
        assertThat(sends.get(1).header().producerGroup()).isEqualTo("pg");
    }

    @Test
    void aRefusalThatAnotherBrokerWouldRepeatIsNotRetried() throws Exception {
        FakeBroker broker = new FakeBroker("broker-x");
        brokers.add(broker);
        broker.handle(RequestCode.SEND_MESSAGE, (channel, request) -> {
            received.add(new Received("broker-x", null, null));
            return RemotingCommand.createResponse(ResponseCode.MESSAGE_ILLEGAL, "The property \"x\" is bad.");
        });
        broker.registerWith(nameServer.address(), new TopicConfig("t", 2));
        Producer producer = producer(nameServer.address());
        assertThatThrownBy(() -> producer.send(new Message("t", new byte[1])))
                .isInstanceOf(ClientException.class)
                .hasMessageContaining("MESSAGE_ILLEGAL").hasMessageContaining("The property \"x\" is bad.")
                .satisfies(e -> assertThat(((ClientException) e).responseCode()).isEqualTo(ResponseCode.MESSAGE_ILLEGAL));
        assertThat(received).hasSize(1);
    }

    @Test
    void largeBodiesAreCompressedAndSmallOnesNot() throws Exception {
        broker("broker-a", "t");
        Producer producer = producer(nameServer.address());
        byte[] large = "abcdefgh".repeat(2_000).getBytes();
        producer.send(new Message("t", large));
        producer.send(new Message("t", "small".getBytes()));
        List<Received> sends = new ArrayList<>(received);
        assertThat(sends.get(0).header().sysFlag() & MessageSysFlag.COMPRESSED).isNotZero();
        assertThat(sends.get(0).body().length).isLessThan(large.length);
        assertThat(MessageDecoder.inflate(sends.get(0).body())).isEqualTo(large);
        assertThat(sends.get(1).header().sysFlag() & MessageSysFlag.COMPRESSED).isZero();
        assertThat(sends.get(1).body()).isEqualTo("small".getBytes());
    }

    @Test
    void theHashSelectorPinsAKeyToOneQueue() throws Exception {
        broker("broker-a", "t");
        broker("broker-b", "t");
        Producer producer = producer(nameServer.address());
        SelectMessageQueueByHash byHash = new SelectMessageQueueByHash();
        List<String> queues = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            SendResult r = producer.send(new Message("t", ("m" + i).getBytes()), byHash, "order-42");
            queues.add(r.messageQueue().toString());
        }
        assertThat(queues).containsOnly(queues.get(0));
        assertThat(producer.fetchPublishMessageQueues("t")).hasSize(8);
    }

    @Test
    void aBatchIsOneRequestAndEveryMessageGetsItsOwnId() throws Exception {
        broker("broker-a", "t");
        Producer producer = producer(nameServer.address());
        List<Message> batch = List.of(new Message("t", "1".getBytes()), new Message("t", "2".getBytes()));
        SendResult result = producer.send(batch);
        assertThat(received).hasSize(1);
        Received r = received.peek();
        assertThat(r.header().batch()).isTrue();
        assertThat(result.msgId().split(",")).hasSize(2)
                .containsExactly(batch.get(0).getUniqueKey(), batch.get(1).getUniqueKey());
        assertThatThrownBy(() -> producer.send(List.of(new Message("t", new byte[1]), new Message("u", new byte[1]))))
                .isInstanceOf(ClientException.class).hasMessageContaining("a batch goes to one topic");
    }

    @Test
    void asyncSendsAreBoundedAndReportThroughTheFuture() throws Exception {
        AtomicInteger held = new AtomicInteger();
        FakeBroker silent = new FakeBroker("broker-s");
        brokers.add(silent);
        silent.handle(RequestCode.SEND_MESSAGE, (channel, request) -> {
            held.incrementAndGet();
            return null; // never answers
        });
        silent.registerWith(nameServer.address(), new TopicConfig("t", 1));
        Producer producer = producer(nameServer.address());
        producer.shutdown();
        Producer bounded = new Producer("pg-bounded", producer.getClientConfig());
        bounded.setMaxInFlightAsyncRequests(2);
        bounded.setSendMsgTimeout(1000);
        bounded.setRetryTimesWhenSendAsyncFailed(0);
        bounded.start();
        producers.add(bounded);
        CompletableFuture<SendResult> a = bounded.sendAsync(new Message("t", new byte[1]));
        CompletableFuture<SendResult> b = bounded.sendAsync(new Message("t", new byte[1]));
        CompletableFuture<CompletableFuture<SendResult>> third =
                CompletableFuture.supplyAsync(() -> bounded.sendAsync(new Message("t", new byte[1])));
        // the third waits for a slot: the broker sees only two requests meanwhile
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .until(() -> held.get() == 2 && !third.isDone());
        assertThatThrownBy(a::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ClientException.class).hasMessageContaining("No answer");
        assertThatThrownBy(b::get).hasCauseInstanceOf(ClientException.class);
        // the third either got a slot when the first two timed out (and timed out itself) or gave up waiting
        assertThatThrownBy(() -> third.get().get()).hasCauseInstanceOf(ClientException.class);

        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        bounded.send(new Message("bad topic", new byte[1]), new SendCallback() {
            @Override
            public void onSuccess(SendResult r) {
                failure.complete(null);
            }

            @Override
            public void onException(Throwable e) {
                failure.complete(e);
            }
        });
        assertThat(failure.get()).isInstanceOf(ClientException.class).hasMessageContaining("bad topic");
    }

    /**
     * A master that stops answering (paused, cut off) gets one attempt per producer, which gives up after
     * sendAttemptTimeout; the sends after it are not sent to that address again but wait for a route naming another
     * master of the broker name (a failover), and go there as soon as it is registered.
     */
    @Test
    void aSilentMasterIsNotSentAgainAndTheNextMasterTakesTheSends() throws Exception {
        AtomicInteger heldBySilent = new AtomicInteger();
        FakeBroker silent = new FakeBroker("broker-a");
        brokers.add(silent);
        silent.handle(RequestCode.SEND_MESSAGE, (channel, request) -> {
            heldBySilent.incrementAndGet();
            return null; // never answers
        });
        silent.registerWith(nameServer.address(), new TopicConfig("t", 1));
        Producer producer = producer(nameServer.address());
        producer.setSendMsgTimeout(1500);
        producer.setSendAttemptTimeout(400);

        assertThatThrownBy(() -> producer.send(new Message("t", new byte[1]))).isInstanceOf(ClientException.class)
                .hasMessageContaining("left a send unanswered");
        assertThat(heldBySilent).as("one attempt, then the send waited for another master").hasValue(1);
        assertThatThrownBy(() -> producer.send(new Message("t", new byte[1]))).isInstanceOf(ClientException.class)
                .hasMessageContaining("names no other master yet");
        assertThat(heldBySilent).as("the silent master is not sent to again").hasValue(1);

        silent.close(); // the failover: the old master leaves, a new one of the same name registers
        broker("broker-a", "t");
        producer.setSendMsgTimeout(5000);
        assertThat(producer.send(new Message("t", new byte[1])).sendStatus()).isEqualTo(SendStatus.SEND_OK);
        assertThat(received).extracting(Received::broker).containsExactly("broker-a");
        assertThat(heldBySilent).hasValue(1);
    }

    @Test
    void badMessagesAreRefusedBeforeAnyNetworkCall() throws Exception {
        Producer producer = producer("127.0.0.1:1");
        producer.setMaxMessageSize(1024);
        assertThatThrownBy(() -> producer.send(new Message("a b", new byte[1])))
                .isInstanceOf(ClientException.class).hasMessageContaining("position 2");
        assertThatThrownBy(() -> producer.send(new Message("t", new byte[2048])))
                .hasMessageContaining("2048 bytes").hasMessageContaining("1024");
        assertThatThrownBy(() -> producer.send(new Message("SCHEDULE_TOPIC_XXXX", new byte[1])))
                .satisfies(e -> assertThat(((ClientException) e).responseCode()).isEqualTo(ResponseCode.NO_PERMISSION));
        Message badProperty = new Message("t", new byte[1]);
        badProperty.putProperty("k", "a\u0001b");
        assertThatThrownBy(() -> producer.send(badProperty)).hasMessageContaining("\"k\"");
        assertThatThrownBy(() -> producer.send((Message) null)).hasMessageContaining("null");
        assertThat(received).isEmpty();
    }

    @Test
    void aTopicWithoutRouteAndNoBrokerSaysWhatToCheck() throws Exception {
        Producer producer = producer(nameServer.address());
        assertThatThrownBy(() -> producer.send(new Message("nowhere", new byte[1])))
                .isInstanceOf(ClientException.class)
                .hasMessageContaining("No route for topic nowhere")
                .hasMessageContaining(nameServer.address())
                .satisfies(e -> assertThat(((ClientException) e).responseCode()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST));
    }

    @Test
    void aTopicWithoutRouteGoesToARegisteredBrokerThatMayCreateIt() throws Exception {
        broker("broker-a", "other");
        Producer producer = producer(nameServer.address());
        SendResult result = producer.send(new Message("fresh", new byte[1]));
        assertThat(result.messageQueue().brokerName()).isEqualTo("broker-a");
        assertThat(received.peek().header().queueId()).as("the broker chooses").isEqualTo(-1);
        assertThat(received.peek().header().defaultTopicQueueNums()).isEqualTo(8);
    }

    @Test
    void sendsGoOnWhenOneOfTwoNameServersDies() throws Exception {
        NameServer second = NameServer.onPort(0);
        second.start();
        try {
            FakeBroker broker = broker("broker-a", "t1", "t2");
            broker.registerWith(second.address(), new TopicConfig("t1", 4), new TopicConfig("t2", 4));
            Producer producer = producer(nameServer.address() + ";" + second.address());
            producer.send(new Message("t1", new byte[1]));
            nameServer.shutdown();
            SendResult r = producer.send(new Message("t2", new byte[1]));
            assertThat(r.sendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(received).hasSize(2);
        } finally {
            second.shutdown();
        }
    }

    @Test
    void lifecycleMisuseIsExplained() throws Exception {
        Producer producer = new Producer("pg");
        assertThatThrownBy(() -> producer.send(new Message("t", new byte[1])))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("call start()");
        ClientConfig noNameServer = new ClientConfig();
        noNameServer.setNamesrvAddr("");
        Producer nowhere = new Producer("pg", noNameServer);
        assertThatThrownBy(nowhere::start).isInstanceOf(ClientException.class)
                .hasMessageContaining("namesrvAddr");
        assertThat(new ClientConfig().getNamesrvAddr()).as("default: a local standalone server")
                .isEqualTo(System.getProperty("wharf.namesrv", ClientConfig.DEFAULT_NAMESRV_ADDR));
        Producer badGroup = new Producer("bad group", new ClientConfig());
        assertThatThrownBy(badGroup::start).hasMessageContaining("group name");
    }
}

package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.broker.Broker;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.client.consumer.PullStatus;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.namesrv.NameServer;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.protocol.body.RouteData.BrokerData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker group with a master in a child process and a slave in this JVM: routes carry both, producers go to
 * the other group while the master is dead, consumers read the slave and come back to the master with nothing
 * skipped, and offsets committed to the slave reach the master.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MasterSlaveReadTest {

    private static final Logger log = LoggerFactory.getLogger(MasterSlaveReadTest.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    @TempDir
    Path root;

    private NameServer nameServer;
    private final List<AutoCloseable> closers = new ArrayList<>();

    @BeforeEach
    void startNameServer() {
        nameServer = NameServer.onPort(0);
        nameServer.start();
    }

    @AfterEach
    void stopAll() {
        for (int i = closers.size() - 1; i >= 0; i--) {
            try {
                closers.get(i).close();
            } catch (Exception e) {
                log.warn("closing failed: {}", e.toString());
            }
        }
        nameServer.shutdown();
    }

    private <T extends AutoCloseable> T track(T closer) {
        closers.add(closer);
        return closer;
    }

    private Broker track(Broker broker) {
        closers.add(broker::shutdown);
        return broker;
    }

    private Broker broker(String dir, String name, long id) throws Exception {
        Broker b = Replicas.start(root.resolve(dir), nameServer.address(), name, id);
        track(b::shutdown);
        return b;
    }

    private Replicas.Child child(String dir, String name, long id) throws Exception {
        return track(Replicas.startChild(root.resolve(dir), nameServer.address(), name, id));
    }

    private ClientConfig clientConfig() {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(nameServer.address());
        config.setInstanceName("ha-" + INSTANCES.incrementAndGet());
        config.setPollNameServerInterval(500);
        config.setHeartbeatBrokerInterval(1_000);
        config.setPersistConsumerOffsetInterval(300);
        config.setMqClientApiTimeout(10_000); // a shared test machine can stall a disk write for seconds
        config.setClientCallbackExecutorThreads(2);
        return config;
    }

    private AdminClient admin() throws Exception {
        AdminClient admin = new AdminClient(clientConfig());
        admin.start();
        track(admin::shutdown);
        return admin;
    }

    private Producer producer() throws Exception {
        Producer producer = new Producer("ha-producer-" + INSTANCES.incrementAndGet(), clientConfig());
        producer.start();
        track(producer::shutdown);
        return producer;
    }

    private static Map<Long, String> group(AdminClient admin, String topic, String brokerName) throws Exception {
        for (BrokerData b : admin.route(topic).brokerDatas()) {
            if (b.brokerName().equals(brokerName)) {
                return new HashMap<>(b.brokerAddrs());
            }
        }
        return Map.of();
    }

    /** Sends {@code count} messages "m-from".."m-(from+count-1)"; returns the results and the bodies by id. */
    private static List<SendResult> send(Producer producer, String topic, int from, int count,
                                         Map<String, String> bodies) throws Exception {
        List<SendResult> out = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            String body = "m-" + i;
            SendResult r = producer.send(new Message(topic, body.getBytes(StandardCharsets.UTF_8)));
            assertThat(r.sendStatus()).isEqualTo(SendStatus.SEND_OK);
            bodies.put(r.msgId(), body);
            out.add(r);
        }
        return out;
    }

    @Test
    void theRouteCarriesMasterAndSlaveAndTheSlaveLearnsItsMaster() throws Exception {
        Replicas.Child master = child("a-0", "broker-a", 0);
        Broker slave = broker("a-1", "broker-a", 1);
        AdminClient admin = admin();
        admin.createTopic("HaRoute", 2, "broker-a");
        Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> group(admin, "HaRoute", "broker-a").size() == 2);

        assertThat(group(admin, "HaRoute", "broker-a")).containsExactlyInAnyOrderEntriesOf(
                Map.of(0L, master.address, 1L, slave.address()));
        assertThat(slave.replica().masterAddress()).isEqualTo(master.address);
        assertThat(slave.isSlave()).isTrue();
        // the slave copies the topic from its master
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> slave.topics().find("HaRoute") != null);
        // and replicates from the HA address the master published with its registration
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> slave.ha().slaveStatus().connected());
        assertThat(slave.ha().slaveStatus().masterAddress()).isEqualTo(slave.replica().masterHaAddress());
        assertThat(slave.ha().slaveStatus().lastRefusal()).isNull();
    }

    @Test
    void producersSkipAGroupWhoseMasterIsDeadWhileAnotherGroupExists() throws Exception {
        Replicas.Child masterA = child("a-0", "broker-a", 0);
        broker("a-1", "broker-a", 1);
        broker("b-0", "broker-b", 0);
        AdminClient admin = admin();
        admin.createTopic("HaSend", 2);
        Producer producer = producer();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                producer.fetchPublishMessageQueues("HaSend").stream().map(MessageQueue::brokerName).distinct().count() == 2);

        masterA.kill();
        // sent right away, before any route refresh: the dead group costs a retry, never a failed send
        Map<String, Integer> perBroker = new ConcurrentHashMap<>();
        for (int i = 0; i < 40; i++) {
            SendResult r = producer.send(new Message("HaSend", ("after-kill-" + i).getBytes(StandardCharsets.UTF_8)));
            assertThat(r.sendStatus()).isEqualTo(SendStatus.SEND_OK);
            perBroker.merge(r.messageQueue().brokerName(), 1, Integer::sum);
        }
        assertThat(perBroker).containsOnlyKeys("broker-b").containsEntry("broker-b", 40);
        // the route shows the group with its slave and no master, and the producer publishes to the other group only
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !group(admin, "HaSend", "broker-a").containsKey(0L));
        assertThat(group(admin, "HaSend", "broker-a")).containsOnlyKeys(1L);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                producer.fetchPublishMessageQueues("HaSend").stream().allMatch(q -> q.brokerName().equals("broker-b")));
    }

    @Test
    void consumersReadTheSlaveWhileTheMasterIsDeadAndComeBackWithNothingSkipped() throws Exception {
        String topic = "HaRead";
        Path masterDir = root.resolve("a-0");
        Replicas.Child master = child("a-0", "broker-a", 0);
        Broker slave = broker("a-1", "broker-a", 1);
        AdminClient admin = admin();
        admin.createTopic(topic, 2, "broker-a");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> slave.topics().find(topic) != null);
        Producer producer = producer();
        Map<String, String> bodies = new HashMap<>();
        List<SendResult> first = send(producer, topic, 0, 120, bodies);
        Replicas.awaitReplicated(slave, first);

        Map<String, Integer> deliveries = new ConcurrentHashMap<>();
        // first delivered after the kill: what the consumer had not pulled from the master came from the slave
        Set<String> fromSlave = ConcurrentHashMap.newKeySet();
        CountDownLatch masterKilled = new CountDownLatch(1);
        AtomicInteger consumed = new AtomicInteger();
        ClientConfig consumerConfig = clientConfig();
        PushConsumer consumer = new PushConsumer("ha-readers", consumerConfig);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setConsumeMessageBatchMaxSize(1);
        consumer.setPullBatchSize(4);
        consumer.setPullThresholdForQueue(8);
        consumer.setConsumeThreadMin(1);
        consumer.setConsumeThreadMax(1);
        consumer.setBrokerSuspendMaxTimeMillis(1_000);
        consumer.setConsumerTimeoutMillisWhenSuspend(3_000);
        consumer.setPullTimeDelayMillsWhenException(200);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                String body = new String(m.getBody(), StandardCharsets.UTF_8);
                if (deliveries.merge(body, 1, Integer::sum) == 1 && masterKilled.getCount() == 0) {
                    fromSlave.add(body);
                }
                if (consumed.incrementAndGet() == 40) {
                    try {
                        // hold consumption here until the master is dead, so the rest must come from the slave
                        if (!masterKilled.await(60, TimeUnit.SECONDS)) {
                            return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        track(consumer::shutdown);

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> consumed.get() >= 40);
        master.kill();
        masterKilled.countDown();

        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> deliveries.keySet().containsAll(bodies.values()));
        // at the kill the consumer had 40 delivered and at most pullThresholdForQueue + pullBatchSize per queue
        // pulled ahead; everything else can only have come from the slave
        assertThat(fromSlave).as("messages read from the slave while the master was dead")
                .hasSizeGreaterThanOrEqualTo(120 - 40 - 2 * (8 + 4));
        // the consumer's offsets went to the slave, which keeps them as committed there
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                slave.offsets().queryOffset("ha-readers", topic, 0) == 60
                        && slave.offsets().queryOffset("ha-readers", topic, 1) == 60);
        assertThat(slave.replica().committedOffsets().pendingCount()).isPositive();

        // the master comes back (another port); the offsets committed on the slave reach it
        Replicas.Child returned = track(Replicas.startChild(masterDir, nameServer.address(), "broker-a", 0));
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() ->
                returned.address.equals(group(admin, topic, "broker-a").get(0L)));
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> masterOffsets(admin, "ha-readers", topic)
                .values().stream().allMatch(o -> o >= 60) && masterOffsets(admin, "ha-readers", topic).size() == 2);

        // the consumer reads both queues from the returned master again (its client picks the master of the route)
        ClientInstance client = ClientInstance.acquire(consumerConfig);
        track(client::release);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() ->
                returned.address.equals(client.readAddress(new MessageQueue(topic, "broker-a", 0)))
                        && returned.address.equals(client.readAddress(new MessageQueue(topic, "broker-a", 1))));
        Map<String, String> later = new HashMap<>();
        send(producer, topic, 120, 30, later);
        bodies.putAll(later);
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> deliveries.keySet().containsAll(bodies.values()));
        assertThat(deliveries.keySet()).containsExactlyInAnyOrderElementsOf(bodies.values());
        int duplicates = deliveries.values().stream().mapToInt(n -> n - 1).sum();
        log.info("Read {} messages through the master's death and return: {} from the slave, {} duplicates",
                bodies.size(), fromSlave.size(), duplicates);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> masterOffsets(admin, "ha-readers", topic)
                .values().stream().allMatch(o -> o == 75));
    }

    private static Map<Integer, Long> masterOffsets(AdminClient admin, String group, String topic) throws Exception {
        Map<Integer, Long> out = new HashMap<>();
        admin.consumerProgress(group).stream().filter(p -> p.mq().topic().equals(topic))
                .forEach(p -> out.put(p.mq().queueId(), p.consumerOffset()));
        return out;
    }

    @Test
    void offsetsCommittedOnTheSlaveReachTheMasterWhenItReturns() throws Exception {
        String topic = "HaOffsets";
        Path masterDir = root.resolve("a-0");
        Broker master = Replicas.start(masterDir, nameServer.address(), "broker-a", 0);
        Broker slave = broker("a-1", "broker-a", 1);
        AdminClient admin = admin();
        admin.createTopic(topic, 2, "broker-a");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> slave.topics().find(topic) != null);
        Producer producer = producer();
        Map<String, String> bodies = new HashMap<>();
        send(producer, topic, 0, 20, bodies);
        Replicas.awaitReplicated(master, slave);
        master.shutdown();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !group(admin, topic, "broker-a").containsKey(0L));
        // the only group has no master: a send is refused saying so (not that the topic does not exist)
        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThatThrownBy(() -> producer.send(new Message(topic, "nowhere".getBytes(StandardCharsets.UTF_8))))
                        .isInstanceOf(ClientException.class)
                        .hasMessageContaining("served by broker group(s) broker-a, none of which has a master")
                        .satisfies(e -> assertThat(((ClientException) e).responseCode())
                                .isEqualTo(ResponseCode.SERVICE_NOT_AVAILABLE)));

        PullConsumer reader = new PullConsumer("ha-pullers", clientConfig());
        reader.start();
        MessageQueue q0 = new MessageQueue(topic, "broker-a", 0);
        Awaitility.await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            PullResult r = reader.pull(q0, null, 0, 7);
            return r.pullStatus() == PullStatus.FOUND && r.msgFoundList().size() == 7;
        });
        reader.updateConsumeOffset(q0, 7);
        reader.shutdown(); // commits the offset: to the slave, the group having no master
        assertThat(slave.offsets().queryOffset("ha-pullers", topic, 0)).isEqualTo(7);
        assertThat(slave.replica().committedOffsets().pendingCount()).isEqualTo(1);

        Broker back = Replicas.start(masterDir, nameServer.address(), "broker-a", 0);
        track(back::shutdown);
        assertThat(back.offsets().queryOffset("ha-pullers", topic, 0)).isEqualTo(-1);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                back.offsets().queryOffset("ha-pullers", topic, 0) == 7);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> slave.replica().committedOffsets().pendingCount() == 0);
        assertThat(slave.offsets().queryOffset("ha-pullers", topic, 0)).isEqualTo(7);
    }

    @Test
    void aPullAnswersSuggestionSendsLaggingReadsToTheSlaveAndBack() throws Exception {
        String topic = "HaSuggest";
        // any read not at the end lags
        Broker master = track(Replicas.start(root.resolve("a-0"), nameServer.address(), "broker-a", 0,
                s -> s.broker().slaves().setAccessMessageInMemoryMaxRatio(0)));
        Broker slave = track(Replicas.start(root.resolve("a-1"), nameServer.address(), "broker-a", 1,
                s -> s.broker().slaves().setAccessMessageInMemoryMaxRatio(0)));
        for (Broker b : new Broker[] {master, slave}) {
            b.replica().setSlaveReadEnable(() -> true);
        }
        AdminClient admin = admin();
        admin.createTopic(topic, 1, "broker-a");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> slave.topics().find(topic) != null);
        Map<String, String> bodies = new HashMap<>();
        send(producer(), topic, 0, 5, bodies);
        Replicas.awaitReplicated(master, slave);

        ClientConfig readerConfig = clientConfig();
        PullConsumer reader = new PullConsumer("ha-suggested", readerConfig);
        reader.start();
        track(reader::shutdown);
        // the reader's client instance: where it sends each pull of the queue (the commit logs, and so the messages'
        // store hosts, are the same on both brokers)
        ClientInstance client = ClientInstance.acquire(readerConfig);
        track(client::release);
        MessageQueue q0 = new MessageQueue(topic, "broker-a", 0);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            reader.fetchSubscribeMessageQueues(topic);
            return master.address().equals(client.readAddress(q0));
        });
        List<String> servedBy = new ArrayList<>();
        long offset = 0;
        while (offset < 5) {
            String pulledFrom = client.readAddress(q0);
            PullResult r = reader.pull(q0, null, offset, 1);
            assertThat(r.pullStatus()).isEqualTo(PullStatus.FOUND);
            servedBy.add(pulledFrom.equals(slave.address()) ? "slave" : "master");
            offset = r.nextBeginOffset();
        }
        // the master suggests the slave while the reader lags; the slave keeps it until it has caught up
        assertThat(servedBy).containsExactly("master", "slave", "slave", "slave", "slave");
        assertThat(reader.pull(q0, null, 5, 1).pullStatus()).isEqualTo(PullStatus.NO_NEW_MSG);
        // caught up: sent back to the master
        assertThat(client.readAddress(q0)).isEqualTo(master.address());
        send(producer(), topic, 5, 1, bodies);
        // the send is acknowledged once stored; its queue unit is dispatched just after, so poll for it
        PullResult fresh = Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> reader.pull(q0, null, 5, 1), r -> r.pullStatus() == PullStatus.FOUND);
        assertThat(new String(fresh.msgFoundList().get(0).getBody(), StandardCharsets.UTF_8)).isEqualTo("m-5");
    }
}

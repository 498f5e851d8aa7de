package dev.wharf.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.apache.rocketmq.tools.command.broker.BrokerStatusSubCommand;
import org.apache.rocketmq.tools.command.cluster.ClusterListSubCommand;
import org.apache.rocketmq.tools.command.connection.ConsumerConnectionSubCommand;
import org.apache.rocketmq.tools.command.consumer.ConsumerProgressSubCommand;
import org.apache.rocketmq.tools.command.consumer.UpdateSubGroupSubCommand;
import org.apache.rocketmq.tools.command.message.QueryMsgByIdSubCommand;
import org.apache.rocketmq.tools.command.message.QueryMsgByKeySubCommand;
import org.apache.rocketmq.tools.command.offset.ResetOffsetByTimeCommand;
import org.apache.rocketmq.tools.command.topic.DeleteTopicSubCommand;
import org.apache.rocketmq.tools.command.topic.TopicListSubCommand;
import org.apache.rocketmq.tools.command.topic.TopicRouteSubCommand;
import org.apache.rocketmq.tools.command.topic.TopicStatusSubCommand;
import org.apache.rocketmq.tools.command.topic.UpdateTopicSubCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mqadmin}'s common commands, run as its start-up class runs them, and the {@link DefaultMQAdminExt} calls
 * behind them, against one Wharf broker with a topic that a RocketMQ producer filled and a push consumer read.
 */
class AdminCompatTest {

    private static final String TOPIC = "AdminOrders";
    private static final String GROUP = "admin-cg";
    private static final int SENT = 12;

    @TempDir
    static Path dir;

    private static TestWharf servers;
    private static RocketClients clients;
    private static DefaultMQAdminExt admin;
    private static String brokerAddr;
    private static final List<SendResult> results = new ArrayList<>();
    private static final Map<String, MessageExt> consumed = new ConcurrentHashMap<>();

    @BeforeAll
    static void startServersAndTraffic() throws Exception {
        servers = WharfServers.start(dir);
        clients = new RocketClients(servers.namesrvAddr());
        DefaultMQProducer producer = clients.producer("admin-pg");
        for (int i = 0; i < SENT; i++) {
            results.add(producer.send(new Message(TOPIC, "t", "order-" + i,
                    ("order body " + i).getBytes(StandardCharsets.UTF_8))));
        }
        DefaultMQPushConsumer consumer = clients.pushConsumer(GROUP);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        // commits every second rather than every 5 s, so the tests see the group caught up sooner
        consumer.setPersistConsumerOffsetInterval(1_000);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> consumed.put(m.getKeys(), m));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> consumed.size() >= SENT);

        admin = new DefaultMQAdminExt();
        admin.setNamesrvAddr(servers.namesrvAddr());
        admin.setInstanceName("admin-" + System.nanoTime());
        admin.start();
        brokerAddr = admin.examineBrokerClusterInfo().getBrokerAddrTable().get("wharf-a").selectBrokerAddr();
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.shutdown();
        }
        if (clients != null) {
            clients.close();
        }
        servers.close();
    }

    private static String mqadmin(org.apache.rocketmq.tools.command.SubCommand command, String... args)
            throws Exception {
        return MqAdmin.run(servers.namesrvAddr(), command, args);
    }

    @Test
    void clusterListShowsTheBrokerWithItsRuntimeFigures() throws Exception {
        var cluster = admin.examineBrokerClusterInfo();
        assertThat(cluster.getClusterAddrTable()).containsKey("DefaultCluster");
        assertThat(cluster.getClusterAddrTable().get("DefaultCluster")).contains("wharf-a");

        Map<String, String> runtime = admin.fetchBrokerRuntimeStats(brokerAddr).getTable();
        assertThat(runtime).containsKeys("brokerVersionDesc", "msgPutTotalTodayNow", "putTps", "commitLogMaxOffset",
                "bootTimestamp", "earliestMessageTimeStamp", "commitLogDiskRatio");
        assertThat(Long.parseLong(runtime.get("msgPutTotalTodayNow"))).isGreaterThanOrEqualTo(SENT);

        String printed = mqadmin(new ClusterListSubCommand());
        assertThat(printed).contains("DefaultCluster").contains("wharf-a").contains(brokerAddr).contains("Wharf");
    }

    @Test
    void topicListAndTopicRouteNameTheTopicAndItsBroker() throws Exception {
        assertThat(admin.fetchAllTopicList().getTopicList()).contains(TOPIC);
        assertThat(mqadmin(new TopicListSubCommand())).contains(TOPIC);

        var route = admin.examineTopicRouteInfo(TOPIC);
        assertThat(route.getQueueDatas()).singleElement()
                .satisfies(q -> assertThat(q.getWriteQueueNums()).isEqualTo(4));
        assertThat(mqadmin(new TopicRouteSubCommand(), "-t", TOPIC)).contains("wharf-a").contains(brokerAddr);
    }

    @Test
    void topicStatusGivesEveryQueuesBounds() throws Exception {
        var stats = admin.examineTopicStats(TOPIC);
        assertThat(stats.getOffsetTable()).hasSize(4);
        long total = stats.getOffsetTable().values().stream().mapToLong(o -> o.getMaxOffset() - o.getMinOffset()).sum();
        assertThat(total).isEqualTo(SENT);
        assertThat(stats.getOffsetTable().keySet()).extracting(MessageQueue::getBrokerName).containsOnly("wharf-a");

        String printed = mqadmin(new TopicStatusSubCommand(), "-t", TOPIC);
        assertThat(printed).contains("wharf-a");
    }

    @Test
    void updateTopicCreatesAndDeleteTopicRemovesIt() throws Exception {
        mqadmin(new UpdateTopicSubCommand(), "-b", brokerAddr, "-t", "AdminMade", "-r", "3", "-w", "3");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                admin.examineTopicRouteInfo("AdminMade").getQueueDatas()).singleElement()
                .satisfies(q -> assertThat(q.getReadQueueNums()).isEqualTo(3)));
        assertThat(admin.examineTopicConfig(brokerAddr, "AdminMade").getWriteQueueNums()).isEqualTo(3);

        mqadmin(new DeleteTopicSubCommand(), "-t", "AdminMade", "-c", "DefaultCluster");
        assertThat(servers.broker().topics().find("AdminMade")).isNull();
        assertThatThrownBy(() -> admin.examineTopicRouteInfo("AdminMade")).isInstanceOf(MQClientException.class);
    }

    @Test
    void consumerProgressAndConnectionShowTheOnlineGroup() throws Exception {
        var stats = admin.examineConsumeStats(GROUP);
        Set<MessageQueue> queues = stats.getOffsetTable().keySet();
        assertThat(queues).extracting(MessageQueue::getTopic).contains(TOPIC);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(admin.examineConsumeStats(GROUP, TOPIC).computeTotalDiff()).isZero());

        var connection = admin.examineConsumerConnectionInfo(GROUP);
        assertThat(connection.getConnectionSet()).isNotEmpty();
        assertThat(connection.getSubscriptionTable()).containsKey(TOPIC);

        assertThat(mqadmin(new ConsumerProgressSubCommand(), "-g", GROUP)).contains(TOPIC).contains("wharf-a");
        assertThat(mqadmin(new ConsumerConnectionSubCommand(), "-g", GROUP)).contains(TOPIC);
    }

    @Test
    void brokerStatusPrintsTheRuntimeTable() throws Exception {
        String printed = mqadmin(new BrokerStatusSubCommand(), "-b", brokerAddr);
        assertThat(printed).contains("brokerVersionDesc").contains("msgPutTotalTodayNow").contains("Wharf");
    }

    @Test
    void queryMsgByIdFindsAMessageByItsUniqueAndItsOffsetId() throws Exception {
        SendResult sent = results.get(3);
        MessageExt byUnique = admin.viewMessage(TOPIC, sent.getMsgId());
        assertThat(new String(byUnique.getBody(), StandardCharsets.UTF_8)).isEqualTo("order body 3");
        MessageExt byOffset = admin.viewMessage(TOPIC, sent.getOffsetMsgId());
        assertThat(byOffset.getKeys()).isEqualTo("order-3");

        QueryMsgByIdSubCommand command = new QueryMsgByIdSubCommand();
        // the 4.9.x tool takes no topic (-t came with 5.x) and looks a message up by its offset id
        boolean takesTopic = command.buildCommandlineOptions(new org.apache.commons.cli.Options()).hasOption("t");
        String printed = takesTopic ? mqadmin(command, "-t", TOPIC, "-i", sent.getMsgId())
                : mqadmin(command, "-i", sent.getOffsetMsgId());
        assertThat(printed).contains("order-3");
    }

    @Test
    void queryMsgByKeyListsTheMatchingMessages() throws Exception {
        var found = admin.queryMessage(TOPIC, "order-5", 32, 0, Long.MAX_VALUE);
        assertThat(found.getMessageList()).extracting(MessageExt::getKeys).containsOnly("order-5");
        assertThat(mqadmin(new QueryMsgByKeySubCommand(), "-t", TOPIC, "-k", "order-7"))
                .contains(results.get(7).getMsgId());
    }

    @Test
    void resetOffsetByTimeMovesTheGroupBackAndTellsItsOnlineMembers() throws Exception {
        String group = "admin-reset-cg";
        DefaultMQPushConsumer consumer = clients.pushConsumer(group);
        Map<String, Integer> deliveries = new ConcurrentHashMap<>();
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPersistConsumerOffsetInterval(1_000);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> deliveries.merge(m.getKeys(), 1, Integer::sum));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> deliveries.size() >= SENT);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(admin.examineConsumeStats(group, TOPIC).computeTotalDiff()).isZero());

        String printed = mqadmin(new ResetOffsetByTimeCommand(), "-g", group, "-t", TOPIC, "-s", "0");
        assertThat(printed).contains("wharf-a");
        assertThat(admin.examineConsumeStats(group, TOPIC).computeTotalDiff()).isEqualTo(SENT);
        // the online member got RESET_CONSUMER_CLIENT_OFFSET: the RocketMQ client pauses, drops the topic's queues
        // and, 10 s later, restarts them from the new offsets (this test does not wait for that)
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.getDefaultMQPushConsumerImpl().isPause());

        Map<MessageQueue, Long> reset = admin.resetOffsetByTimestamp(TOPIC, "admin-offline-cg", 0L, true);
        assertThat(reset).hasSize(4).allSatisfy((mq, offset) -> assertThat(offset).isZero());
    }

    @Test
    void updateSubGroupStoresTheGroupsSettings() throws Exception {
        mqadmin(new UpdateSubGroupSubCommand(), "-b", brokerAddr, "-g", "admin-made-cg", "-r", "5");
        var config = admin.examineSubscriptionGroupConfig(brokerAddr, "admin-made-cg");
        assertThat(config.getRetryMaxTimes()).isEqualTo(5);
        assertThat(servers.broker().subscriptionGroups().find("admin-made-cg").retryMaxTimes()).isEqualTo(5);
    }

    @Test
    void aCommandWharfDoesNotServeIsRefusedWithTheWharfCommandToUse() {
        assertThatThrownBy(() -> admin.getBrokerConfig(brokerAddr))
                .isInstanceOfSatisfying(MQBrokerException.class, e -> {
                    assertThat(e.getResponseCode()).isEqualTo(3);
                    assertThat(e.getErrorMessage()).contains("not supported by Wharf").contains("wharf admin");
                });
    }
}

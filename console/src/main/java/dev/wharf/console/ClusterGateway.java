package dev.wharf.console;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BrokerRuntime;
import dev.wharf.protocol.body.BrokerStatus;
import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.QueueData;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.body.Stats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * The console's only way into the cluster: the admin client (and a pull consumer that reads without committing,
 * for browsing by time). Every call turns a client failure into a {@link ConsoleException} with the client's
 * sentence: 404 for what does not exist, 400 for bad input, 502 when the cluster does not answer.
 */
@Component
public class ClusterGateway implements DisposableBean {

    /** Group name of the console's reads by time: it pulls at given offsets and never commits any. */
    static final String BROWSER_GROUP = "wharf-console-browser";

    /**
     * One broker as the overview shows it; {@code status} (version, disk, scheduled and half messages) is null when
     * the broker did not answer it, and {@code error} then says why.
     */
    public record BrokerView(String cluster, String name, long id, String address, String role, long bootTimestamp,
                             long commitLogBytes, long maxOffset, long dispatchBehindBytes, long lastStoreTimestamp,
                             BrokerStatus status, String error) {
    }

    /** One topic: its queues per broker and what kind it is (user, system, retry, dlq). */
    public record TopicView(String name, String kind, int queues, List<String> brokers) {
    }

    private static final java.util.concurrent.atomic.AtomicInteger INSTANCES = new java.util.concurrent.atomic.AtomicInteger();

    private final AdminClient admin;
    private final PullConsumer browser;

    public ClusterGateway(ConsoleSettings settings) throws ClientException {
        if (settings.namesrv() == null || settings.namesrv().isBlank()) {
            throw new StartupRefusal("wharf.console.namesrv is not set.", "Start the console with --namesrv"
                    + " HOST:PORT.");
        }
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(settings.namesrv());
        // one client instance per gateway: two consoles in one JVM (tests, or two clusters) must not share one
        config.setInstanceName("wharf-console-" + ProcessHandle.current().pid() + "-" + INSTANCES.incrementAndGet());
        if (settings.clusterUser() != null && !settings.clusterUser().isBlank()) {
            if (settings.clusterPassword() == null || settings.clusterPassword().isEmpty()) {
                throw new StartupRefusal("wharf.console.cluster-user is set but not its password.", "Give the"
                        + " password as the environment variable WHARF_CONSOLE_CLUSTER_PASSWORD.");
            }
            config.withCredentials(settings.clusterUser().trim(), settings.clusterPassword());
        }
        this.admin = new AdminClient(config);
        admin.start();
        this.browser = new PullConsumer(BROWSER_GROUP, config);
        browser.start();
    }

    @Override
    public void destroy() {
        browser.shutdown();
        admin.shutdown();
    }

    @FunctionalInterface
    interface Call<T> {
        T run() throws ClientException, InterruptedException;
    }

    static <T> T call(Call<T> call) {
        try {
            return call.run();
        } catch (ClientException e) {
            int status = switch (e.responseCode()) {
                case ResponseCode.TOPIC_NOT_EXIST, ResponseCode.QUERY_NOT_FOUND, ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST
                        -> 404;
                case ResponseCode.REQUEST_HEADER_INVALID, ResponseCode.MESSAGE_ILLEGAL -> 400;
                default -> e.responseCode() < 0 ? 502 : 400;
            };
            throw new ConsoleException(status, e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConsoleException(503, "The console is stopping.", e);
        }
    }

    // ------------------------------------------------------------------ cluster and topics

    public List<BrokerView> brokers() {
        List<BrokerView> out = new ArrayList<>();
        Map<String, BrokerData> table = call(admin::clusterInfo).brokerAddrTable();
        for (BrokerData data : table.values()) {
            for (Map.Entry<Long, String> e : data.brokerAddrs().entrySet()) {
                try {
                    BrokerRuntime r = admin.brokerRuntime(e.getValue());
                    BrokerStatus status = null;
                    String error = null;
                    try {
                        status = admin.brokerStatus(e.getValue());
                    } catch (ClientException ex) {
                        error = "no version, disk or pending figures: " + ex.getMessage(); // e.g. an older broker
                    }
                    out.add(new BrokerView(data.cluster(), data.brokerName(), e.getKey(), e.getValue(), r.brokerRole(),
                            r.bootTimestamp(), Math.max(0, r.commitLogMaxOffset() - r.commitLogMinOffset()),
                            r.commitLogMaxOffset(), r.dispatchBehindBytes(), r.lastStoreTimestamp(), status, error));
                } catch (ClientException ex) {
                    out.add(new BrokerView(data.cluster(), data.brokerName(), e.getKey(), e.getValue(), null, 0, 0, 0,
                            0, 0, null, ex.getMessage()));
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new ConsoleException(503, "The console is stopping.", ex);
                }
            }
        }
        out.sort(Comparator.comparing(BrokerView::cluster).thenComparing(BrokerView::name)
                .thenComparingLong(BrokerView::id));
        return out;
    }

    public List<String> topicNames() {
        return new ArrayList<>(new TreeSet<>(call(admin::topics)));
    }

    public TopicView topic(String topic) {
        TopicRouteData route = call(() -> admin.route(topic));
        int queues = 0;
        List<String> brokers = new ArrayList<>();
        for (QueueData q : route.queueDatas()) {
            queues += q.readQueueNums();
            brokers.add(q.brokerName());
        }
        return new TopicView(topic, kindOf(topic), queues, brokers);
    }

    /**
     * What a topic is for: "retry" or "dlq" (a group's), "system" (the broker's own: scheduled delivery,
     * transaction halves, acknowledgement log, the auto-create template) or "user".
     */
    public static String kindOf(String topic) {
        if (SystemTopics.isRetryTopic(topic)) {
            return "retry";
        }
        if (SystemTopics.isDlqTopic(topic)) {
            return "dlq";
        }
        return SystemTopics.isInternal(topic) || SystemTopics.AUTO_CREATE_TOPIC_KEY.equals(topic) ? "system" : "user";
    }

    /** The topic's queues with their ends. */
    public List<MessageQueue> queues(String topic) {
        List<MessageQueue> out = new ArrayList<>();
        for (QueueData q : call(() -> admin.route(topic)).queueDatas()) {
            for (int i = 0; i < q.readQueueNums(); i++) {
                out.add(new MessageQueue(topic, q.brokerName(), i));
            }
        }
        return out;
    }

    /** Messages the topic holds now: the sum of its queues' ends (a rate is the change of this). */
    public long endOffsetSum(String topic) {
        long sum = 0;
        for (MessageQueue mq : queues(topic)) {
            sum += call(() -> admin.maxOffset(mq));
        }
        return sum;
    }

    public void createTopic(String topic, int queues) {
        call(() -> {
            admin.createTopic(topic, queues);
            return null;
        });
    }

    public void deleteTopic(String topic) {
        call(() -> admin.route(topic)); // 404 for a topic that does not exist
        call(() -> {
            admin.deleteTopic(topic);
            return null;
        });
    }

    // ------------------------------------------------------------------ groups

    /** Consumer groups: those with a retry topic (every push consumer group has one). */
    public List<String> groups() {
        List<String> out = new ArrayList<>();
        for (String topic : topicNames()) {
            if (SystemTopics.isRetryTopic(topic)) {
                out.add(topic.substring(SystemTopics.RETRY_GROUP_TOPIC_PREFIX.length()));
            }
        }
        return out;
    }

    public List<Stats.QueueProgress> progress(String group) {
        return call(() -> admin.consumerProgress(group));
    }

    public List<Stats.QueueOffset> resetOffset(String group, String topic, long timestampOrEarliestLatest) {
        call(() -> admin.route(topic));
        return call(() -> admin.resetOffset(group, topic, timestampOrEarliestLatest));
    }

    // ------------------------------------------------------------------ messages

    public List<MessageExt> byKey(String topic, String key, int max) {
        return call(() -> admin.queryByKey(topic, key, max, 0, Long.MAX_VALUE));
    }

    public MessageExt byOffsetId(String offsetMsgId) {
        return call(() -> admin.viewMessage(offsetMsgId));
    }

    /** Messages of the topic stored between two times (epoch ms), oldest first per queue, at most {@code max}. */
    public List<MessageExt> byTime(String topic, long from, long to, int max) {
        List<MessageExt> out = new ArrayList<>();
        for (MessageQueue mq : queues(topic)) {
            long offset = call(() -> browser.searchOffset(mq, from));
            while (out.size() < max) {
                long at = offset;
                PullResult result = call(() -> browser.pull(mq, MessageSelector.all(), at, Math.min(32, max - out.size())));
                if (result.msgFoundList() == null || result.msgFoundList().isEmpty()) {
                    break;
                }
                boolean past = false;
                for (MessageExt m : result.msgFoundList()) {
                    if (m.getStoreTimestamp() > to) {
                        past = true;
                        break;
                    }
                    if (m.getStoreTimestamp() >= from && out.size() < max) {
                        out.add(m);
                    }
                }
                if (past || result.nextBeginOffset() <= offset) {
                    break;
                }
                offset = result.nextBeginOffset();
            }
        }
        out.sort(Comparator.comparingLong(MessageExt::getStoreTimestamp));
        return out;
    }

    // ------------------------------------------------------------------ dead letters

    public List<MessageExt> deadLetters(String group, int max) {
        return call(() -> admin.dlqMessages(group, max));
    }

    public int resend(String group, String msgIdOrNullForAll) {
        return call(() -> admin.dlqResend(group, msgIdOrNullForAll));
    }
}

package dev.wharf.client.admin;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.route.TopicRoutes;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageId;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.BrokerRuntime;
import dev.wharf.protocol.body.BrokerStatus;
import dev.wharf.protocol.body.RouteData.BrokerData;
import dev.wharf.protocol.body.RouteData.ClusterInfo;
import dev.wharf.protocol.body.RouteData.QueueData;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.body.Stats;
import dev.wharf.protocol.body.TopicPerm;
import dev.wharf.protocol.header.MessageHeaders.QueryMessageRequest;
import dev.wharf.protocol.header.OffsetHeaders.ResetOffsetRequest;
import dev.wharf.protocol.header.RouteHeaders.CreateTopicRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Administration of a Wharf cluster through its NameServers and brokers; used by the admin CLI and tests.
 * Thread-safe after {@link #start()}.
 */
public class AdminClient {

    /** For {@link #resetOffset}: the first offset still stored. */
    public static final long EARLIEST = ResetOffsetRequest.EARLIEST;
    /** For {@link #resetOffset}: the end of each queue (skip everything not consumed yet). */
    public static final long LATEST = ResetOffsetRequest.LATEST;

    private final ClientConfig config;
    private volatile ClientInstance instance;

    public AdminClient(ClientConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    public synchronized void start() throws ClientException {
        if (instance == null) {
            instance = ClientInstance.acquire(config);
        }
    }

    public synchronized void shutdown() {
        if (instance != null) {
            instance.release();
            instance = null;
        }
    }

    // ------------------------------------------------------------------ topics and cluster

    /** Creates (or updates) the topic with {@code queueNums} read and write queues on every master broker. */
    public void createTopic(String topic, int queueNums) throws ClientException, InterruptedException {
        createTopic(topic, queueNums, null);
    }

    /**
     * Creates (or updates) the topic on the masters of a cluster, or on one broker; null means every master.
     * The brokers register the topic with the NameServers at once; a producer sees it at its next route fetch.
     *
     * @throws ClientException when the name is invalid, no such cluster or broker is registered, or a broker refuses
     */
    public void createTopic(String topic, int queueNums, String clusterOrBrokerName)
            throws ClientException, InterruptedException {
        checkTopic(topic);
        if (queueNums < 1 || queueNums > 1024) {
            throw new ClientException(ResponseCode.REQUEST_HEADER_INVALID, "queueNums must be 1..1024, got "
                    + queueNums + ".");
        }
        Map<String, String> masters = masters(clusterOrBrokerName);
        CreateTopicRequest header = new CreateTopicRequest(topic, queueNums, queueNums,
                TopicPerm.READ | TopicPerm.WRITE, 0, false);
        for (String address : masters.values()) {
            started().adminApi().createTopic(address, header, started().apiTimeoutMillis());
        }
    }

    /** Deletes the topic from every broker that serves it and from every NameServer. */
    public void deleteTopic(String topic) throws ClientException, InterruptedException {
        checkTopic(topic);
        ClientInstance current = started();
        TopicRouteData route = current.nameServer().route(topic);
        Map<String, String> targets = route == null ? masters(null) : brokersOf(route);
        for (String address : targets.values()) {
            current.adminApi().deleteTopic(address, topic, current.apiTimeoutMillis());
        }
        current.nameServer().deleteTopic(topic);
    }

    /** Every topic the NameServers know. */
    public Set<String> topics() throws ClientException, InterruptedException {
        return started().nameServer().topics();
    }

    public ClusterInfo clusterInfo() throws ClientException, InterruptedException {
        return started().nameServer().clusterInfo();
    }

    /** A broker's identity and commit-log figures (GET_BROKER_RUNTIME_INFO). */
    public BrokerRuntime brokerRuntime(String address) throws ClientException, InterruptedException {
        ClientInstance current = started();
        return current.adminApi().runtime(address, current.apiTimeoutMillis());
    }

    /** A broker's version, disk use and thresholds, pending scheduled and half messages (GET_BROKER_STATUS). */
    public BrokerStatus brokerStatus(String address) throws ClientException, InterruptedException {
        ClientInstance current = started();
        return current.adminApi().status(address, current.apiTimeoutMillis());
    }

    /** Every broker group's master, slaves and each slave's replication lag. */
    public List<ReplicaGroups.Group> replicaGroups() throws ClientException, InterruptedException {
        return ReplicaGroups.collect(clusterInfo(), this::brokerRuntime);
    }

    /** @throws ClientException (TOPIC_NOT_EXIST) when no NameServer knows the topic */
    public TopicRouteData route(String topic) throws ClientException, InterruptedException {
        checkTopic(topic);
        TopicRouteData route = started().nameServer().route(topic);
        if (route == null) {
            throw new ClientException(ResponseCode.TOPIC_NOT_EXIST, "No route for topic " + topic + ": is the topic "
                    + "created and a broker registered with the NameServer at " + config.getNamesrvAddr() + "?");
        }
        return route;
    }

    // ------------------------------------------------------------------ consumers

    /** Per queue of every broker: the queue's end, the group's offset and the lag, sorted by queue. */
    public List<Stats.QueueProgress> consumerProgress(String group) throws ClientException, InterruptedException {
        checkGroup(group);
        ClientInstance current = started();
        List<Stats.QueueProgress> out = new ArrayList<>();
        for (String address : masters(null).values()) {
            Stats.ConsumeStats stats = current.offsetApi().consumeStats(address, group, null, current.apiTimeoutMillis());
            if (stats.offsetTable() != null) {
                out.addAll(stats.offsetTable());
            }
        }
        out.sort(Comparator.comparing(Stats.QueueProgress::mq));
        return out;
    }

    /**
     * Moves the group's offsets of the topic on every broker that serves it: {@link #EARLIEST}, {@link #LATEST}
     * or the first message stored at or after a time (epoch ms). Online members drop what they hold of the topic
     * and continue from the new offsets.
     *
     * @return the new offsets
     */
    public List<Stats.QueueOffset> resetOffset(String group, String topic, long timestampOrEarliestLatest)
            throws ClientException, InterruptedException {
        checkGroup(group);
        ClientInstance current = started();
        List<Stats.QueueOffset> out = new ArrayList<>();
        for (String address : brokersOf(route(topic)).values()) {
            out.addAll(current.offsetApi().resetOffset(address, new ResetOffsetRequest(topic, group,
                    timestampOrEarliestLatest, true), current.apiTimeoutMillis()));
        }
        out.sort(Comparator.comparing(Stats.QueueOffset::mq));
        return out;
    }

    // ------------------------------------------------------------------ messages

    /**
     * Messages of the topic indexed under {@code key} (a KEYS entry or the producer's unique id) stored between
     * {@code begin} and {@code end} (epoch ms), newest first, at most {@code maxNum}.
     */
    public List<MessageExt> queryByKey(String topic, String key, int maxNum, long begin, long end)
            throws ClientException, InterruptedException {
        checkTopic(topic);
        if (key == null || key.isBlank()) {
            throw new ClientException(ResponseCode.REQUEST_HEADER_INVALID, "The key is empty; give a message key "
                    + "or a message id.");
        }
        if (maxNum < 1) {
            throw new ClientException(ResponseCode.REQUEST_HEADER_INVALID, "maxNum must be at least 1, got " + maxNum);
        }
        ClientInstance current = started();
        List<MessageExt> out = new ArrayList<>();
        for (Map.Entry<String, String> broker : brokersOf(route(topic)).entrySet()) {
            for (MessageExt msg : current.messageApi().queryMessage(broker.getValue(),
                    new QueryMessageRequest(topic, key, maxNum, begin, end), current.apiTimeoutMillis())) {
                if (hasKey(msg, key)) {
                    msg.setBrokerName(broker.getKey());
                    out.add(msg);
                }
            }
        }
        out.sort(Comparator.comparingLong(MessageExt::getStoreTimestamp).reversed());
        return out.size() > maxNum ? new ArrayList<>(out.subList(0, maxNum)) : out;
    }

    /** The index returns hash matches; keep the messages that really carry the key. */
    private static boolean hasKey(MessageExt msg, String key) {
        if (key.equals(msg.getUniqueKey())) {
            return true;
        }
        String keys = msg.getProperty(MessageProperties.KEYS);
        return keys != null && Arrays.asList(keys.split(" ")).contains(key);
    }

    /**
     * The message with this broker message id ({@code SendResult.offsetMsgId}), read from the broker the id names.
     * For a producer's unique id ({@code SendResult.msgId}) use {@link #queryByKey}.
     */
    public MessageExt viewMessage(String msgId) throws ClientException, InterruptedException {
        if (!MessageId.isValid(msgId)) {
            throw new ClientException(ResponseCode.REQUEST_HEADER_INVALID, "\"" + msgId + "\" is not a message id: "
                    + "expected " + MessageId.LENGTH + " hexadecimal characters (as printed by send or query).");
        }
        ClientInstance current = started();
        String address = HostAddress.toString(MessageId.storeHost(msgId));
        String brokerName = brokerAt(address);
        if (brokerName == null) {
            throw new ClientException(ResponseCode.QUERY_NOT_FOUND, "The id " + msgId + " names broker address "
                    + address + ", where no registered broker listens. If it is a producer's message id "
                    + "(SendResult.msgId), find the message with queryByKey(topic, id, ...).");
        }
        MessageExt msg = current.messageApi().viewMessage(address, MessageId.commitLogOffset(msgId),
                current.apiTimeoutMillis());
        msg.setBrokerName(brokerName);
        return msg;
    }

    // ------------------------------------------------------------------ dead letters

    /**
     * Messages waiting in the group's dead-letter queue ({@code %DLQ%group}) that were neither resent nor consumed
     * (as the queue {@code %DLQ%group}), oldest first within each queue, at most {@code max}. Empty when nothing was ever dead-lettered for the group.
     */
    public List<MessageExt> dlqMessages(String group, int max) throws ClientException, InterruptedException {
        checkGroup(group);
        if (max < 1) {
            throw new ClientException(ResponseCode.REQUEST_HEADER_INVALID, "max must be at least 1, got " + max + ".");
        }
        return new DeadLetterQueue(started(), config, group).list(max);
    }

    /**
     * Sends dead letters of the group back to the topic each was first sent to (RETRY_TOPIC), as new messages
     * with the same unique id and properties and a fresh retry count: every waiting one ({@code msgId} null), or
     * those with this id (producer's unique id, broker message id, or original message id). A resent message is
     * acknowledged on the dead-letter queue (read as a queue whose group is its own name), so
     * {@link #dlqMessages} no longer lists it.
     *
     * @return how many messages were resent (0 when none has that id)
     * @throws ClientException when a message cannot be resent (its topic is gone, a broker refuses); the ones
     *                         before it are resent
     */
    public int dlqResend(String group, String msgIdOrNullForAll) throws ClientException, InterruptedException {
        checkGroup(group);
        if (msgIdOrNullForAll != null && msgIdOrNullForAll.isBlank()) {
            throw new ClientException(ResponseCode.REQUEST_HEADER_INVALID, "The message id is blank; give the id"
                    + " printed by dlq-list, or null to resend every waiting message.");
        }
        return new DeadLetterQueue(started(), config, group).resend(msgIdOrNullForAll);
    }

    public long maxOffset(MessageQueue mq) throws ClientException, InterruptedException {
        ClientInstance current = started();
        return current.offsetApi().maxOffset(current.requireMasterAddress(mq.brokerName(), mq.topic()), mq.topic(),
                mq.queueId(), current.apiTimeoutMillis());
    }

    public long minOffset(MessageQueue mq) throws ClientException, InterruptedException {
        ClientInstance current = started();
        return current.offsetApi().minOffset(current.requireMasterAddress(mq.brokerName(), mq.topic()), mq.topic(),
                mq.queueId(), current.apiTimeoutMillis());
    }

    // ------------------------------------------------------------------ helpers

    /** brokerName -> master address of a cluster's masters, one broker, or (null) every master. */
    private Map<String, String> masters(String clusterOrBrokerName) throws ClientException, InterruptedException {
        ClusterInfo cluster = started().nameServer().clusterInfo();
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, BrokerData> brokers = cluster.brokerAddrTable() == null ? Map.of() : cluster.brokerAddrTable();
        Set<String> names;
        if (clusterOrBrokerName == null) {
            names = brokers.keySet();
        } else if (cluster.clusterAddrTable() != null && cluster.clusterAddrTable().containsKey(clusterOrBrokerName)) {
            names = cluster.clusterAddrTable().get(clusterOrBrokerName);
        } else if (brokers.containsKey(clusterOrBrokerName)) {
            names = Set.of(clusterOrBrokerName);
        } else {
            throw new ClientException(ResponseCode.SYSTEM_ERROR, "No cluster or broker named \"" + clusterOrBrokerName
                    + "\" is registered with the NameServer at " + config.getNamesrvAddr() + "; registered clusters: "
                    + (cluster.clusterAddrTable() == null ? "none" : cluster.clusterAddrTable().keySet())
                    + ", brokers: " + brokers.keySet() + ".");
        }
        for (String name : names) {
            BrokerData data = brokers.get(name);
            String master = data == null || data.brokerAddrs() == null ? null : data.brokerAddrs().get(0L);
            if (master != null) {
                out.put(name, master);
            }
        }
        if (out.isEmpty()) {
            throw new ClientException(ResponseCode.SYSTEM_ERROR, "No master broker is registered with the NameServer "
                    + "at " + config.getNamesrvAddr() + (clusterOrBrokerName == null ? "" : " for "
                    + clusterOrBrokerName) + "; start a broker with namesrvAddr pointing there.");
        }
        return out;
    }

    private static Map<String, String> brokersOf(TopicRouteData route) {
        Map<String, String> out = new LinkedHashMap<>();
        if (route.queueDatas() != null) {
            for (QueueData q : route.queueDatas()) {
                String address = TopicRoutes.masterAddress(route, q.brokerName());
                if (address != null) {
                    out.put(q.brokerName(), address);
                }
            }
        }
        return out;
    }

    private String brokerAt(String address) throws ClientException, InterruptedException {
        ClusterInfo cluster = started().nameServer().clusterInfo();
        if (cluster.brokerAddrTable() != null) {
            for (BrokerData data : cluster.brokerAddrTable().values()) {
                if (data.brokerAddrs() != null && data.brokerAddrs().containsValue(address)) {
                    return data.brokerName();
                }
            }
        }
        return null;
    }

    private ClientInstance started() {
        ClientInstance current = instance;
        if (current == null) {
            throw new IllegalStateException("AdminClient is not started; call start() first");
        }
        return current;
    }

    private static void checkTopic(String topic) throws ClientException {
        String error = TopicValidator.check(topic);
        if (error != null) {
            throw new ClientException(ResponseCode.REQUEST_HEADER_INVALID, error);
        }
        if (SystemTopics.isInternal(topic)) {
            throw new ClientException(ResponseCode.NO_PERMISSION, "The topic " + topic + " is internal to the broker "
                    + "and cannot be administered.");
        }
    }

    private static void checkGroup(String group) throws ClientException {
        String error = TopicValidator.checkGroup(group);
        if (error != null) {
            throw new ClientException(ResponseCode.REQUEST_HEADER_INVALID, error);
        }
    }
}

package dev.wharf.client.admin;

import dev.wharf.client.ClientException;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.impl.OffsetApi;
import dev.wharf.client.impl.PullReply;
import dev.wharf.client.impl.Subscriptions;
import dev.wharf.client.route.TopicRoutes;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.RouteData.QueueData;
import dev.wharf.protocol.body.RouteData.TopicRouteData;
import dev.wharf.protocol.body.TopicPerm;
import dev.wharf.protocol.header.MessageHeaders.PullMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.PullSysFlag;
import dev.wharf.protocol.header.MessageHeaders.SendMessageRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A consumer group's dead-letter queue ({@code %DLQ%{group}}) as operators see it: the messages waiting there,
 * and resending them to the topic they were first sent to.
 *
 * <p>What was resent is remembered as the group's consumer offset on the dead-letter topic (so the group's
 * consume progress shows the dead letters nobody looked at as lag): listing starts there, and resending
 * everything moves it to the end. A message resent by its id moves it only when it is the first one waiting;
 * otherwise it stays listed (and a later resend of everything sends it again).
 */
final class DeadLetterQueue {

    /** Producer group named in resends. */
    static final String RESEND_PRODUCER_GROUP = "WHARF_DLQ_RESEND";
    private static final int PULL_BATCH = 32;

    private final ClientInstance client;
    private final String group;
    private final String topic;

    DeadLetterQueue(ClientInstance client, String group) {
        this.client = client;
        this.group = group;
        this.topic = SystemTopics.dlqTopic(group);
    }

    /** Messages waiting, oldest first, at most {@code max}. */
    List<MessageExt> list(int max) throws ClientException, InterruptedException {
        List<Waiting> waiting = waiting(max);
        List<MessageExt> out = new ArrayList<>(waiting.size());
        for (Waiting w : waiting) {
            out.add(w.msg);
        }
        return out;
    }

    /**
     * Resends every waiting message (id null) or the waiting messages with this id (the producer's unique id,
     * the broker's message id, or the original message id) to their original topic, keeping the unique id.
     *
     * @return how many were resent
     * @throws ClientException when one cannot be resent; those before it are resent and remembered
     */
    int resend(String msgId) throws ClientException, InterruptedException {
        List<Waiting> waiting = waiting(Integer.MAX_VALUE);
        Map<QueueKey, Long> positions = new HashMap<>();
        Map<QueueKey, Long> firstWaiting = new HashMap<>();
        for (Waiting w : waiting) {
            firstWaiting.putIfAbsent(w.queue, w.msg.getQueueOffset());
        }
        int resent = 0;
        try {
            for (Waiting w : waiting) {
                if (msgId != null && !matches(w.msg, msgId)) {
                    continue;
                }
                send(w.msg);
                resent++;
                if (msgId == null || firstWaiting.get(w.queue).longValue() == w.msg.getQueueOffset()) {
                    positions.put(w.queue, w.msg.getQueueOffset() + 1);
                }
            }
        } finally {
            for (Map.Entry<QueueKey, Long> p : positions.entrySet()) {
                client.offsetApi().updateConsumerOffset(p.getKey().address, group, topic, p.getKey().queueId,
                        p.getValue(), client.apiTimeoutMillis());
            }
        }
        return resent;
    }

    private static boolean matches(MessageExt msg, String id) {
        return id.equals(msg.getMsgId()) || id.equals(msg.getOffsetMsgId())
                || id.equals(msg.getProperty(MessageProperties.ORIGIN_MESSAGE_ID));
    }

    private void send(MessageExt dead) throws ClientException, InterruptedException {
        // retried messages name their topic in RETRY_TOPIC; dead letters of per-message acknowledgement (JMS)
        // in DLQ_ORIGIN_TOPIC
        String original = dead.getProperty(MessageProperties.RETRY_TOPIC);
        if (original == null) {
            original = dead.getProperty(MessageProperties.DLQ_ORIGIN_TOPIC);
        }
        if (original == null) {
            original = dead.getProperty(MessageProperties.REAL_TOPIC);
        }
        if (original == null || SystemTopics.isRetryTopic(original) || SystemTopics.isDlqTopic(original)) {
            throw new ClientException(ResponseCode.MESSAGE_ILLEGAL, "Dead letter " + dead.getMsgId() + " does not name"
                    + " the topic it was first sent to (RETRY_TOPIC or DLQ_ORIGIN_TOPIC); send it again yourself.");
        }
        TopicRouteData route = client.nameServer().route(original);
        String address = route == null ? null : targetAddress(route, dead.getBrokerName());
        if (address == null) {
            throw new ClientException(ResponseCode.TOPIC_NOT_EXIST, "Dead letter " + dead.getMsgId() + " belongs to"
                    + " topic " + original + ", which no broker serves any more; create the topic, then resend.");
        }
        Map<String, String> properties = new HashMap<>(dead.getProperties());
        properties.remove(MessageProperties.RETRY_TOPIC);
        properties.remove(MessageProperties.FIRST_FAILURE_TIME);
        properties.remove(MessageProperties.DLQ_ORIGIN_TOPIC);
        properties.remove(MessageProperties.DLQ_ORIGIN_QUEUE_ID);
        properties.remove(MessageProperties.DLQ_ORIGIN_QUEUE_OFFSET);
        properties.remove(MessageProperties.DLQ_DELIVERY_COUNT);
        properties.remove(MessageProperties.DLQ_REASON);
        properties.remove(MessageProperties.SCHEDULE_SOURCE);
        properties.remove(MessageProperties.DELAY_TIME_LEVEL);
        properties.remove(MessageProperties.MIN_OFFSET);
        properties.remove(MessageProperties.MAX_OFFSET);
        properties.remove(MessageProperties.CONSUME_START_TIME);
        int sysFlag = MessageSysFlag.withTransactionType(dead.getSysFlag(), MessageSysFlag.TRANSACTION_NOT_TYPE);
        SendMessageRequest header = new SendMessageRequest(RESEND_PRODUCER_GROUP, original, 0, -1, sysFlag,
                System.currentTimeMillis(), dead.getFlag(), MessageDecoder.encodeProperties(properties), 0, null, false);
        client.messageApi().send(address, header, dead.getBody(), client.apiTimeoutMillis());
    }

    /** The broker the dead letter came from when it serves the topic, else the first one that does. */
    private static String targetAddress(TopicRouteData route, String preferredBroker) {
        String first = null;
        if (route.queueDatas() != null) {
            for (QueueData q : route.queueDatas()) {
                if ((q.perm() & TopicPerm.WRITE) == 0 || q.writeQueueNums() <= 0) {
                    continue;
                }
                String address = TopicRoutes.masterAddress(route, q.brokerName());
                if (address != null && q.brokerName().equals(preferredBroker)) {
                    return address;
                }
                if (first == null) {
                    first = address;
                }
            }
        }
        return first;
    }

    /** The messages after the remembered position of every queue of the dead-letter topic, oldest first. */
    private List<Waiting> waiting(int max) throws ClientException, InterruptedException {
        TopicRouteData route = client.nameServer().route(topic);
        List<Waiting> out = new ArrayList<>();
        if (route == null || route.queueDatas() == null) {
            return out; // nothing was ever dead-lettered for this group
        }
        for (QueueData q : route.queueDatas()) {
            String address = TopicRoutes.masterAddress(route, q.brokerName());
            if (address == null) {
                continue;
            }
            for (int queueId = 0; queueId < q.readQueueNums(); queueId++) {
                readQueue(new QueueKey(q.brokerName(), address, queueId), max, out);
            }
        }
        out.sort(Comparator.comparingLong((Waiting w) -> w.msg.getStoreTimestamp())
                .thenComparingLong(w -> w.msg.getQueueOffset()));
        return out.size() > max ? new ArrayList<>(out.subList(0, max)) : out;
    }

    private void readQueue(QueueKey queue, int max, List<Waiting> out) throws ClientException, InterruptedException {
        long timeout = client.apiTimeoutMillis();
        long offset = client.offsetApi().queryConsumerOffset(queue.address, group, topic, queue.queueId, timeout);
        long min = client.offsetApi().minOffset(queue.address, topic, queue.queueId, timeout);
        if (offset == OffsetApi.NO_OFFSET || offset < min) {
            offset = min;
        }
        int taken = 0;
        while (taken < max) {
            PullMessageRequest header = new PullMessageRequest(group, topic, queue.queueId, offset,
                    Math.min(PULL_BATCH, max - taken), PullSysFlag.SUBSCRIPTION, 0, 0, "*", 0, "TAG");
            PullReply reply = client.messageApi().pull(queue.address, queue.brokerName, header,
                    Subscriptions.byTag(topic, "*"), timeout);
            if (reply.kind() != PullReply.Kind.FOUND && reply.kind() != PullReply.Kind.NO_MATCHED_MSG) {
                return;
            }
            for (MessageExt msg : reply.messages()) {
                out.add(new Waiting(queue, msg));
                taken++;
            }
            if (reply.nextBeginOffset() <= offset) {
                return;
            }
            offset = reply.nextBeginOffset();
        }
    }

    private record QueueKey(String brokerName, String address, int queueId) {
    }

    private record Waiting(QueueKey queue, MessageExt msg) {
    }
}

package dev.wharf.client.ack;

import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.client.impl.PullReply;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.protocol.body.AckStats;
import dev.wharf.protocol.header.AckHeaders.AckMessageRequest;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.protocol.header.MessageHeaders.PullMessageRequest;
import dev.wharf.protocol.header.MessageHeaders.PullSysFlag;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link AckConsumer}'s reads of broker groups whose master is down, from a slave of the group. A slave
 * takes no pops (acknowledgement state changes are writes), so the consumer pulls from it: each queue from the
 * ackOffset of the master's last acknowledgement snapshot that the slave copied, then onwards. Acknowledgements
 * of such messages are kept here and handed to the master (ACK_MESSAGE) as soon as the route shows it again,
 * before anything is popped from it; a message given back is read again. Without leases, two consumers reading
 * the same slave both get its messages, and messages acknowledged on the master after its last snapshot come
 * again: duplicates, which the delivery count shows (above 1), never a gap. Thread-safe.
 */
final class SlaveReads {

    private static final Logger log = LoggerFactory.getLogger(SlaveReads.class);

    private record QueueKey(String brokerName, String topic, int queueId) {
    }

    private final String group;
    /** Next offset to read per queue of a masterless group. */
    private final Map<QueueKey, Long> cursors = new ConcurrentHashMap<>();
    /** Offsets acknowledged while reading a slave, to hand to the master. */
    private final Map<QueueKey, Set<Long>> acked = new ConcurrentHashMap<>();
    /** How often each offset read from a slave was delivered. */
    private final Map<QueueKey, Map<Long, Integer>> deliveries = new ConcurrentHashMap<>();

    SlaveReads(String group) {
        this.group = group;
    }

    /** The broker names of {@code queues} whose group has no master in the route but a slave. */
    static Set<String> masterless(ClientInstance current, Set<MessageQueue> queues) {
        Set<String> out = new TreeSet<>();
        for (MessageQueue mq : queues) {
            Map<Long, String> members = current.routes().group(mq.brokerName());
            if (!members.isEmpty() && !members.containsKey(0L)) {
                out.add(mq.brokerName());
            }
        }
        return out;
    }

    /** Acknowledgements waiting for their master (tests, diagnostics). */
    int pendingAcks() {
        return acked.values().stream().mapToInt(Set::size).sum();
    }

    /**
     * Reads up to {@code maxNums} matching messages from the slaves of {@code brokers} (masterless groups), queue
     * by queue; empty when none has any now. A slave that does not answer is skipped.
     */
    List<PoppedMessage> read(ClientInstance current, String topic, Set<MessageQueue> queues, Set<String> brokers,
                             int queueIdOrMinus1, int maxNums, MessageSelector selector, InitMode initMode,
                             long invisibleTime, Predicate<MessageExt> tagMatches) throws InterruptedException {
        List<PoppedMessage> out = new ArrayList<>();
        for (MessageQueue mq : queues) {
            if (out.size() >= maxNums) {
                break;
            }
            if (!brokers.contains(mq.brokerName()) || (queueIdOrMinus1 >= 0 && mq.queueId() != queueIdOrMinus1)) {
                continue;
            }
            String address = current.readAddress(mq);
            if (address == null) {
                continue;
            }
            try {
                readQueue(current, address, mq, maxNums - out.size(), selector, initMode, invisibleTime, tagMatches,
                        out);
            } catch (ClientException e) {
                log.debug("Group {}: reading {} from slave {} failed: {}", group, mq, address, e.getMessage());
            }
        }
        return out;
    }

    private void readQueue(ClientInstance current, String address, MessageQueue mq, int maxNums,
                           MessageSelector selector, InitMode initMode, long invisibleTime,
                           Predicate<MessageExt> tagMatches, List<PoppedMessage> out)
            throws ClientException, InterruptedException {
        QueueKey key = new QueueKey(mq.brokerName(), mq.topic(), mq.queueId());
        Long known = cursors.get(key);
        if (known == null) {
            cursors.putIfAbsent(key, start(current, address, mq, initMode));
            known = cursors.get(key);
            log.info("Group {}: the master of {} is down; reading queue {} from slave {} at offset {}", group,
                    mq.brokerName(), mq.queueId(), address, known);
        }
        long cursor = known;
        PullMessageRequest header = new PullMessageRequest(group, mq.topic(), mq.queueId(), cursor, maxNums,
                PullSysFlag.SUBSCRIPTION, 0, 0, selector.expression(), 0, selector.type().name());
        PullReply reply = current.messageApi().pull(address, mq.brokerName(), header, null,
                current.apiTimeoutMillis());
        long now = System.currentTimeMillis();
        Set<Long> done = acked.getOrDefault(key, Set.of());
        Map<Long, Integer> counts = deliveries.computeIfAbsent(key, k -> new ConcurrentHashMap<>());
        for (MessageExt msg : reply.messages()) {
            if (done.contains(msg.getQueueOffset()) || !tagMatches.test(msg)) {
                continue;
            }
            int count = counts.merge(msg.getQueueOffset(), 1, Integer::sum);
            PoppedMessage popped = PoppedMessage.of(msg, count, now, invisibleTime);
            popped.markFromSlave();
            out.add(popped);
        }
        // a give-back that moved the cursor below where this read started wins over the read's end
        cursors.merge(key, reply.nextBeginOffset(), (a, b) -> a == cursor ? b : a);
    }

    /** Where reading a queue starts: the copied ackOffset, else per the init mode. */
    private long start(ClientInstance current, String address, MessageQueue mq, InitMode initMode)
            throws ClientException, InterruptedException {
        AckStats stats = current.ackApi().stats(address, group, mq.topic(), current.apiTimeoutMillis());
        if (stats.queues() != null) {
            for (AckStats.QueueAckStats q : stats.queues()) {
                if (q.topic().equals(mq.topic()) && q.queueId() == mq.queueId()) {
                    return q.ackOffset();
                }
            }
        }
        if (initMode == InitMode.LATEST) {
            return current.offsetApi().maxOffset(address, mq.topic(), mq.queueId(), current.apiTimeoutMillis());
        }
        return current.offsetApi().minOffset(address, mq.topic(), mq.queueId(), current.apiTimeoutMillis());
    }

    /** Keeps the acknowledgements of slave-read messages; answers the others (to send as usual). */
    List<MessageExt> ack(Collection<? extends MessageExt> msgs) {
        List<MessageExt> rest = new ArrayList<>(msgs.size());
        for (MessageExt msg : msgs) {
            if (msg instanceof PoppedMessage p && p.isFromSlave()) {
                acked.computeIfAbsent(new QueueKey(p.getBrokerName(), p.getTopic(), p.getQueueId()),
                        k -> ConcurrentHashMap.newKeySet()).add(p.getQueueOffset());
            } else {
                rest.add(msg);
            }
        }
        return rest;
    }

    /**
     * Lease changes of slave-read messages: a give-back (0) makes the message be read again; a longer lease
     * changes nothing (there is none). Answers the other messages.
     */
    List<MessageExt> changeInvisibleTime(Collection<? extends MessageExt> msgs, long invisibleTimeMillis) {
        List<MessageExt> rest = new ArrayList<>(msgs.size());
        for (MessageExt msg : msgs) {
            if (msg instanceof PoppedMessage p && p.isFromSlave()) {
                if (invisibleTimeMillis == 0) {
                    cursors.computeIfPresent(new QueueKey(p.getBrokerName(), p.getTopic(), p.getQueueId()),
                            (k, c) -> Math.min(c, p.getQueueOffset()));
                }
            } else {
                rest.add(msg);
            }
        }
        return rest;
    }

    /**
     * Hands the acknowledgements kept for groups whose master is back to that master, and forgets the slave reads
     * of those groups; a group whose hand-back fails is tried again on the next call.
     */
    void handBack(ClientInstance current) throws InterruptedException {
        if (cursors.isEmpty() && acked.isEmpty()) {
            return;
        }
        Set<String> brokers = new TreeSet<>();
        cursors.keySet().forEach(k -> brokers.add(k.brokerName()));
        acked.keySet().forEach(k -> brokers.add(k.brokerName()));
        for (String broker : brokers) {
            String master = current.routes().group(broker).get(0L);
            if (master == null) {
                continue;
            }
            boolean ok = true;
            for (Map.Entry<QueueKey, Set<Long>> e : acked.entrySet()) {
                if (!e.getKey().brokerName().equals(broker) || e.getValue().isEmpty()) {
                    continue;
                }
                List<Long> offsets = new ArrayList<>(new TreeSet<>(e.getValue()));
                try {
                    for (int from = 0; from < offsets.size(); from += QueueRequests.OFFSETS_PER_REQUEST) {
                        String chunk = offsets.subList(from, Math.min(offsets.size(), from
                                + QueueRequests.OFFSETS_PER_REQUEST)).stream().map(String::valueOf)
                                .collect(Collectors.joining(","));
                        current.ackApi().ack(master, new AckMessageRequest(group, e.getKey().topic(),
                                e.getKey().queueId(), chunk), current.apiTimeoutMillis());
                    }
                    log.info("Group {}: handed {} acknowledgement(s) of {} made while reading a slave to master {}",
                            group, offsets.size(), e.getKey(), master);
                    e.getValue().removeAll(offsets);
                } catch (ClientException ex) {
                    ok = false;
                    log.warn("Group {}: handing acknowledgements of {} to master {} failed, trying again: {}", group,
                            e.getKey(), master, ex.getMessage());
                }
            }
            if (ok) {
                acked.keySet().removeIf(k -> k.brokerName().equals(broker) && acked.get(k).isEmpty());
                cursors.keySet().removeIf(k -> k.brokerName().equals(broker));
                deliveries.keySet().removeIf(k -> k.brokerName().equals(broker));
            }
        }
    }

    /** Queue offsets of a group read from a slave so far, for logs. */
    @Override
    public String toString() {
        return "SlaveReads{" + group + ", cursors=" + new TreeMap<>(cursors.entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().toString(), Map.Entry::getValue))) + "}";
    }
}

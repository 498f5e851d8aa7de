package dev.wharf.client.consumer.push;

import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.offset.OffsetStore;
import dev.wharf.client.consumer.offset.ReadOffsetType;
import dev.wharf.client.impl.ClientInstance;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageQueue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which queues this member owns and brings the process-queue table in line: queues that leave are
 * dropped after their offset is committed, queues that arrive start at the group's committed offset (or at
 * consumeFromWhere for a group without one). Clustering allocates the sorted queues over the sorted member list;
 * broadcasting owns every queue. Runs on the client instance's rebalance thread only.
 */
final class Rebalancer {

    private static final Logger log = LoggerFactory.getLogger(Rebalancer.class);

    /** How soon to try again for a queue whose previous owner still holds its lock (it is releasing it). */
    static final long LOCK_RETRY_MILLIS = 1_000;

    private final PushEngine engine;

    Rebalancer(PushEngine engine) {
        this.engine = engine;
    }

    /** @param resetTopics topics whose offsets an operator reset since the last run */
    void run(Set<String> resetTopics) {
        for (String topic : resetTopics) {
            dropForReset(topic);
        }
        for (String topic : engine.subscriptions().keySet()) {
            try {
                rebalanceTopic(topic);
            } catch (ClientException e) {
                log.warn("Group {}: rebalance of topic {} failed: {}", group(), topic, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        dropUnsubscribedTopics();
    }

    private void rebalanceTopic(String topic) throws ClientException, InterruptedException {
        ClientInstance instance = engine.instance();
        Set<MessageQueue> mqSet = instance.subscribeQueues(topic);
        if (mqSet.isEmpty()) {
            return; // no route (yet): keep what we have rather than drop on a NameServer hiccup
        }
        Set<MessageQueue> mine;
        if (engine.settings().clustering()) {
            List<String> cids = consumerIds(instance, mqSet);
            if (cids.isEmpty()) {
                return;
            }
            List<MessageQueue> all = new ArrayList<>(mqSet);
            Collections.sort(all);
            List<String> sortedCids = new ArrayList<>(cids);
            Collections.sort(sortedCids);
            List<MessageQueue> allocated;
            try {
                allocated = engine.allocator().allocate(group(), instance.clientId(), all, sortedCids);
            } catch (RuntimeException e) {
                log.warn("Group {}: the allocation strategy failed for topic {}: {}", group(), topic, e.toString());
                return;
            }
            mine = allocated == null ? Set.of() : new HashSet<>(allocated);
        } else {
            mine = mqSet;
        }
        updateProcessQueues(topic, mine);
    }

    private List<String> consumerIds(ClientInstance instance, Set<MessageQueue> mqSet)
            throws ClientException, InterruptedException {
        ClientException last = null;
        Set<String> brokers = new java.util.TreeSet<>();
        mqSet.forEach(mq -> brokers.add(mq.brokerName()));
        for (String brokerName : brokers) {
            String address = instance.anyAddress(brokerName);
            if (address == null) {
                continue;
            }
            try {
                return instance.groupApi().consumerIds(address, group(), instance.apiTimeoutMillis());
            } catch (ClientException e) {
                last = e;
            }
        }
        if (last != null) {
            throw last;
        }
        return List.of();
    }

    private void updateProcessQueues(String topic, Set<MessageQueue> mine) {
        Map<MessageQueue, ProcessQueue> table = engine.processQueues();
        long now = System.currentTimeMillis();
        for (Iterator<Map.Entry<MessageQueue, ProcessQueue>> it = table.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<MessageQueue, ProcessQueue> e = it.next();
            MessageQueue mq = e.getKey();
            ProcessQueue pq = e.getValue();
            if (!mq.topic().equals(topic)) {
                continue;
            }
            boolean leaving = !mine.contains(mq);
            boolean stuck = !leaving && (pq.isDropped() || pq.isPullExpired(now));
            if (leaving || stuck) {
                pq.setDropped(true);
                if (engine.consumeService().release(mq, pq)) {
                    it.remove();
                    log.info("Group {}: {} {}", group(), leaving ? "released" : "recreates stuck", mq);
                }
            }
        }
        for (MessageQueue mq : mine) {
            if (table.containsKey(mq)) {
                continue;
            }
            if (!engine.consumeService().acquire(mq)) {
                log.info("Group {}: {} is still locked by another member; trying again in {} ms", group(), mq,
                        LOCK_RETRY_MILLIS);
                engine.instance().rebalanceLater(LOCK_RETRY_MILLIS);
                continue;
            }
            engine.offsetStore().removeOffset(mq);
            long offset = startOffset(mq);
            if (offset < 0) {
                continue;
            }
            engine.offsetStore().updateOffset(mq, offset, false);
            ProcessQueue pq = new ProcessQueue();
            if (engine.settings().orderly() && engine.settings().clustering()) {
                pq.setLocked(true);
            }
            if (table.putIfAbsent(mq, pq) == null) {
                log.info("Group {}: owns {} from offset {}", group(), mq, offset);
                engine.pullService().executeNow(new PullRequest(mq, pq, offset));
            }
        }
    }

    /** Where a newly owned queue starts; -1 when that cannot be known now (the next rebalance tries again). */
    long startOffset(MessageQueue mq) {
        OffsetStore store = engine.offsetStore();
        ClientInstance instance = engine.instance();
        try {
            long committed = store.readOffset(mq, ReadOffsetType.READ_FROM_STORE);
            if (committed >= 0) {
                return committed;
            }
            if (SystemTopics.isRetryTopic(mq.topic())) {
                return 0;
            }
            String address = instance.requireMasterAddress(mq.brokerName(), mq.topic());
            long timeout = instance.apiTimeoutMillis();
            return switch (engine.settings().consumeFromWhere()) {
                case CONSUME_FROM_LAST_OFFSET, CONSUME_FROM_LAST_OFFSET_AND_FROM_MIN_WHEN_BOOT_FIRST,
                     CONSUME_FROM_MIN_OFFSET, CONSUME_FROM_MAX_OFFSET -> instance.offsetApi().maxOffset(address, mq.topic(), mq.queueId(), timeout);
                case CONSUME_FROM_FIRST_OFFSET -> instance.offsetApi().minOffset(address, mq.topic(), mq.queueId(), timeout);
                case CONSUME_FROM_TIMESTAMP -> instance.offsetApi().searchOffset(address, mq.topic(), mq.queueId(),
                        engine.settings().consumeTimestamp(), timeout);
            };
        } catch (ClientException e) {
            log.warn("Group {}: cannot find where to start consuming {}: {}", group(), mq, e.getMessage());
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /**
     * Drops the topic's process queues without committing (the broker holds the reset offsets and ignores commits
     * of the old positions); the rebalance that follows recreates them from the broker's offsets, and that read
     * lifts the broker's guard. Messages in flight are consumed, but their offsets are not committed.
     */
    private void dropForReset(String topic) {
        Map<MessageQueue, ProcessQueue> table = engine.processQueues();
        for (Iterator<Map.Entry<MessageQueue, ProcessQueue>> it = table.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<MessageQueue, ProcessQueue> e = it.next();
            if (e.getKey().topic().equals(topic)) {
                e.getValue().setDropped(true);
                engine.offsetStore().removeOffset(e.getKey());
                it.remove();
                log.info("Group {}: offsets of topic {} were reset; re-reading the offset of {}", group(), topic,
                        e.getKey());
            }
        }
    }

    private void dropUnsubscribedTopics() {
        Map<MessageQueue, ProcessQueue> table = engine.processQueues();
        for (Iterator<Map.Entry<MessageQueue, ProcessQueue>> it = table.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<MessageQueue, ProcessQueue> e = it.next();
            if (!engine.subscriptions().containsKey(e.getKey().topic())) {
                e.getValue().setDropped(true);
                if (engine.consumeService().release(e.getKey(), e.getValue())) {
                    it.remove();
                }
            }
        }
    }

    private String group() {
        return engine.settings().group();
    }
}

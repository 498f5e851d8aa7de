package dev.wharf.client.it;

import dev.wharf.common.message.MessageExt;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/** What listeners received: each delivery, and how often each message (by producer id) arrived. */
final class Deliveries {

    record Delivery(String consumer, String msgId, String body, String queue, long offset, int reconsumeTimes) {
    }

    private final ConcurrentLinkedQueue<Delivery> all = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    void add(String consumer, List<MessageExt> msgs) {
        for (MessageExt m : msgs) {
            all.add(new Delivery(consumer, m.getMsgId(), new String(m.getBody(), StandardCharsets.UTF_8),
                    m.getTopic() + "@" + m.getBrokerName() + "#" + m.getQueueId(), m.getQueueOffset(),
                    m.getReconsumeTimes()));
            counts.computeIfAbsent(m.getMsgId(), k -> new AtomicInteger()).incrementAndGet();
        }
    }

    int distinct() {
        return counts.size();
    }

    int total() {
        return all.size();
    }

    Set<String> ids() {
        return counts.keySet();
    }

    /** Deliveries beyond the first of each message. */
    int duplicates() {
        return counts.values().stream().mapToInt(c -> c.get() - 1).sum();
    }

    List<Delivery> list() {
        return List.copyOf(all);
    }

    Map<String, Long> perConsumer() {
        return all.stream().collect(Collectors.groupingBy(Delivery::consumer, Collectors.counting()));
    }
}

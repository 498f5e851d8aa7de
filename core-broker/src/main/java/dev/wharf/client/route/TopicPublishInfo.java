package dev.wharf.client.route;

import dev.wharf.common.message.MessageQueue;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The writable queues of one topic and the producer's queue choice among them: round robin, skipping the
 * broker of the previous failed attempt and, with fault tolerance, brokers being avoided. Immutable queue list;
 * the round-robin counter is shared by all threads (an atomic, no lock).
 */
public final class TopicPublishInfo {

    private final String topic;
    private final List<MessageQueue> queues;
    private final AtomicInteger next = new AtomicInteger(ThreadLocalRandom.current().nextInt(1 << 16));

    public TopicPublishInfo(String topic, List<MessageQueue> queues) {
        this.topic = topic;
        this.queues = List.copyOf(queues);
    }

    public String topic() {
        return topic;
    }

    /** The writable queues, sorted by broker name then queue id. */
    public List<MessageQueue> queues() {
        return queues;
    }

    public boolean isEmpty() {
        return queues.isEmpty();
    }

    /**
     * The next queue in round-robin order that is not on {@code avoidBroker} (the broker of the previous failed
     * attempt, or null); any next queue when every queue is on that broker.
     */
    public MessageQueue select(String avoidBroker) {
        int size = queues.size();
        if (size == 0) {
            return null;
        }
        int start = Math.floorMod(next.getAndIncrement(), size);
        if (avoidBroker != null) {
            for (int i = 0; i < size; i++) {
                MessageQueue mq = queues.get((start + i) % size);
                if (!mq.brokerName().equals(avoidBroker)) {
                    return mq;
                }
            }
        }
        return queues.get(start);
    }

    /**
     * Like {@link #select(String)}, but also skips brokers the fault tolerance avoids. When every broker is
     * avoided, picks a queue of the one available again soonest, so a send is still tried.
     */
    public MessageQueue select(String avoidBroker, LatencyFaultTolerance faults) {
        int size = queues.size();
        if (size == 0) {
            return null;
        }
        int start = Math.floorMod(next.getAndIncrement(), size);
        for (int i = 0; i < size; i++) {
            MessageQueue mq = queues.get((start + i) % size);
            if (!mq.brokerName().equals(avoidBroker) && faults.isAvailable(mq.brokerName())) {
                return mq;
            }
        }
        String leastBad = faults.leastBad();
        if (leastBad != null && !leastBad.equals(avoidBroker)) {
            for (int i = 0; i < size; i++) {
                MessageQueue mq = queues.get((start + i) % size);
                if (mq.brokerName().equals(leastBad)) {
                    return mq;
                }
            }
        }
        return select(avoidBroker);
    }

    @Override
    public String toString() {
        return "TopicPublishInfo{" + topic + ", " + queues.size() + " queues}";
    }
}

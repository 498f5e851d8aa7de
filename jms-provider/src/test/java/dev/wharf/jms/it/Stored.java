package dev.wharf.jms.it;

import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.client.consumer.PullStatus;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads what the broker stored for a topic with the low-level pull consumer, without changing any group's
 * state: the tests' view of the broker, independent of the JMS consumers.
 */
public final class Stored {

    private static final AtomicInteger READERS = new AtomicInteger();

    private Stored() {
    }

    /** Every message stored for the topic, queue by queue (sorted by queue id), once at least {@code atLeast} are. */
    public static List<MessageExt> read(String namesrvAddr, String topic, int atLeast) throws Exception {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(namesrvAddr);
        config.setInstanceName("stored-" + READERS.incrementAndGet());
        PullConsumer consumer = new PullConsumer("STORED_READER_" + READERS.get(), config);
        consumer.start();
        try {
            List<MessageExt> out = new ArrayList<>();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                out.clear();
                out.addAll(readOnce(consumer, topic));
                return out.size() >= atLeast;
            });
            return out;
        } finally {
            consumer.shutdown();
        }
    }

    private static List<MessageExt> readOnce(PullConsumer consumer, String topic) throws Exception {
        Set<MessageQueue> queues;
        try {
            queues = consumer.fetchSubscribeMessageQueues(topic);
        } catch (Exception e) {
            return List.of();
        }
        List<MessageQueue> sorted = new ArrayList<>(queues);
        sorted.sort(Comparator.comparing(MessageQueue::brokerName).thenComparingInt(MessageQueue::queueId));
        List<MessageExt> out = new ArrayList<>();
        for (MessageQueue mq : sorted) {
            long offset = 0;
            while (true) {
                PullResult r = consumer.pull(mq, MessageSelector.all(), offset, 32);
                if (r.pullStatus() != PullStatus.FOUND) {
                    break;
                }
                out.addAll(r.msgFoundList());
                offset = r.nextBeginOffset();
            }
        }
        return out;
    }
}

package dev.wharf.chaos.workload;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.MessageSelector;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every queue from offset 0 with pulls, one thread per broker name, and writes each message received to the
 * {@link Ledger} with its queue offset. Offsets are kept here, not on the broker, so nothing a broker forgets or
 * replays is hidden: a queue offset the broker declares illegal is counted and the pull goes on where the broker
 * says.
 */
// close() waits for a process or threads to end; an interrupt there is for the caller to see
@SuppressWarnings("try")
public final class Consumers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Consumers.class);
    private static final MessageSelector ALL = MessageSelector.all();

    private final PullConsumer consumer;
    private final Ledger ledger;
    private final Map<MessageQueue, Long> offsets = new ConcurrentHashMap<>();
    private final Map<String, List<MessageQueue>> byBroker;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong offsetResets = new AtomicLong();
    private final AtomicLong pullErrors = new AtomicLong();
    private volatile long lastDeliveryAt = System.currentTimeMillis();
    private volatile boolean stop;

    public Consumers(ClientConfig config, Ledger ledger, List<MessageQueue> queues) throws ClientException {
        this.ledger = ledger;
        this.consumer = new PullConsumer("chaos-checker", config);
        this.consumer.setConsumerPullTimeoutMillis(3_000);
        this.consumer.start();
        queues.forEach(q -> offsets.put(q, 0L));
        this.byBroker = queues.stream().collect(Collectors.groupingBy(MessageQueue::brokerName));
    }

    public void start() {
        byBroker.forEach((broker, queues) -> {
            Thread t = new Thread(() -> loop(queues), "chaos-consumer-" + broker);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        });
    }

    private void loop(List<MessageQueue> queues) {
        while (!stop) {
            boolean found = false;
            for (MessageQueue mq : queues) {
                try {
                    found |= pullOnce(mq);
                } catch (ClientException | RuntimeException e) {
                    pullErrors.incrementAndGet();
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (!found) {
                try {
                    TimeUnit.MILLISECONDS.sleep(50); // poll pacing while the queues are empty or unreachable
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private boolean pullOnce(MessageQueue mq) throws ClientException, InterruptedException {
        long offset = offsets.get(mq);
        PullResult r = consumer.pull(mq, ALL, offset, 64);
        switch (r.pullStatus()) {
            case FOUND -> {
                long now = System.currentTimeMillis();
                for (MessageExt m : r.msgFoundList()) {
                    String id = new String(m.getBody(), StandardCharsets.US_ASCII);
                    ledger.delivered(id, mq.brokerName(), mq.queueId(), m.getQueueOffset(), now);
                    delivered.incrementAndGet();
                }
                lastDeliveryAt = now;
                offsets.put(mq, r.nextBeginOffset());
                return !r.msgFoundList().isEmpty();
            }
            case NO_MATCHED_MSG -> offsets.put(mq, r.nextBeginOffset());
            case OFFSET_ILLEGAL -> {
                offsetResets.incrementAndGet();
                log.warn("{}: offset {} illegal (queue {}..{}), going on at {}", mq, offset, r.minOffset(),
                        r.maxOffset(), r.nextBeginOffset());
                offsets.put(mq, r.nextBeginOffset());
            }
            case NO_NEW_MSG -> {
                // caught up
            }
        }
        return false;
    }

    /** Whether every queue has been read up to the end its broker reports now. */
    public boolean caughtUp() {
        for (Map.Entry<MessageQueue, Long> e : offsets.entrySet()) {
            try {
                if (e.getValue() < consumer.maxOffset(e.getKey())) {
                    return false;
                }
            } catch (ClientException | RuntimeException ex) {
                return false;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    public long delivered() {
        return delivered.get();
    }

    public long lastDeliveryAt() {
        return lastDeliveryAt;
    }

    /** Pulls answered OFFSET_ILLEGAL: the queue shrank or moved under the reader. */
    public long offsetResets() {
        return offsetResets.get();
    }

    public long pullErrors() {
        return pullErrors.get();
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join(10_000);
        }
        consumer.shutdown();
    }
}

package dev.wharf.chaos.workload;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageQueue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Producer threads sending unique ids, each thread in sequence and to an explicit queue (round robin over every
 * queue of every broker name), so that a failure is charged to one broker name and the sends of one thread to one
 * queue have a known order. Every attempt goes to the {@link Ledger}: acknowledged (SEND_OK) or failed, with the
 * reason. The producer does not retry (a retry to another queue would hide which group failed); the workload just
 * goes on with the next queue.
 */
public final class Producers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Producers.class);

    private final Ledger ledger;
    private final List<MessageQueue> queues;
    private final List<Thread> threads = new ArrayList<>();
    private final List<Producer> producers = new ArrayList<>();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final long nanosPerSendPerThread;
    private volatile boolean stop;

    /**
     * @param ratePerSecond total sends per second over all threads (a ceiling; a thread waiting on a timeout sends
     *                      less)
     */
    public Producers(ClientConfig config, Ledger ledger, List<MessageQueue> queues, int threads, int ratePerSecond,
                     int sendTimeoutMillis) throws ClientException {
        this.ledger = ledger;
        this.queues = List.copyOf(queues);
        this.nanosPerSendPerThread = TimeUnit.SECONDS.toNanos(1) * threads / Math.max(1, ratePerSecond);
        for (int t = 0; t < threads; t++) {
            Producer p = new Producer("chaos-producers-" + t, config);
            p.setRetryTimesWhenSendFailed(0);
            p.setSendMsgTimeout(sendTimeoutMillis);
            p.setSendLatencyFaultEnable(false);
            p.start();
            producers.add(p);
        }
    }

    public void start() {
        for (int t = 0; t < producers.size(); t++) {
            int thread = t;
            Thread th = new Thread(() -> loop(thread), "chaos-producer-" + t);
            th.setDaemon(true);
            threads.add(th);
            th.start();
        }
    }

    private void loop(int thread) {
        Producer producer = producers.get(thread);
        long next = System.nanoTime();
        for (long seq = 0; !stop; seq++) {
            MessageQueue mq = queues.get((int) ((seq + thread) % queues.size()));
            String id = thread + "-" + seq;
            Message msg = new Message(mq.topic(), "chaos", id, id.getBytes(StandardCharsets.US_ASCII));
            long sentAt = System.currentTimeMillis();
            try {
                SendResult r = producer.send(msg, mq);
                long at = System.currentTimeMillis();
                if (r.sendStatus() == SendStatus.SEND_OK) {
                    ledger.acked(id, mq.brokerName(), mq.queueId(), r.queueOffset(), sentAt, at);
                    acked.incrementAndGet();
                } else {
                    ledger.failed(id, mq.brokerName(), mq.queueId(), sentAt, at, r.sendStatus().name());
                    failed.incrementAndGet();
                }
            } catch (ClientException e) {
                // no answer (the outcome is unknown) or the broker's response code
                ledger.failed(id, mq.brokerName(), mq.queueId(), sentAt, System.currentTimeMillis(),
                        e.isNoResponse() ? "NO_ANSWER" : dev.wharf.protocol.ResponseCode.NAMES.name(e.responseCode()));
                failed.incrementAndGet();
            } catch (RuntimeException e) {
                ledger.failed(id, mq.brokerName(), mq.queueId(), sentAt, System.currentTimeMillis(),
                        e.getClass().getSimpleName());
                failed.incrementAndGet();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            next += nanosPerSendPerThread;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait); // rate pacing
                } catch (InterruptedException e) {
                    return;
                }
            } else if (wait < -TimeUnit.SECONDS.toNanos(1)) {
                next = System.nanoTime(); // behind after a timeout: no burst to catch up
            }
        }
    }

    public long acked() {
        return acked.get();
    }

    public long failed() {
        return failed.get();
    }

    /** Stops sending and waits for every thread's last send to be answered and written. */
    public void stop() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join(60_000);
            if (t.isAlive()) {
                log.warn("{} still sending after 60 s", t.getName());
            }
        }
    }

    @Override
    public void close() {
        stop = true;
        producers.forEach(Producer::shutdown);
    }
}

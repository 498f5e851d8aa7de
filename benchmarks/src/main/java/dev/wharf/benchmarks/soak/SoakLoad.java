package dev.wharf.benchmarks.soak;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.client.producer.SendStatus;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageId;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The steady load: producer threads sending at a fixed total rate with synchronous sends (each outcome is
 * recorded in the {@link Ledger} under the phase the send started in), and one push consumer recording every
 * delivery after checking the body byte for byte.
 */
// close() waits for a process or threads to end; an interrupt there is for the caller to see
@SuppressWarnings("try")
final class SoakLoad implements AutoCloseable {

    /** What the tool is doing to the broker while a send starts. */
    enum Phase { NORMAL, BROKER_DOWN, DISK_FULL }

    /** Outcomes of sends. */
    enum Outcome { ACKED, REFUSED_DISK_FULL, REFUSED_OTHERWISE, NO_ANSWER }

    private final Ledger ledger;
    private final String topic;
    private final int bodyBytes;
    private final double ratePerProducer;
    private final List<Producer> producers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final PushConsumer consumer;
    private final LongAdder[][] outcomes = new LongAdder[Phase.values().length][Outcome.values().length];
    private final LongAdder deliveries = new LongAdder();
    private final AtomicLong maxAckedOffset = new AtomicLong(-1);
    private final AtomicLong lastAckNanos = new AtomicLong(System.nanoTime());
    private final AtomicLong storeHost = new AtomicLong(-1);
    private volatile Phase phase = Phase.NORMAL;
    private volatile boolean running = true;
    private volatile String lastOtherError;

    SoakLoad(String nameServer, Ledger ledger, String topic, int bodyBytes, double totalRate, String group) {
        this.ledger = ledger;
        this.topic = topic;
        this.bodyBytes = bodyBytes;
        this.ratePerProducer = totalRate / ledger.producers();
        for (LongAdder[] row : outcomes) {
            for (int i = 0; i < row.length; i++) {
                row[i] = new LongAdder();
            }
        }
        for (int p = 0; p < ledger.producers(); p++) {
            Producer producer = new Producer("soak-producer", config(nameServer, "soak-producer-" + p));
            producer.setSendMsgTimeout(3_000);
            producers.add(producer);
        }
        consumer = new PushConsumer(group, config(nameServer, "soak-consumer"));
        consumer.subscribe(topic, "*");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setConsumeThreadMin(2);
        consumer.setConsumeThreadMax(2);
        consumer.setConsumeMessageBatchMaxSize(16);
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            for (MessageExt m : msgs) {
                receive(m);
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
    }

    private static ClientConfig config(String nameServer, String instance) {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(nameServer);
        config.setInstanceName(instance);
        config.setPersistConsumerOffsetInterval(1_000);
        return config;
    }

    private void receive(MessageExt m) {
        deliveries.increment();
        byte[] body = m.getBody();
        long id = SoakBody.idOf(body);
        if (id < 0 || !topic.equals(m.getTopic())) {
            ledger.deliveredForeign.increment();
            return;
        }
        if (!SoakBody.intact(body, id, bodyBytes)) {
            ledger.deliveredCorrupted.increment();
            System.out.println("soak: CORRUPTED delivery of id " + id + " at commit-log offset "
                    + m.getCommitLogOffset());
            return;
        }
        if (!ledger.delivered(id)) {
            ledger.deliveredForeign.increment();
        }
    }

    void start() throws ClientException {
        consumer.start();
        for (Producer p : producers) {
            p.start();
        }
        for (int i = 0; i < producers.size(); i++) {
            int index = i;
            Thread t = new Thread(() -> produce(index), "soak-producer-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    private void produce(int index) {
        Producer producer = producers.get(index);
        long intervalNanos = (long) (TimeUnit.SECONDS.toNanos(1) / ratePerProducer);
        long next = System.nanoTime();
        for (long seq = 0; running; seq++) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            } else if (wait < -TimeUnit.SECONDS.toNanos(1)) {
                next = System.nanoTime(); // after a stall (broker down): no burst to catch up
            }
            next += intervalNanos;
            long id = Ledger.id(index, seq);
            Phase started = phase;
            ledger.sending(id);
            Outcome outcome;
            try {
                SendResult r = producer.send(new Message(topic, SoakBody.of(id, bodyBytes)));
                if (r.sendStatus() == SendStatus.SEND_OK) {
                    long offset = MessageId.commitLogOffset(r.offsetMsgId());
                    storeHost.compareAndSet(-1, MessageId.storeHost(r.offsetMsgId()));
                    ledger.outcome(id, Ledger.ACKED, offset);
                    maxAckedOffset.accumulateAndGet(offset, Math::max);
                    lastAckNanos.set(System.nanoTime());
                    outcome = Outcome.ACKED;
                } else {
                    // stored, but not flushed or replicated as asked: not an acknowledgement
                    ledger.outcome(id, Ledger.FAILED, -1);
                    lastOtherError = "status " + r.sendStatus();
                    outcome = Outcome.REFUSED_OTHERWISE;
                }
            } catch (ClientException e) {
                boolean full = String.valueOf(e.getMessage()).contains("disk full");
                ledger.outcome(id, full ? Ledger.REFUSED_DISK_FULL : Ledger.FAILED, -1);
                outcome = full ? Outcome.REFUSED_DISK_FULL
                        : e.isNoResponse() ? Outcome.NO_ANSWER : Outcome.REFUSED_OTHERWISE;
                if (!full) {
                    lastOtherError = e.getMessage();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                ledger.outcome(id, Ledger.FAILED, -1);
                lastOtherError = e.toString();
                outcome = Outcome.NO_ANSWER;
            }
            outcomes[started.ordinal()][outcome.ordinal()].increment();
        }
    }

    void phase(Phase phase) {
        this.phase = phase;
    }

    long count(Phase phase, Outcome outcome) {
        return outcomes[phase.ordinal()][outcome.ordinal()].sum();
    }

    long count(Outcome outcome) {
        long sum = 0;
        for (Phase p : Phase.values()) {
            sum += count(p, outcome);
        }
        return sum;
    }

    long deliveries() {
        return deliveries.sum();
    }

    /** The highest commit-log offset acknowledged so far (-1 before the first). */
    long maxAckedOffset() {
        return maxAckedOffset.get();
    }

    long lastAckNanos() {
        return lastAckNanos.get();
    }

    /** The broker's store host as its message ids carry it (-1 before the first acknowledgement). */
    long storeHost() {
        return storeHost.get();
    }

    String lastOtherError() {
        return lastOtherError;
    }

    void suspendConsumer() {
        consumer.suspend();
    }

    void resumeConsumer() {
        consumer.resume();
    }

    /** Stops the producer threads (the consumer keeps running for the drain). */
    void stopProducing() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopProducing();
        for (Producer p : producers) {
            p.shutdown();
        }
        consumer.shutdown();
    }
}

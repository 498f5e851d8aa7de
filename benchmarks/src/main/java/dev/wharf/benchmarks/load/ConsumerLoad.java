package dev.wharf.benchmarks.load;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.ClientException;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.common.message.MessageExt;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * A push consumer that counts what it receives and records the end-to-end latency (now minus the message's born
 * timestamp, in milliseconds: the resolution of the timestamps) of every message born inside the {@link Window}.
 * Each consume thread records into its own histogram.
 */
final class ConsumerLoad {

    private final PushConsumer consumer;
    private final Window window;
    private final Queue<LatencyHistogram> histograms = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<LatencyHistogram> histogram = ThreadLocal.withInitial(() -> {
        LatencyHistogram h = new LatencyHistogram();
        histograms.add(h);
        return h;
    });
    /** Messages received, whole run (progress lines). */
    final LongAdder consumed = new LongAdder();
    /** Messages received while the window was open. */
    final LongAdder consumedInWindow = new LongAdder();
    private boolean stopped;

    ConsumerLoad(ClientConfig config, String topic, String group, int threads, int batch, Window window) {
        this.window = window;
        this.consumer = new PushConsumer(group, config);
        consumer.subscribe(topic, "*");
        consumer.setConsumeThreadMin(threads);
        consumer.setConsumeThreadMax(threads);
        consumer.setConsumeMessageBatchMaxSize(batch);
        // shutdown waits for listeners in progress, so that the histograms are complete when read
        consumer.setAwaitTerminationMillisWhenShutdown(5_000);
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            long now = System.currentTimeMillis();
            LatencyHistogram h = histogram.get();
            boolean open = window.isOpen();
            for (MessageExt msg : msgs) {
                long born = msg.getBornTimestamp();
                if (window.contains(born)) {
                    h.record(now - born);
                }
            }
            consumed.add(msgs.size());
            if (open) {
                consumedInWindow.add(msgs.size());
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
    }

    void start() throws ClientException {
        consumer.start();
    }

    /** Queues this member owns now. */
    int assignedQueues() {
        return consumer.assignedQueues().size();
    }

    void stop() {
        if (!stopped) {
            stopped = true;
            consumer.shutdown();
        }
    }

    /** End-to-end latencies (ms) of all consume threads; call after {@link #stop()}. */
    LatencyHistogram latencies() {
        LatencyHistogram all = new LatencyHistogram();
        histograms.forEach(all::add);
        return all;
    }
}

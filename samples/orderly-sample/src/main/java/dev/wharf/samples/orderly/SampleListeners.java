package dev.wharf.samples.orderly;

import dev.wharf.spring.annotation.ConsumeMode;
import dev.wharf.spring.annotation.MessageListener;
import dev.wharf.spring.annotation.MessageModel;
import dev.wharf.spring.support.WharfHeaders;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;

/**
 * The listeners, all in one bean: fulfilment (ORDERLY, per order), the price cache (BROADCASTING: every instance)
 * and the price audit (CLUSTERING: the instances share the updates).
 */
@Component
public class SampleListeners {

    private final String run;
    /** Per order, the steps fulfilment saw, in the order it saw them. */
    final Map<Long, List<String>> steps = new ConcurrentHashMap<>();
    final AtomicInteger outOfOrder = new AtomicInteger();
    /** This instance's price cache: per item, the newest update of the run. */
    final Map<String, PriceUpdate> prices = new ConcurrentHashMap<>();
    final AtomicInteger cacheUpdates = new AtomicInteger();
    /** The updates this instance audited (its share). */
    final List<PriceUpdate> audited = new CopyOnWriteArrayList<>();

    SampleListeners(RunId run) {
        this.run = run.value();
    }

    @MessageListener(topic = "order-steps", consumerGroup = "fulfilment", consumeMode = ConsumeMode.ORDERLY,
            consumeThreads = 4)
    void onStep(Step step, @Header(WharfHeaders.QUEUE_ID) int queueId) {
        if (!step.run().equals(run)) {
            return;
        }
        List<String> seen = steps.computeIfAbsent(step.orderId(), id -> new CopyOnWriteArrayList<>());
        if (!Step.ORDER.get(seen.size()).equals(step.step())) {
            outOfOrder.incrementAndGet();
        }
        seen.add(step.step());
    }

    @MessageListener(topic = "price-updates", consumerGroup = "${sample.cache-group:price-cache}",
            messageModel = MessageModel.BROADCASTING)
    void onPriceForCache(PriceUpdate update) {
        if (update.run().equals(run)) {
            // consumed concurrently, so an older update can arrive after a newer one: keep the newer
            prices.merge(update.item(), update, (held, got) -> got.version() > held.version() ? got : held);
            cacheUpdates.incrementAndGet();
        }
    }

    @MessageListener(topic = "price-updates", consumerGroup = "price-audit")
    void onPriceForAudit(PriceUpdate update) {
        if (update.run().equals(run)) {
            audited.add(update);
        }
    }
}

package dev.wharf.spring.boot.actuate;

import dev.wharf.jms.spi.TransactionOutcome;
import dev.wharf.protocol.body.AckStats;
import dev.wharf.spring.boot.transaction.TransactionStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wharf's meters:
 * <ul>
 *   <li>{@code wharf.messages.sent}, {@code wharf.messages.received}, {@code wharf.messages.redelivered}: from Spring's JMS observations (when Micrometer's JMS instrumentation is
 *       present);</li>
 *   <li>{@code wharf.transactions.started}, {@code .committed}, {@code .rolled.back} and
 *       {@code wharf.transaction.checks} (tag {@code outcome}): the application's transactional messages and the
 *       check-backs it answered;</li>
 *   <li>per queue a {@code @JmsListener} consumes (tag {@code queue}): {@code wharf.queue.lag} (messages not yet
 *       acknowledged by its consumers) and {@code wharf.queue.dead.lettered} (moved to {@code %DLQ%<queue>}), read
 *       from the broker at most every {@link QueueStatsCache#MAX_AGE_MILLIS} ms.</li>
 * </ul>
 * Queues are registered by {@link #registerQueues} once the listener containers exist.
 */
public final class WharfMetrics implements MeterBinder {

    private static final Logger log = LoggerFactory.getLogger(WharfMetrics.class);

    private final JmsMessageCounter messages;
    private final TransactionStats transactions;
    private final QueueStatsCache queueStats;
    private final Set<String> registeredQueues = ConcurrentHashMap.newKeySet();
    private volatile MeterRegistry registry;
    private volatile Set<String> pendingQueues = Set.of();

    /**
     * @param messages     counts of the JMS observations, or null without Micrometer's JMS instrumentation
     * @param transactions the transaction counters, or null without transaction support
     * @param client       reads queue state from the broker
     */
    public WharfMetrics(JmsMessageCounter messages, TransactionStats transactions, WharfBrokerClient client) {
        this.messages = messages;
        this.transactions = transactions;
        this.queueStats = new QueueStatsCache(client);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        if (messages != null) {
            counter(registry, "wharf.messages.sent", "Messages sent with JmsTemplate", messages, JmsMessageCounter::sent);
            counter(registry, "wharf.messages.received", "Messages handed to listeners, redeliveries included",
                    messages, JmsMessageCounter::received);
            counter(registry, "wharf.messages.redelivered", "Messages handed to a listener again", messages,
                    JmsMessageCounter::redelivered);
        }
        if (transactions != null) {
            counter(registry, "wharf.transactions.started", "Wharf transactions started by transacted sessions",
                    transactions, TransactionStats::started);
            counter(registry, "wharf.transactions.committed", "Wharf transactions committed", transactions,
                    TransactionStats::committed);
            counter(registry, "wharf.transactions.rolled.back", "Wharf transactions rolled back", transactions,
                    TransactionStats::rolledBack);
            for (TransactionOutcome outcome : TransactionOutcome.values()) {
                FunctionCounter.builder("wharf.transaction.checks", transactions, t -> t.checks(outcome))
                        .description("Broker check-backs answered").tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                        .register(registry);
            }
        }
        registerQueues(pendingQueues);
    }

    /** Adds the lag and dead-letter meters of these queues (each once); before {@link #bindTo}, remembered. */
    public void registerQueues(Set<String> queues) {
        MeterRegistry r = registry;
        if (r == null) {
            pendingQueues = new TreeSet<>(queues);
            return;
        }
        for (String queue : queues) {
            if (!registeredQueues.add(queue)) {
                continue;
            }
            Gauge.builder("wharf.queue.lag", queueStats, s -> s.get(queue).lag())
                    .description("Messages of the queue its consumers have not acknowledged yet").tag("queue", queue)
                    .register(r);
            FunctionCounter.builder("wharf.queue.dead.lettered", queueStats, s -> s.get(queue).deadLettered())
                    .description("Messages of the queue moved to its dead-letter queue").tag("queue", queue)
                    .register(r);
            log.debug("Wharf queue meters registered for {}", queue);
        }
    }

    private static <T> void counter(MeterRegistry registry, String name, String description, T source,
                                    java.util.function.ToDoubleFunction<T> f) {
        FunctionCounter.builder(name, source, f).description(description).register(registry);
    }

    /** The last answer of the broker about each queue, asked again when older than {@link #MAX_AGE_MILLIS}. */
    static final class QueueStatsCache {

        static final long MAX_AGE_MILLIS = 5_000;

        record QueueState(long lag, long deadLettered, long readAt) {
        }

        private final WharfBrokerClient client;
        private final Map<String, QueueState> states = new ConcurrentHashMap<>();

        QueueStatsCache(WharfBrokerClient client) {
            this.client = client;
        }

        QueueState get(String queue) {
            long now = System.currentTimeMillis();
            QueueState s = states.get(queue);
            if (s != null && now - s.readAt() < MAX_AGE_MILLIS) {
                return s;
            }
            QueueState fresh = read(queue, now, s);
            states.put(queue, fresh);
            return fresh;
        }

        private QueueState read(String queue, long now, QueueState previous) {
            try {
                long lag = 0;
                long dead = 0;
                for (AckStats stats : client.queueStats(queue).values()) {
                    if (stats == null || stats.queues() == null) {
                        continue;
                    }
                    for (AckStats.QueueAckStats q : stats.queues()) {
                        lag += q.backlog();
                        dead += q.deadLettered();
                    }
                }
                return new QueueState(lag, dead, now);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                log.debug("Could not read the state of queue {}: {}", queue, e.toString());
                // keep the last known figures (a counter must not go back), and retry after MAX_AGE_MILLIS
                return previous != null ? new QueueState(previous.lag(), previous.deadLettered(), now)
                        : new QueueState(0, 0, now);
            }
        }
    }
}

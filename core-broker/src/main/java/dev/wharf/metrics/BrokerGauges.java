package dev.wharf.metrics;

import dev.wharf.broker.Broker;
import dev.wharf.broker.ha.HaService;
import dev.wharf.broker.ha.ReplicaStatus;
import dev.wharf.broker.ha.SlaveStatus;
import dev.wharf.broker.schedule.ScheduleLayout;
import dev.wharf.broker.schedule.ScheduleService;
import dev.wharf.common.SystemTopics;
import dev.wharf.store.MessageStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Map;

/**
 * The broker's levels, read when scraped: connections and held pulls, open half messages and check-backs,
 * pending scheduled messages, and replication lag (per slave on a master, to the master on a slave).
 */
final class BrokerGauges {

    private final Broker broker;
    private final GaugeTable replicaLag;

    BrokerGauges(MeterRegistry registry, Broker broker, long startedMillis) {
        this.broker = broker;
        Gauge.builder("wharf.connections", broker, Broker::connectionCount)
                .description("Client connections open (producers, consumers, tools)").register(registry);
        Gauge.builder("wharf.pulls.held", broker, Broker::heldPullCount)
                .description("Pulls parked by long polling").register(registry);
        Gauge.builder("wharf.broker.start.time", () -> startedMillis / 1000.0).baseUnit("seconds")
                .description("When the broker started (Unix time)").register(registry);
        Gauge.builder("wharf.transaction.half.open", broker, b -> b.transactions().openTransactionCount())
                .description("Transactions with half messages and no outcome yet").register(registry);
        FunctionCounter.builder("wharf.transaction.checkbacks", broker, b -> b.transactions().checkBacksSent())
                .description("Check-back requests sent to producers").register(registry);
        FunctionCounter.builder("wharf.transaction.check.rounds", broker, b -> b.transactions().checkRounds())
                .description("Rounds of the transaction check-back service").register(registry);
        Gauge.builder("wharf.schedule.pending", broker, BrokerGauges::pendingScheduled).baseUnit("messages")
                .description("Scheduled messages not delivered yet (delay levels and delivery times)").register(registry);
        FunctionCounter.builder("wharf.schedule.delivered", broker, b -> b.schedule().deliveredCount())
                .description("Scheduled messages delivered to their topic").register(registry);
        this.replicaLag = new GaugeTable(registry, "wharf.replication.lag",
                "Commit-log bytes a slave is behind (on a master: per slave; on a slave: to its master)", "bytes");
        Gauge.builder("wharf.replication.in.sync.replicas", broker, BrokerGauges::inSync)
                .description("Slaves within haMaxGapNotInSync of this master").register(registry);
    }

    /** Samples the per-slave replication lag (scrape thread). */
    void refresh() {
        HaService ha = broker.ha();
        Map<Tags, Double> rows = new HashMap<>();
        if (ha != null) {
            SlaveStatus slave = ha.slaveStatus();
            if (slave != null) {
                rows.put(Tags.of("replica", "self"), (double) slave.lagBytes());
            } else {
                for (ReplicaStatus r : ha.replicas()) {
                    rows.put(Tags.of("replica", String.valueOf(r.brokerId())), (double) Math.max(0, r.lagBytes()));
                }
            }
        }
        replicaLag.update(rows);
    }

    private static double inSync(Broker broker) {
        HaService ha = broker.ha();
        return ha == null ? 0 : ha.inSyncReplicaCount();
    }

    /** Messages each delay level and the timer queue hold beyond what was delivered. */
    static double pendingScheduled(Broker broker) {
        ScheduleService schedule = broker.schedule();
        ScheduleLayout layout = schedule.layout();
        MessageStore store = broker.store();
        long pending = 0;
        try {
            for (int level = 1; level <= layout.levelCount(); level++) {
                pending += Math.max(0, store.getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, level - 1)
                        - schedule.levelOffset(level));
            }
        } catch (IllegalArgumentException e) {
            return Double.NaN; // delivery does not run here (a slave): its progress is not known
        }
        pending += Math.max(0, store.getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, layout.timerQueueId())
                - schedule.timerLowWater());
        return pending;
    }
}

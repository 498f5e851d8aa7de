package dev.wharf.samples.order;

import dev.wharf.jms.spi.TransactionOutcome;
import dev.wharf.spring.boot.autoconfigure.WharfConnectionDetails;
import dev.wharf.spring.boot.transaction.TransactionStats;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.stereotype.Component;

/**
 * The run: places the orders one by one, waits until each of them and each order earlier runs left open is
 * settled (or the settle timeout passes), and prints the summary. The exit code is 0 when every order settled.
 */
@Component
class SampleRunner implements CommandLineRunner, ExitCodeGenerator {

    private static final Logger log = LoggerFactory.getLogger(SampleRunner.class);
    /** Longest wait between two looks at the database, in case a signal was missed. */
    private static final long MAX_WAIT_MILLIS = 1_000;

    private final OrderService orderService;
    private final OrderRepository orders;
    private final SampleRun run;
    private final Settlements settlements;
    private final OrderSampleProperties properties;
    private final CrashSwitch crashSwitch;
    private final WharfConnectionDetails broker;
    private final ObjectProvider<TransactionStats> transactionStats;
    private final PrintStream out = System.out;
    private volatile RunSummary summary;

    SampleRunner(OrderService orderService, OrderRepository orders, SampleRun run, Settlements settlements,
                 OrderSampleProperties properties, CrashSwitch crashSwitch, WharfConnectionDetails broker,
                 ObjectProvider<TransactionStats> transactionStats) {
        this.orderService = orderService;
        this.orders = orders;
        this.run = run;
        this.settlements = settlements;
        this.properties = properties;
        this.crashSwitch = crashSwitch;
        this.broker = broker;
        this.transactionStats = transactionStats;
    }

    @Override
    public void run(String... args) throws InterruptedException {
        int count = properties.getOrders();
        if (!run.openFromEarlierRuns().isEmpty()) {
            log.info("Run {}: earlier runs left {} order(s) open: {}", run.number(),
                    run.openFromEarlierRuns().size(), run.openFromEarlierRuns());
        }
        if (crashSwitch.crashAfterOrder() > 0) {
            log.info("Run {}: the JVM will be killed right after the database commit of order #{}", run.number(),
                    run.orderId(crashSwitch.crashAfterOrder()));
        }
        long start = System.nanoTime();
        for (int seq = 1; seq <= count; seq++) {
            orderService.placeOrder(run, seq);
        }
        long placedAt = System.nanoTime();
        Duration placing = Duration.ofNanos(placedAt - start);
        log.info("Run {}: placed {} orders in {} ms; waiting until each is paid, cancelled or dead-lettered",
                run.number(), count, placing.toMillis());

        awaitSettled(placedAt + properties.getSettleTimeout().toNanos());
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

        List<Long> placed = orders.idsOfRun(run.number());
        Map<OrderStatus, List<Long>> byStatus = orders.statusOfRun(run.number());
        orders.statusOf(run.openFromEarlierRuns()).forEach((status, ids) -> {
            byStatus.get(status).addAll(ids);
            byStatus.get(status).sort(null);
        });
        summary = new RunSummary(run.number(), describeBroker(), placed, run.openFromEarlierRuns(), byStatus,
                orders.recoveredIn(run.number()), describeCheckBacks(), properties.getPaymentWindow(), placing,
                elapsed);
        out.print(summary.format());
        out.flush();
    }

    /** Waits until this run's orders and those earlier runs left open are settled, or until the deadline. */
    private void awaitSettled(long deadlineNanos) throws InterruptedException {
        while (true) {
            long seen = settlements.version();
            boolean open = orders.countOpen(run.number(), run.openFromEarlierRuns()) > 0;
            long remaining = deadlineNanos - System.nanoTime();
            if (!open || remaining <= 0) {
                return;
            }
            settlements.awaitChangeAfter(seen, Math.min(MAX_WAIT_MILLIS, remaining / 1_000_000 + 1));
        }
    }

    private String describeBroker() {
        if (broker.embeddedBroker() != null) {
            return "the embedded broker (store " + broker.embeddedBroker().storeDir() + ")";
        }
        return "the broker at " + broker.url();
    }

    private String describeCheckBacks() {
        TransactionStats stats = transactionStats.getIfAvailable();
        if (stats == null) {
            return null;
        }
        return "commit " + stats.checks(TransactionOutcome.COMMIT) + ", rollback "
                + stats.checks(TransactionOutcome.ROLLBACK) + ", unknown " + stats.checks(TransactionOutcome.UNKNOWN);
    }

    /** The summary of the run, once it has finished (null before). */
    RunSummary summary() {
        return summary;
    }

    @Override
    public int getExitCode() {
        RunSummary s = summary;
        return s != null && s.open().isEmpty() ? 0 : 1;
    }
}

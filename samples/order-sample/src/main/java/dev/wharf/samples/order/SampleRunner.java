package dev.wharf.samples.order;

import dev.wharf.jms.spi.TransactionOutcome;
import dev.wharf.spring.boot.autoconfigure.WharfConnectionDetails;
import dev.wharf.spring.boot.transaction.TransactionStats;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
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
                    Order.idOf(run.number(), crashSwitch.crashAfterOrder()));
        }
        long start = System.nanoTime();
        for (int seq = 1; seq <= count; seq++) {
            orderService.placeOrder(run.number(), seq);
        }
        log.info("Run {}: placed {} orders in {} ms; waiting until each is paid, cancelled or dead-lettered",
                run.number(), count, (System.nanoTime() - start) / 1_000_000);

        List<Long> placed = orders.idsOfRun(run.number());
        List<Long> watched = new ArrayList<>(placed);
        watched.addAll(run.openFromEarlierRuns());
        awaitSettled(watched, start + properties.getSettleTimeout().toNanos());
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

        Map<OrderStatus, List<Long>> byStatus = orders.statusOf(watched);
        summary = new RunSummary(run.number(), describeBroker(), placed, run.openFromEarlierRuns(), byStatus,
                orders.recoveredIn(run.number()), describeCheckBacks(), properties.getPaymentWindow(), elapsed);
        out.print(summary.format());
        out.flush();
    }

    private void awaitSettled(List<Long> ids, long deadlineNanos) throws InterruptedException {
        while (true) {
            long seen = settlements.version();
            Map<OrderStatus, List<Long>> byStatus = orders.statusOf(ids);
            boolean open = OrderStatus.OPEN.stream().anyMatch(s -> !byStatus.get(s).isEmpty());
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

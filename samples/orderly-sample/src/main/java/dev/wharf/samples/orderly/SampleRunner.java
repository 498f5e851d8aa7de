package dev.wharf.samples.orderly;

import dev.wharf.spring.boot.autoconfigure.WharfConnectionDetails;
import dev.wharf.spring.core.WharfTemplate;
import dev.wharf.spring.listener.ListenerContainer;
import dev.wharf.spring.listener.MessageListenerRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;

/**
 * The run: starts a second instance of the application beside this one (on this one's broker), waits until the
 * two share the topics' queues, sends every order's four steps keyed by order id from four threads at once and the
 * price updates, waits until every listener got what it should (or the timeout passes) and prints what each got.
 * Exit code 0 when every check passed. The second instance runs no sample of its own.
 */
@Component
class SampleRunner implements CommandLineRunner, ExitCodeGenerator {

    private static final Logger log = LoggerFactory.getLogger(SampleRunner.class);
    private static final String[] ITEMS = { "kettle", "teapot", "mug", "saucer", "spoon" };

    /** A line of the summary. */
    record Check(String listener, String got, boolean ok) {
    }

    private final WharfTemplate wharf;
    private final SampleListeners listeners;
    private final MessageListenerRegistry registry;
    private final WharfConnectionDetails broker;
    private final int orders;
    private final int priceUpdates;
    private final Duration timeout;
    private final String run;
    private final boolean secondInstance;
    private final PrintStream out = System.out;
    private volatile List<Check> checks = List.of();

    SampleRunner(WharfTemplate wharf, SampleListeners listeners, MessageListenerRegistry registry,
                 WharfConnectionDetails broker, @Value("${sample.orders}") int orders,
                 @Value("${sample.price-updates}") int priceUpdates, @Value("${sample.timeout}") Duration timeout,
                 RunId run,
                 @Value("${sample.second-instance:false}") boolean secondInstance) {
        this.wharf = wharf;
        this.listeners = listeners;
        this.registry = registry;
        this.broker = broker;
        this.orders = orders;
        this.priceUpdates = priceUpdates;
        this.timeout = timeout;
        this.run = run.value();
        this.secondInstance = secondInstance;
    }

    @Override
    public void run(String... args) throws Exception {
        if (secondInstance) {
            return;
        }
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        try (ConfigurableApplicationContext second = startSecondInstance()) {
            SampleListeners other = second.getBean(SampleListeners.class);
            MessageListenerRegistry otherRegistry = second.getBean(MessageListenerRegistry.class);
            // clustering groups divide the queues between the instances once both joined: wait for that split
            await(deadline, () -> split(registry, otherRegistry, "sampleListeners#onStep")
                    && split(registry, otherRegistry, "sampleListeners#onPriceForAudit")
                    && !otherRegistry.getContainer("sampleListeners#onPriceForCache").assignedQueues().isEmpty()
                    && !registry.getContainer("sampleListeners#onPriceForCache").assignedQueues().isEmpty());

            sendSteps();
            for (int i = 0; i < priceUpdates; i++) {
                wharf.syncSend("price-updates", new PriceUpdate(ITEMS[i % ITEMS.length], 1_000 + i, i, run));
            }
            int steps = orders * Step.ORDER.size();
            await(deadline, () -> stepCount(listeners) + stepCount(other) >= steps
                    && listeners.cacheUpdates.get() >= priceUpdates && other.cacheUpdates.get() >= priceUpdates
                    && listeners.audited.size() + other.audited.size() >= priceUpdates);
            checks = check(listeners, other);
        }
        print();
    }

    private ConfigurableApplicationContext startSecondInstance() {
        log.info("Starting a second instance of the application on {}", broker.url());
        return new SpringApplicationBuilder(OrderlySampleApplication.class).web(WebApplicationType.NONE)
                .properties("wharf.url=" + broker.url(), "sample.second-instance=true", "sample.run=" + run)
                .run();
    }

    private void sendSteps() throws Exception {
        ExecutorService senders = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> sends = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                // each thread sends the steps of its orders, interleaved with the other threads' orders
                sends.add(senders.submit(() -> {
                    for (String step : Step.ORDER) {
                        for (long order = thread; order < orders; order += 4) {
                            wharf.syncSendOrderly("order-steps", new Step(order, step, run), Long.toString(order));
                        }
                    }
                }));
            }
            for (Future<?> f : sends) {
                f.get();
            }
        } finally {
            senders.shutdownNow();
        }
    }

    private static boolean split(MessageListenerRegistry a, MessageListenerRegistry b, String id) {
        Set<?> mine = a.getContainer(id).assignedQueues();
        Set<?> theirs = b.getContainer(id).assignedQueues();
        Set<Object> both = new HashSet<>(mine);
        both.retainAll(theirs);
        return !mine.isEmpty() && !theirs.isEmpty() && both.isEmpty();
    }

    private static int stepCount(SampleListeners l) {
        return l.steps.values().stream().mapToInt(List::size).sum();
    }

    private List<Check> check(SampleListeners first, SampleListeners second) {
        List<Check> out = new ArrayList<>();
        int inOrder = 0;
        Set<Long> onBoth = new HashSet<>(first.steps.keySet());
        onBoth.retainAll(second.steps.keySet());
        for (int order = 0; order < orders; order++) {
            List<String> seen = first.steps.containsKey((long) order) ? first.steps.get((long) order)
                    : second.steps.getOrDefault((long) order, List.of());
            if (seen.equals(Step.ORDER)) {
                inOrder++;
            }
        }
        int outOfOrder = first.outOfOrder.get() + second.outOfOrder.get();
        out.add(new Check("ORDERLY fulfilment (clustering)", inOrder + " of " + orders + " orders saw "
                + String.join(" > ", Step.ORDER) + " in order; instance 1 handled " + first.steps.size()
                + " orders, instance 2 " + second.steps.size() + ", " + onBoth.size() + " on both",
                inOrder == orders && outOfOrder == 0 && onBoth.isEmpty()));
        boolean sameCache = first.prices.equals(second.prices);
        out.add(new Check("BROADCASTING price cache", "instance 1 got " + first.cacheUpdates.get()
                + " updates, instance 2 " + second.cacheUpdates.get() + " (each all " + priceUpdates + ")"
                + (sameCache ? "" : "; the caches differ: " + first.prices + " against " + second.prices),
                first.cacheUpdates.get() == priceUpdates && second.cacheUpdates.get() == priceUpdates && sameCache));
        int audited = first.audited.size() + second.audited.size();
        out.add(new Check("CLUSTERING price audit", "instance 1 audited " + first.audited.size()
                + ", instance 2 " + second.audited.size() + " (together " + audited + " of " + priceUpdates + ")",
                audited == priceUpdates));
        return out;
    }

    private void print() {
        out.printf(Locale.ROOT, "%nOrderly sample, on %s%n", broker.embeddedBroker() != null
                ? "the embedded broker (store " + broker.embeddedBroker().storeDir() + ")" : "the broker at "
                + broker.url());
        for (Check c : checks) {
            out.printf(Locale.ROOT, "  %-34s %s%s%n", c.listener(), c.got(), c.ok() ? "" : "   (FAILED)");
        }
        boolean ok = !checks.isEmpty() && checks.stream().allMatch(Check::ok);
        out.printf(Locale.ROOT, "%s%n", ok ? "Every listener got what it should."
                : "Some listener did not get what it should within " + timeout.toSeconds() + " s.");
        out.flush();
    }

    private static void await(long deadline, BooleanSupplier done) throws InterruptedException {
        while (!done.getAsBoolean() && System.currentTimeMillis() < deadline) {
            // the listeners run on their own threads; no event tells when they are done
            Thread.sleep(50);
        }
    }

    /** The checks of the finished run (empty before). */
    List<Check> checks() {
        return checks;
    }

    @Override
    public int getExitCode() {
        return !checks.isEmpty() && checks.stream().allMatch(Check::ok) ? 0 : 1;
    }
}

package dev.wharf.samples.listener;

import static dev.wharf.samples.listener.SampleListeners.ALERTS;
import static dev.wharf.samples.listener.SampleListeners.AUDIT;
import static dev.wharf.samples.listener.SampleListeners.HIGH_SEVERITY;
import static dev.wharf.samples.listener.SampleListeners.ORDER_EVENTS;
import static dev.wharf.samples.listener.SampleListeners.PRICES;
import static dev.wharf.samples.listener.SampleListeners.PRICE_ARCHIVE;
import static dev.wharf.samples.listener.SampleListeners.TASKS;
import static dev.wharf.samples.listener.SampleListeners.TASKS_DEAD_LETTERS;

import dev.wharf.spring.boot.autoconfigure.WharfConnectionDetails;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.jms.config.JmsListenerEndpointRegistry;
import org.springframework.jms.listener.DefaultMessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * The run: waits until the topic subscriptions exist, sends to every listener, shuts the durable subscription's
 * listener down while more prices are published and starts it again, waits until every listener got what it
 * should (or the timeout passes) and prints what each got. Exit code 0 when every listener got exactly that.
 */
@Component
class SampleRunner implements CommandLineRunner, ExitCodeGenerator {

    private static final Logger log = LoggerFactory.getLogger(SampleRunner.class);

    static final List<String> TASK_LIST = List.of("wash the cups", "dry the cups", "poison: fold the kettle",
            "stack the cups");
    static final String POISON = "poison: fold the kettle";
    /** Severity and text; the listener's selector lets the HIGH ones through. */
    static final List<List<String>> ALERT_LIST = List.of(List.of("LOW", "disk 70% full"),
            List.of("HIGH", "disk 95% full"), List.of("MEDIUM", "consumer lag rising"),
            List.of("HIGH", "broker unreachable"), List.of("LOW", "certificate expires in 60 days"));
    static final List<String> PRICES_BEFORE = List.of("kettle 24.99", "teapot 18.99", "mug 6.99");
    static final List<String> PRICES_WHILE_AWAY = List.of("kettle 22.99", "teapot 17.49", "mug 5.99");
    static final int EVENTS = 12;

    /** A line of the summary: what a listener should have got and what it got. */
    record Check(String listener, String expected, String got, boolean ok) {
    }

    private final Publisher publisher;
    private final Deliveries deliveries;
    private final JmsListenerEndpointRegistry listeners;
    private final WharfConnectionDetails broker;
    private final Duration timeout;
    private final PrintStream out = System.out;
    private volatile List<Check> checks = List.of();

    SampleRunner(Publisher publisher, Deliveries deliveries, JmsListenerEndpointRegistry listeners,
                 WharfConnectionDetails broker, @Value("${listener.timeout:30s}") Duration timeout) {
        this.publisher = publisher;
        this.deliveries = deliveries;
        this.listeners = listeners;
        this.broker = broker;
        this.timeout = timeout;
    }

    @Override
    public void run(String... args) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        // a topic subscription receives what is published after it exists: wait until the listeners subscribed
        awaitSubscribed(deadline, PRICE_ARCHIVE, AUDIT);

        TASK_LIST.forEach(task -> publisher.toQueue(TASKS, task, Map.of()));
        ALERT_LIST.forEach(a -> publisher.toQueue(ALERTS, a.get(1), Map.of("severity", a.get(0))));
        PRICES_BEFORE.forEach(p -> publisher.toTopic(PRICES, p, Map.of()));
        for (int i = 1; i <= EVENTS; i++) {
            publisher.toTopic(ORDER_EVENTS, "order " + i + " shipped", Map.of());
        }
        await(deadline, d -> d.to(PRICE_ARCHIVE).size() >= PRICES_BEFORE.size());

        DefaultMessageListenerContainer archive = container(PRICE_ARCHIVE);
        archive.shutdown();
        log.info("Listener {} shut down (its connection closed); publishing {} more prices", PRICE_ARCHIVE,
                PRICES_WHILE_AWAY.size());
        PRICES_WHILE_AWAY.forEach(p -> publisher.toTopic(PRICES, p, Map.of()));
        archive.initialize();
        archive.start();
        log.info("Listener {} started again", PRICE_ARCHIVE);

        await(deadline, d -> d.to(TASKS).size() >= TASK_LIST.size() + 2 && d.to(TASKS_DEAD_LETTERS).size() >= 1
                && d.to(ALERTS).size() >= 2 && d.to(PRICE_ARCHIVE).size() >= 6
                && d.to(AUDIT).size() >= EVENTS);
        checks = check();
        print();
    }

    private void awaitSubscribed(long deadline, String... ids) throws InterruptedException {
        for (String id : ids) {
            DefaultMessageListenerContainer c = container(id);
            while (!c.isRegisteredWithDestination() && System.currentTimeMillis() < deadline) {
                // the container's consumers start on their own threads; no event tells when they subscribed
                deliveries.await(d -> c.isRegisteredWithDestination(), 50);
            }
        }
    }

    private void await(long deadline, Predicate<Deliveries> done) throws InterruptedException {
        deliveries.await(done, Math.max(0, deadline - System.currentTimeMillis()));
    }

    private DefaultMessageListenerContainer container(String id) {
        return (DefaultMessageListenerContainer) listeners.getListenerContainer(id);
    }

    private List<Check> check() {
        List<Check> out = new ArrayList<>();
        List<Deliveries.Delivery> tasks = deliveries.to(TASKS);
        long poison = tasks.stream().filter(d -> d.body().equals(POISON)).count();
        long done = tasks.stream().filter(d -> !d.body().equals(POISON)).count();
        out.add(new Check("queue " + TASKS, "3 tasks done, the poison one tried 3 times",
                done + " tasks done, \"" + POISON + "\" tried " + poison + " times (1 delivery + "
                        + Math.max(0, poison - 1) + " redeliveries)", done == 3 && poison == 3));
        List<String> dead = bodies(TASKS_DEAD_LETTERS);
        out.add(new Check("dead-letter queue " + TASKS_DEAD_LETTERS, "the poison task",
                dead.size() + " received: " + quoted(dead), dead.equals(List.of(POISON))));
        List<String> alerts = bodies(ALERTS);
        out.add(new Check("queue " + ALERTS + ", selector " + HIGH_SEVERITY, "the 2 HIGH alerts",
                alerts.size() + " of " + ALERT_LIST.size() + " alerts received: " + quoted(alerts),
                alerts.size() == 2 && alerts.containsAll(List.of("disk 95% full", "broker unreachable"))));
        List<String> prices = bodies(PRICE_ARCHIVE);
        long whileAway = prices.stream().filter(PRICES_WHILE_AWAY::contains).count();
        out.add(new Check("durable subscription " + PRICE_ARCHIVE, "6 prices",
                prices.size() + " prices, " + whileAway + " of them published while its listener was shut down",
                prices.size() == 6 && whileAway == 3));
        List<Deliveries.Delivery> events = deliveries.to(AUDIT);
        Map<String, Long> perThread = events.stream().collect(Collectors.groupingBy(Deliveries.Delivery::thread,
                TreeMap::new, Collectors.counting()));
        out.add(new Check("shared subscription " + AUDIT + " (" + SampleListeners.AUDIT_CONSUMERS + " consumers)",
                EVENTS + " events", events.size() + " events, spread over " + perThread.size() + " consumer(s): "
                        + perThread.values().stream().map(String::valueOf).collect(Collectors.joining(" + ")),
                events.size() == EVENTS));
        return out;
    }

    private List<String> bodies(String listener) {
        return deliveries.to(listener).stream().map(Deliveries.Delivery::body).toList();
    }

    private static String quoted(List<String> bodies) {
        return bodies.stream().map(b -> "\"" + b + "\"").collect(Collectors.joining(", "));
    }

    private void print() {
        out.printf(Locale.ROOT, "%nListener sample, on %s%n", describeBroker());
        for (Check c : checks) {
            out.printf(Locale.ROOT, "  %-44s %s%s%n", c.listener(), c.got(),
                    c.ok() ? "" : "   (expected " + c.expected() + ")");
        }
        if (deliveries.fromEarlierRuns() > 0) {
            out.printf(Locale.ROOT, "  %-44s %d (ignored)%n", "messages left by earlier runs",
                    deliveries.fromEarlierRuns());
        }
        long failed = checks.stream().filter(c -> !c.ok()).count();
        out.printf(Locale.ROOT, "%s%n", failed == 0 ? "Every listener got what was sent to it."
                : failed + " listener(s) did not get what was sent to them within " + timeout.toSeconds() + " s.");
        out.flush();
    }

    private String describeBroker() {
        if (broker.embeddedBroker() != null) {
            return "the embedded broker (store " + broker.embeddedBroker().storeDir() + ")";
        }
        return "the broker at " + broker.url();
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

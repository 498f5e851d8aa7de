package dev.wharf.spring.boot.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.spring.boot.actuate.WharfHealthIndicator;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The starter in a whole Boot application on its embedded broker: Boot's JmsTemplate and {@code @JmsListener}
 * unchanged, dead letters readable as a queue, delivery delay, health and meters.
 */
@SpringBootTest(classes = ShopApplication.class, properties = {
        "spring.application.name=shop-messaging",
        "wharf.max-reconsume-times=2",
        "spring.datasource.url=jdbc:h2:mem:messaging;DB_CLOSE_DELAY=-1"})
// closed after the class, before JUnit deletes the temp folder its broker still writes into
@DirtiesContext
class MessagingEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        registry.add("wharf.embedded.store-dir", () -> dir.resolve("store").toString());
    }

    @Autowired
    JmsTemplate jmsTemplate;
    @Autowired
    ConnectionFactory connectionFactory;
    @Autowired
    ShopListeners listeners;
    @Autowired
    EmbeddedWharfBroker broker;
    @Autowired
    WharfHealthIndicator health;
    @Autowired
    MeterRegistry meters;

    @Test
    void jmsTemplateSendsAndAJmsListenerReceives() {
        jmsTemplate.convertAndSend("orders", "hello");
        await().atMost(WAIT).until(() -> listeners.bodies("orders").contains("hello"));
        assertThat(Files.isDirectory(dir.resolve("store"))).as("the embedded store is where it was put").isTrue();
    }

    @Test
    void aListenerThatAlwaysFailsSendsTheMessageToTheDeadLetterQueue() {
        jmsTemplate.convertAndSend("always-fails", "poison");

        await().atMost(WAIT).until(() -> listeners.bodies("%DLQ%always-fails").contains("poison"));
        List<ShopListeners.Delivery> attempts = listeners.on("always-fails");
        assertThat(attempts).as("the first delivery and wharf.max-reconsume-times=2 redeliveries").hasSize(3);
        assertThat(attempts.get(0).redelivered()).isFalse();
        assertThat(attempts.subList(1, 3)).allMatch(ShopListeners.Delivery::redelivered);
        await().atMost(WAIT).until(() -> meters.find("wharf.queue.dead.lettered").tag("queue", "always-fails")
                .functionCounter() != null
                && meters.find("wharf.queue.dead.lettered").tag("queue", "always-fails").functionCounter().count() >= 1);
        assertThat(meters.find("wharf.messages.redelivered").functionCounter().count()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aDelayedMessageArrivesAfterItsDelay() {
        JmsTemplate delayed = new JmsTemplate(connectionFactory);
        delayed.setDeliveryDelay(1500);
        long sentAt = System.currentTimeMillis();
        delayed.convertAndSend("later", "in a moment");

        await().atMost(WAIT).until(() -> listeners.bodies("later").contains("in a moment"));
        assertThat(listeners.on("later").get(0).at() - sentAt).isGreaterThanOrEqualTo(1400);
    }

    @Test
    void healthShowsTheEmbeddedBrokerAndItsStore() {
        Health h = health.health(true);
        assertThat(h.getStatus()).isEqualTo(Status.UP);
        assertThat(h.getDetails()).containsEntry("embedded", true).containsKeys("diskUsedPercent", "brokers",
                "storedMessages").containsEntry("storeDir", broker.storeDir().toString());
        assertThat(h.getDetails().get("brokers")).asString().isEqualTo("[wharf-embedded]");
    }

    @Test
    void metersCountWhatWasSentAndReceived() {
        jmsTemplate.convertAndSend("orders", "counted");
        await().atMost(WAIT).until(() -> listeners.bodies("orders").contains("counted"));
        await().atMost(WAIT).until(() -> meters.find("wharf.messages.received").functionCounter().count() >= 1);
        assertThat(meters.find("wharf.messages.sent").functionCounter().count()).isGreaterThanOrEqualTo(1);
        assertThat(meters.find("wharf.transactions.started").functionCounter().count())
                .as("the default template is transacted when there is a DataSource").isGreaterThanOrEqualTo(1);
        await().atMost(WAIT).until(() -> meters.find("wharf.queue.lag").tag("queue", "orders").gauge() != null
                && meters.find("wharf.queue.lag").tag("queue", "orders").gauge().value() == 0);
    }
}

package dev.wharf.compat.boot35;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.spring.annotation.MessageListener;
import dev.wharf.spring.boot.actuate.WharfHealthIndicator;
import dev.wharf.spring.boot.embedded.EmbeddedWharfBroker;
import dev.wharf.spring.boot.it.ShopApplication;
import dev.wharf.spring.boot.it.ShopListeners;
import dev.wharf.spring.core.WharfTemplate;
import dev.wharf.spring.support.WharfHeaders;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.util.Version;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.core.SpringVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The shop as a Spring Boot 3.5 application on the Boot 3 starter and its embedded broker: the application starts
 * (Boot's own JMS auto-configuration and Wharf's side by side), Boot's JmsTemplate and {@code @JmsListener} work
 * unchanged, dead letters, health through Boot 3's actuator, meters, and a database rollback that sends nothing;
 * and the RocketMQ-style API: a {@code @MessageListener} answering a WharfTemplate request with JSON.
 */
@SpringBootTest(classes = { ShopApplication.class, Boot35MessagingTest.Greeter.class }, properties = {
        "spring.application.name=shop-boot35",
        "wharf.max-reconsume-times=2",
        "spring.sql.init.mode=always",
        "management.endpoint.health.show-details=always",
        "spring.datasource.url=jdbc:h2:mem:boot35;DB_CLOSE_DELAY=-1"})
// closed after the class, before JUnit deletes the temp folder its broker still writes into
@DirtiesContext
class Boot35MessagingTest {

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
    ShopListeners listeners;
    @Autowired
    EmbeddedWharfBroker broker;
    @Autowired
    WharfHealthIndicator health;
    @Autowired
    HealthEndpoint healthEndpoint;
    @Autowired
    MeterRegistry meters;
    @Autowired
    dev.wharf.spring.boot.it.OrderService orders;

    /** A {@code @MessageListener} whose return value is the reply. */
    static class Greeter {

        record Greeting(String to, int times) {
        }

        @MessageListener(topic = "boot35-greetings", consumerGroup = "boot35-greeter")
        Greeting greet(Greeting request, @Header(WharfHeaders.TAGS) String tag) {
            return new Greeting(request.to() + " (" + tag + ")", request.times() + 1);
        }
    }

    @Autowired
    WharfTemplate wharfTemplate;

    @Test
    void aMessageListenerAnswersAWharfTemplateRequestOnBoot35() {
        Greeter.Greeting reply = wharfTemplate.sendAndReceive("boot35-greetings:hello",
                new Greeter.Greeting("boot", 1), Greeter.Greeting.class, WAIT);
        assertThat(reply).isEqualTo(new Greeter.Greeting("boot (hello)", 2));
        assertThat(health.getHealth(true).getDetails().get("listeners").toString())
                .contains("greeter#greet=RUNNING");
    }

    @Test
    void theApplicationRunsOnBoot35SpringFramework62AndNetty41() {
        assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
        assertThat(SpringVersion.getVersion()).startsWith("6.2.");
        assertThat(Version.identify().get("netty-transport").artifactVersion()).startsWith("4.1.");
        assertThatThrownBy(() -> Class.forName("org.springframework.boot.jms.autoconfigure.JmsAutoConfiguration"))
                .as("nothing of Boot 4's JMS module is on the classpath").isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void jmsTemplateSendsAndAJmsListenerReceives() {
        jmsTemplate.convertAndSend("orders", "hello from boot 3.5");
        await().atMost(WAIT).until(() -> listeners.bodies("orders").contains("hello from boot 3.5"));
    }

    @Test
    void aDatabaseCommitSendsAndARollbackSendsNothing() {
        orders.placeOrder(101, "kettle", false);
        assertThatThrownBy(() -> orders.placeOrder(102, "toaster", true)).hasMessageContaining("payment declined");
        orders.placeOrder(103, "marker", false);

        await().atMost(WAIT).until(() -> listeners.bodies("orders").containsAll(List.of("order 101", "order 103")));
        assertThat(listeners.bodies("orders")).doesNotContain("order 102");
        assertThat(orders.orderCount(101)).isEqualTo(1);
        assertThat(orders.orderCount(102)).isZero();
    }

    @Test
    void aListenerThatAlwaysFailsSendsTheMessageToTheDeadLetterQueue() {
        jmsTemplate.convertAndSend("always-fails", "poison");

        await().atMost(WAIT).until(() -> listeners.bodies("%DLQ%always-fails").contains("poison"));
        assertThat(listeners.on("always-fails")).as("the first delivery and 2 redeliveries").hasSize(3);
    }

    @Test
    void healthShowsTheEmbeddedBrokerThroughBoot3sActuator() {
        Health h = health.getHealth(true);
        assertThat(h.getStatus()).isEqualTo(Status.UP);
        assertThat(h.getDetails()).containsEntry("embedded", true).containsKeys("diskUsedPercent", "brokers")
                .containsEntry("storeDir", broker.storeDir().toString());
        assertThat(healthEndpoint.healthForPath("wharf").getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void metersCountWhatWasSentAndReceived() {
        jmsTemplate.convertAndSend("orders", "counted");
        await().atMost(WAIT).until(() -> listeners.bodies("orders").contains("counted"));
        await().atMost(WAIT).until(() -> meters.find("wharf.messages.received").functionCounter() != null
                && meters.find("wharf.messages.received").functionCounter().count() >= 1);
        assertThat(meters.find("wharf.messages.sent").functionCounter().count()).isGreaterThanOrEqualTo(1);
    }
}

package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Rules about the life of producers, consumers and connections the audit found untested (Jakarta Messaging 3.1,
 * 6.1.4, 6.1.5, 7.2, 7.3, 8.2): producer defaults, closed producers and consumers refuse everything but close,
 * a stopped connection delivers nothing, and closing a connection acknowledges nothing.
 */
@Timeout(60)
class ObjectLifecycleRulesTest {

    private static final VmNames VM = new VmNames("lifecycle");
    private static WharfConnectionFactory factory;

    @BeforeAll
    static void broker() {
        factory = new WharfConnectionFactory(VM.url());
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    @Test
    void producersStartWithTheSpecifiedDefaults() throws Exception {
        try (Connection c = factory.createConnection()) {
            MessageProducer p = c.createSession().createProducer(null);
            assertThat(p.getDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
            assertThat(p.getPriority()).isEqualTo(Message.DEFAULT_PRIORITY);
            assertThat(p.getTimeToLive()).isEqualTo(Message.DEFAULT_TIME_TO_LIVE);
            assertThat(p.getDeliveryDelay()).isEqualTo(Message.DEFAULT_DELIVERY_DELAY);
            assertThat(p.getDisableMessageID()).isFalse();
            assertThat(p.getDisableMessageTimestamp()).isFalse();
            assertThat(p.getDestination()).isNull();
        }
        try (JMSContext ctx = factory.createContext()) {
            JMSProducer p = ctx.createProducer();
            assertThat(p.getDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
            assertThat(p.getPriority()).isEqualTo(Message.DEFAULT_PRIORITY);
            assertThat(p.getTimeToLive()).isZero();
            assertThat(p.getDeliveryDelay()).isZero();
            assertThat(p.getAsync()).isNull();
            assertThat(p.getPropertyNames()).isEmpty();
        }
    }

    @Test
    void closedProducersAndConsumersRefuseEverythingButClose() throws Exception {
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession();
            Queue q = s.createQueue("lifecycle-closed");
            MessageProducer p = s.createProducer(q);
            MessageConsumer consumer = s.createConsumer(q, "a IS NULL");
            p.close();
            p.close();
            consumer.close();
            consumer.close();
            assertThatThrownBy(() -> p.send(s.createTextMessage("x"))).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(p::getDeliveryMode).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> p.setPriority(1)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(consumer::getMessageSelector).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(consumer::getMessageListener).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> consumer.setMessageListener(m -> { })).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(consumer::receiveNoWait).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aStoppedConnectionDeliversNothingUntilStarted() throws Exception {
        try (Connection c = factory.createConnection()) {
            Session s = c.createSession();
            Queue q = s.createQueue("lifecycle-stopped");
            s.createProducer(q).send(s.createTextMessage("waiting"));
            MessageConsumer consumer = s.createConsumer(q);
            assertThat(consumer.receive(500)).as("created stopped (6.1.4)").isNull();
            c.start();
            assertThat(consumer.receive(5_000)).isNotNull();
            c.stop();
            s.createProducer(q).send(s.createTextMessage("after stop"));
            assertThat(consumer.receive(500)).as("stopped again").isNull();
            c.start();
            assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("after stop");
        }
    }

    @Test
    void closingAConnectionAcknowledgesNothingAndAcknowledgingAfterwardsIsRefused() throws Exception {
        Queue q;
        Message held;
        try (Connection c = factory.createConnection()) {
            c.start();
            Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
            q = s.createQueue("lifecycle-ack-after-close");
            s.createProducer(q).send(s.createTextMessage("held"));
            held = s.createConsumer(q).receive(5_000);
            assertThat(held).isNotNull();
        }
        assertThatThrownBy(held::acknowledge).as("6.1.5").isInstanceOf(IllegalStateException.class);
        assertThat(((TextMessage) held).getText()).as("the message object itself stays usable").isEqualTo("held");
        try (Connection c = factory.createConnection()) {
            c.start();
            Message again = c.createSession().createConsumer(q).receive(5_000);
            assertThat(again).as("not acknowledged by the close").isNotNull();
            assertThat(again.getJMSRedelivered()).isTrue();
        }
    }

    @Test
    void aNullDestinationIsAnInvalidDestinationEverywhere() throws Exception {
        try (Connection c = factory.createConnection()) {
            c.setClientID("lifecycle-null-destinations");
            Session s = c.createSession();
            assertThatThrownBy(() -> s.createConsumer(null)).isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createBrowser(null)).isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createDurableConsumer(null, "d")).isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createSharedConsumer(null, "d")).isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createProducer(null).send(s.createMessage()))
                    .as("an anonymous producer needs a destination per send")
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> s.createProducer(null).send((Destination) null, s.createMessage()))
                    .isInstanceOf(InvalidDestinationException.class);
        }
        try (JMSContext ctx = factory.createContext()) {
            assertThatThrownBy(() -> ctx.createConsumer(null)).isInstanceOf(InvalidDestinationRuntimeException.class);
            assertThatThrownBy(() -> ctx.createBrowser(null)).isInstanceOf(InvalidDestinationRuntimeException.class);
        }
    }
}

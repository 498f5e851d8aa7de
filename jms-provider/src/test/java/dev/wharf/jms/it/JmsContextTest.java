package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The simplified API: JMSContext, JMSProducer, JMSConsumer (Jakarta Messaging 3.1, 6.3, 7, 8). */
class JmsContextTest {

    private static final VmNames VM = new VmNames("context");
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
    void sendAndReceiveBodiesWithHeadersAndProperties() throws Exception {
        try (JMSContext ctx = factory.createContext()) {
            Queue q = ctx.createQueue("context-basic");
            Queue replies = ctx.createQueue("context-replies");
            JMSProducer p = ctx.createProducer().setProperty("tenant", "acme").setProperty("n", 3)
                    .setJMSCorrelationID("c-1").setJMSType("greeting").setJMSReplyTo(replies).setPriority(6);
            assertThat(p.getIntProperty("n")).isEqualTo(3);
            assertThat(p.getStringProperty("n")).isEqualTo("3");
            assertThat(p.getPropertyNames()).containsExactly("tenant", "n");
            p.send(q, "hello");
            p.send(q, Map.of("k", 1));
            p.send(q, new byte[] {1, 2});
            p.send(q, 42L);
            JMSConsumer consumer = ctx.createConsumer(q);
            Message m = consumer.receive(5_000);
            assertThat(m.getBody(String.class)).isEqualTo("hello");
            assertThat(m.getStringProperty("tenant")).isEqualTo("acme");
            assertThat(m.getJMSCorrelationID()).isEqualTo("c-1");
            assertThat(m.getJMSType()).isEqualTo("greeting");
            assertThat(m.getJMSReplyTo()).isEqualTo(replies);
            assertThat(m.getJMSPriority()).isEqualTo(6);
            assertThat(consumer.receiveBody(Map.class, 5_000)).containsEntry("k", 1);
            assertThat(consumer.receiveBody(byte[].class, 5_000)).containsExactly(1, 2);
            assertThat(consumer.receiveBody(Long.class, 5_000)).isEqualTo(42L);
            assertThat(consumer.receiveBodyNoWait(String.class)).isNull();
        }
    }

    @Test
    void aBodyOfTheWrongTypeIsDeliveredAgainInAutoAcknowledgeMode() throws Exception {
        try (JMSContext ctx = factory.createContext()) {
            Queue q = ctx.createQueue("context-wrong-body");
            ctx.createProducer().send(q, "text, not a number");
            JMSConsumer consumer = ctx.createConsumer(q);
            assertThatThrownBy(() -> consumer.receiveBody(Integer.class, 5_000))
                    .isInstanceOf(MessageFormatRuntimeException.class);
            TextMessage again = (TextMessage) consumer.receive(5_000);
            assertThat(again.getText()).isEqualTo("text, not a number");
            assertThat(again.getJMSRedelivered()).as("not a redelivery").isFalse();
        }
    }

    @Test
    void contextsCreatedFromAContextShareItsConnection() {
        JMSContext first = factory.createContext();
        first.setClientID("context-shared-id");
        JMSContext second = first.createContext(JMSContext.CLIENT_ACKNOWLEDGE);
        assertThat(second.getClientID()).isEqualTo("context-shared-id");
        assertThat(second.getSessionMode()).isEqualTo(JMSContext.CLIENT_ACKNOWLEDGE);
        first.close();
        Queue q = second.createQueue("context-shared");
        second.createProducer().send(q, "still connected");
        assertThat(second.createConsumer(q).receiveBody(String.class, 5_000)).isEqualTo("still connected");
        second.acknowledge();
        second.close();
        second.close();
        assertThatThrownBy(() -> second.createProducer()).isInstanceOf(IllegalStateRuntimeException.class);
        try (JMSContext third = factory.createContext()) {
            third.setClientID("context-shared-id");
        }
    }

    @Test
    void theClientIdCanOnlyBeSetFirst() {
        try (JMSContext ctx = factory.createContext()) {
            ctx.createProducer().send(ctx.createQueue("context-id"), "used");
            assertThatThrownBy(() -> ctx.setClientID("late")).isInstanceOf(IllegalStateRuntimeException.class);
        }
    }

    @Test
    void aListenerMustNotCloseOrStopItsOwnContext() {
        try (JMSContext ctx = factory.createContext()) {
            Queue q = ctx.createQueue("context-listener");
            List<Class<?>> refusals = Collections.synchronizedList(new ArrayList<>());
            ctx.createConsumer(q).setMessageListener(m -> {
                for (Runnable r : List.<Runnable>of(ctx::close, ctx::stop)) {
                    try {
                        r.run();
                        refusals.add(Void.class);
                    } catch (RuntimeException e) {
                        refusals.add(e.getClass());
                    }
                }
            });
            ctx.createProducer().send(q, "x");
            await().atMost(Duration.ofSeconds(10)).until(() -> refusals.size() == 2);
            assertThat(refusals).containsOnly(IllegalStateRuntimeException.class);
        }
    }

    @Test
    void autoStartCanBeTurnedOff() {
        try (JMSContext ctx = factory.createContext()) {
            ctx.setAutoStart(false);
            Queue q = ctx.createQueue("context-autostart");
            ctx.createProducer().send(q, "waiting");
            JMSConsumer consumer = ctx.createConsumer(q);
            assertThat(consumer.receive(300)).isNull();
            ctx.start();
            assertThat(consumer.receiveBody(String.class, 5_000)).isEqualTo("waiting");
        }
    }

    @Test
    void checkedFailuresBecomeTheirUncheckedTwins() {
        try (JMSContext ctx = factory.createContext()) {
            JMSProducer p = ctx.createProducer();
            assertThatThrownBy(() -> p.setPriority(11)).isInstanceOf(JMSRuntimeException.class);
            assertThatThrownBy(() -> p.send(null, "x")).isInstanceOf(InvalidDestinationRuntimeException.class);
            assertThatThrownBy(() -> ctx.createQueue("bad name")).isInstanceOf(InvalidDestinationRuntimeException.class);
            assertThatThrownBy(ctx::commit).isInstanceOf(IllegalStateRuntimeException.class);
            assertThatThrownBy(() -> p.setProperty("JMSWrong", 1)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}

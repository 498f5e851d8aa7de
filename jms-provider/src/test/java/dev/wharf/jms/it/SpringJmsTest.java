package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.jms.listener.DefaultMessageListenerContainer;
import org.springframework.jms.listener.SessionAwareMessageListener;

/** Spring's JmsTemplate and DefaultMessageListenerContainer on this ConnectionFactory, without Spring Boot. */
class SpringJmsTest {

    private static final VmNames VM = new VmNames("spring");
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
    void jmsTemplateSendsAndReceives() {
        JmsTemplate template = new JmsTemplate(factory);
        template.setReceiveTimeout(5_000);
        template.convertAndSend("spring-template", "hello from JmsTemplate");
        assertThat(template.receiveAndConvert("spring-template")).isEqualTo("hello from JmsTemplate");
        template.setPubSubDomain(false);
        template.send("spring-template", s -> {
            TextMessage m = s.createTextMessage("with a property");
            m.setStringProperty("kind", "test");
            return m;
        });
        assertThat(template.receiveSelectedAndConvert("spring-template", "kind = 'test'"))
                .isEqualTo("with a property");
    }

    /**
     * Redelivery after a listener failure, in the container's two modes that redeliver: a transacted session
     * (rolled back) and CLIENT_ACKNOWLEDGE (recovered). Spring's AUTO_ACKNOWLEDGE acknowledges before the
     * listener runs, by design, and so never redelivers.
     */
    @ParameterizedTest(name = "sessionTransacted = {0}")
    @ValueSource(booleans = {true, false})
    void aListenerContainerConsumesAndRedeliversAfterAFailure(boolean transacted) throws Exception {
        String queue = "spring-container-" + transacted;
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        DefaultMessageListenerContainer container = container(queue, transacted,
                transacted ? Session.AUTO_ACKNOWLEDGE : Session.CLIENT_ACKNOWLEDGE, seen);
        try {
            JmsTemplate template = new JmsTemplate(factory);
            template.convertAndSend(queue, "fail once");
            template.convertAndSend(queue, "fine");
            // untilAsserted: a timeout shows what the listener did see
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(List.copyOf(seen)).contains("fail once(again)", "fine"));
            assertThat(seen).containsOnlyOnce("fine");
        } finally {
            container.shutdown();
        }
    }

    @Test
    void anAutoAcknowledgeContainerConsumesEachMessageOnce() throws Exception {
        String queue = "spring-container-auto";
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        DefaultMessageListenerContainer container = container(queue, false, Session.AUTO_ACKNOWLEDGE, seen);
        try {
            JmsTemplate template = new JmsTemplate(factory);
            template.convertAndSend(queue, "fail once");
            template.convertAndSend(queue, "fine");
            await().atMost(Duration.ofSeconds(20)).until(() -> seen.size() == 2);
            // JmsTemplate sends each message from a session of its own, so they need not arrive in send order
            assertThat(seen).as("acknowledged before the listener ran: no redelivery")
                    .containsExactlyInAnyOrder("fail once", "fine");
        } finally {
            container.shutdown();
        }
    }

    private static DefaultMessageListenerContainer container(String queue, boolean transacted, int ackMode,
                                                             List<String> seen) {
        DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
        container.setConnectionFactory(factory);
        container.setDestinationName(queue);
        container.setSessionTransacted(transacted);
        container.setSessionAcknowledgeMode(ackMode);
        container.setReceiveTimeout(500);
        container.setMessageListener((SessionAwareMessageListener<TextMessage>) (m, session) -> {
            seen.add(m.getText() + (m.getJMSRedelivered() ? "(again)" : ""));
            if ("fail once".equals(m.getText()) && !m.getJMSRedelivered()) {
                throw new JMSException("first attempt fails");
            }
            assertThat(session.getTransacted()).isEqualTo(transacted);
        });
        container.afterPropertiesSet();
        container.start();
        return container;
    }
}

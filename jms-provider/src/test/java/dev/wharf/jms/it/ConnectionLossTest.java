package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.testing.TestWharf;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Losing the broker: the exception listener hears of it once, and once a broker runs again on the same store and
 * port the same connection carries on (the client reconnects by itself).
 */
class ConnectionLossTest {

    @TempDir
    Path store;
    private TestWharf wharf;

    @BeforeEach
    void start() throws Exception {
        wharf = TestWharf.loopback(store);
    }

    @AfterEach
    void stop() {
        wharf.close();
    }

    @Test
    void theExceptionListenerFiresAndTheConnectionRecoversAfterARestart() throws Exception {
        WharfConnectionFactory f = new WharfConnectionFactory(wharf.url() + "?heartbeatBrokerInterval=300"
                + "&pollNameServerInterval=300&sendTimeout=1000");
        try (Connection c = f.createConnection()) {
            List<JMSException> reported = Collections.synchronizedList(new ArrayList<>());
            c.setExceptionListener(reported::add);
            Session listening = c.createSession();
            Queue q = listening.createQueue("loss-queue");
            List<String> received = Collections.synchronizedList(new ArrayList<>());
            listening.createConsumer(q).setMessageListener(m -> {
                try {
                    received.add(((TextMessage) m).getText());
                } catch (JMSException e) {
                    throw new RuntimeException(e);
                }
            });
            c.start();
            Session sending = c.createSession();
            MessageProducer p = sending.createProducer(q);
            p.send(sending.createTextMessage("before"));
            await().atMost(Duration.ofSeconds(10)).until(() -> received.contains("before"));

            wharf.stopBroker();
            await().atMost(Duration.ofSeconds(10)).until(() -> reported.size() == 1);
            assertThat(reported.get(0).getErrorCode()).isEqualTo("CONNECTION_LOST");
            assertThat(reported.get(0).getMessage()).contains("lost its broker");
            assertThatThrownBy(() -> p.send(sending.createTextMessage("while down"))).isInstanceOf(JMSException.class);

            wharf.startBroker();
            await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
                p.send(sending.createTextMessage("after"));
                return true;
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> received.contains("after"));
            assertThat(reported).as("one report per outage").hasSize(1);
        }
    }
}

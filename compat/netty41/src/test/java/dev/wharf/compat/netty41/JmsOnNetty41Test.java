package dev.wharf.compat.netty41;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.testing.TestWharf;
import io.netty.util.Version;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A JMS application on Netty 4.1: a NameServer and a broker on loopback sockets in this JVM, a client that sends,
 * receives, commits and rolls back; the broker on the native (epoll) and on the NIO transport.
 */
class JmsOnNetty41Test {

    @TempDir
    Path store;

    @Test
    void theClasspathCarriesNetty41() {
        assertThat(Version.identify().get("netty-transport").artifactVersion()).startsWith("4.1.");
    }

    @ParameterizedTest(name = "useEpoll={0}")
    @ValueSource(booleans = { true, false })
    void sendReceiveCommitAndRollBack(boolean useEpoll) throws Exception {
        try (TestWharf wharf = TestWharf.loopback(store, Map.of("useEpoll", String.valueOf(useEpoll)));
             Connection c = new WharfConnectionFactory(wharf.url()).createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = s.createQueue("netty41-orders");
            MessageProducer p = s.createProducer(q);
            for (int i = 0; i < 100; i++) {
                p.send(s.createTextMessage("order-" + i));
            }
            MessageConsumer consumer = s.createConsumer(q);
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                TextMessage m = (TextMessage) consumer.receive(10_000);
                assertThat(m).as("message %d of 100", i).isNotNull();
                got.add(m.getText());
            }
            assertThat(got).hasSize(100).doesNotHaveDuplicates().contains("order-0", "order-99");

            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer txp = tx.createProducer(q);
            txp.send(tx.createTextMessage("rolled-back"));
            tx.rollback();
            txp.send(tx.createTextMessage("committed"));
            tx.commit();
            TextMessage m = (TextMessage) consumer.receive(10_000);
            assertThat(m).isNotNull();
            assertThat(m.getText()).isEqualTo("committed");
            assertThat(consumer.receive(500)).as("the rolled-back send is never delivered").isNull();
        }
    }
}

package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.ClientConfig;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.testing.TestWharf;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Temporary queues and topics: broker topics that live as long as their connection (6.2.2). */
class TemporaryDestinationTest {

    @TempDir
    Path store;
    private TestWharf wharf;
    private AdminClient admin;

    @BeforeEach
    void start() throws Exception {
        wharf = TestWharf.loopback(store);
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(wharf.namesrvAddr());
        config.setInstanceName("temp-admin");
        admin = new AdminClient(config);
        admin.start();
    }

    @AfterEach
    void stop() {
        admin.shutdown();
        wharf.close();
    }

    private boolean exists(String topic) throws Exception {
        return admin.topics().contains(topic);
    }

    @Test
    void aTemporaryQueueExistsUntilDeletedAndCanBeSentTo() throws Exception {
        try (Connection c = new WharfConnectionFactory(wharf.url()).createConnection()) {
            Session s = c.createSession();
            TemporaryQueue q = s.createTemporaryQueue();
            assertThat(q.getQueueName()).startsWith("TMP_");
            await().atMost(Duration.ofSeconds(10)).until(() -> exists(q.getQueueName()));
            s.createProducer(q).send(s.createTextMessage("to a temporary queue"));
            assertThat(Stored.read(wharf.namesrvAddr(), q.getQueueName(), 1)).hasSize(1);
            q.delete();
            q.delete();
            await().atMost(Duration.ofSeconds(10)).until(() -> !exists(q.getQueueName()));
            assertThatThrownBy(() -> s.createProducer(q).send(s.createMessage()))
                    .isInstanceOf(InvalidDestinationException.class).hasMessageContaining("deleted");
        }
    }

    @Test
    void closingTheConnectionDeletesItsTemporaryDestinations() throws Exception {
        Connection c = new WharfConnectionFactory(wharf.url()).createConnection();
        Session s = c.createSession();
        TemporaryQueue q = s.createTemporaryQueue();
        TemporaryTopic t = s.createTemporaryTopic();
        await().atMost(Duration.ofSeconds(10)).until(() -> exists(q.getQueueName()) && exists(t.getTopicName()));
        c.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> !exists(q.getQueueName()) && !exists(t.getTopicName()));
        q.delete();
    }

    @Test
    void onlyTheCreatingConnectionMayDeleteIt() throws Exception {
        try (Connection c = new WharfConnectionFactory(wharf.url()).createConnection()) {
            TemporaryQueue q = c.createSession().createTemporaryQueue();
            TemporaryQueue copy = roundTrip(q);
            assertThat(copy).isEqualTo(q);
            assertThatThrownBy(copy::delete).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("only the connection that created it");
            q.delete();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T object) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }
}

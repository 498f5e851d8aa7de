package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.security.AclFile;
import dev.wharf.security.Action;
import dev.wharf.security.PasswordHasher;
import dev.wharf.security.Policy;
import dev.wharf.security.User;
import dev.wharf.testing.TestWharf;
import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMS against a broker with aclEnable on a real loopback port (Jakarta Messaging 3.1, 6.1.1 and the
 * {@code JMSContext} exception table): a refused user name or password fails connection creation with
 * {@link JMSSecurityException}, a refused send names the destination, and the simplified API throws the runtime twin.
 */
class SecurityTest {

    private static final String PASSWORD = "jms-password-1";

    @TempDir
    static Path dir;
    private static TestWharf wharf;

    @BeforeAll
    static void start() throws Exception {
        Path acl = dir.resolve("acl.json");
        AclFile.write(acl, List.of(
                user("app", Policy.allow("topic:secure-*", Action.PUB, Action.SUB),
                        Policy.allow("group:secure-*", Action.SUB)),
                user("reader", Policy.allow("topic:secure-*", Action.SUB), Policy.allow("group:secure-*", Action.SUB))));
        wharf = TestWharf.loopback(dir.resolve("store"), Map.of("aclEnable", "true", "aclFile", acl.toString()));
    }

    @AfterAll
    static void stop() {
        if (wharf != null) {
            wharf.close();
        }
    }

    private static User user(String name, Policy... policies) {
        return new User(name, PasswordHasher.hash(name, PASSWORD.toCharArray()), false, List.of(policies));
    }

    @Test
    void aWrongPasswordOrNoUserFailsTheConnectionWithJmsSecurityException() {
        WharfConnectionFactory factory = new WharfConnectionFactory(wharf.url());
        assertThatThrownBy(() -> factory.createConnection("app", "not-the-password"))
                .isInstanceOf(JMSSecurityException.class)
                .hasMessageContaining("authentication of user 'app' failed")
                .hasMessageContaining("Check the user name and password");
        assertThatThrownBy(factory::createConnection).isInstanceOf(JMSSecurityException.class)
                .hasMessageContaining("carries no credentials");
        assertThatThrownBy(() -> factory.createContext("app", "not-the-password"))
                .isInstanceOf(JMSSecurityRuntimeException.class);
        assertThatThrownBy(() -> factory.createConnection("app", "short")).isInstanceOf(JMSSecurityException.class)
                .hasMessageContaining("shorter than 8 characters");
    }

    @Test
    void aUserWithTheRightsSendsAndReceivesGivenToTheFactoryOrTheCall() throws Exception {
        WharfConnectionFactory byUrl = new WharfConnectionFactory(wharf.url() + "?user=app&password=" + PASSWORD);
        try (Connection c = byUrl.createConnection()) {
            Session s = c.createSession();
            Queue q = s.createQueue("secure-orders");
            s.createProducer(q).send(s.createTextMessage("first"));
        }
        WharfConnectionFactory factory = new WharfConnectionFactory(wharf.url());
        assertThat(factory.toString()).doesNotContain(PASSWORD);
        try (Connection c = factory.createConnection("reader", PASSWORD)) {
            c.start();
            Session s = c.createSession();
            MessageConsumer consumer = s.createConsumer(s.createQueue("secure-orders"));
            TextMessage got = (TextMessage) consumer.receive(20_000);
            assertThat(got).isNotNull();
            assertThat(got.getText()).isEqualTo("first");
        }
    }

    @Test
    void aRefusedSendNamesUserAndDestination() throws Exception {
        WharfConnectionFactory factory = new WharfConnectionFactory(wharf.url());
        try (Connection c = factory.createConnection("reader", PASSWORD)) {
            Session s = c.createSession();
            Queue q = s.createQueue("secure-payments");
            assertThatThrownBy(() -> s.createProducer(q).send(s.createTextMessage("x")))
                    .isInstanceOf(JMSSecurityException.class)
                    .hasMessageContaining("user 'reader' lacks PUB on topic:secure-payments");
        }
        try (JMSContext context = factory.createContext("reader", PASSWORD)) {
            assertThatThrownBy(() -> context.createProducer().send(context.createQueue("secure-payments"), "x"))
                    .isInstanceOf(JMSSecurityRuntimeException.class)
                    .hasMessageContaining("secure-payments");
        }
    }
}

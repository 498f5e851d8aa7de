package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The typing rules of selectors (Jakarta Messaging 3.1, 3.8.1.2): what the literals show to be a type error is
 * refused with {@link InvalidSelectorException} when the consumer is created, by every method that takes a
 * selector; comparisons whose types are only known per message evaluate to FALSE (or UNKNOWN). Against vm:// and
 * a standalone broker.
 */
@Timeout(60)
class SelectorTypingTest {

    /** Selectors the literals make type errors: each can never match, so each is refused at once. */
    static final List<String> ILL_TYPED = List.of(
            "TRUE = 0",
            "'foo' > TRUE",
            "myProp > 'foo'",
            "'abc' < 'abd'",
            "flag >= FALSE",
            "(a > 1) < (b > 2)",
            "'1' = 1",
            "'x' + 1 = 2",
            "TRUE * 2 = 2",
            "-'x' = 1",
            "5 LIKE '5'",
            "'a' IN ('a')",
            "a IN (1, 2)",
            "weight BETWEEN 'a' AND 'z'",
            "weight BETWEEN 1 AND TRUE",
            "TRUE BETWEEN 0 AND 1");

    private static final AtomicInteger NAMES = new AtomicInteger();
    @TempDir
    static Path store;
    private static BothBrokers brokers;

    @BeforeAll
    static void start() throws Exception {
        brokers = new BothBrokers("selector-typing", store);
    }

    @AfterAll
    static void stop() {
        brokers.close();
    }

    static Stream<Named<String>> urls() {
        return brokers.urls();
    }

    private static String name() {
        return "typing-" + NAMES.incrementAndGet();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void everyMethodThatTakesASelectorRefusesTypeErrors(String url) throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            c.setClientID(name());
            Session s = c.createSession();
            Queue q = s.createQueue(name());
            Topic t = s.createTopic(name());
            for (String selector : ILL_TYPED) {
                List<ThrowingCall> calls = List.of(
                        () -> s.createConsumer(q, selector),
                        () -> s.createConsumer(t, selector, true),
                        () -> s.createBrowser(q, selector),
                        () -> s.createDurableConsumer(t, name(), selector, false),
                        () -> s.createSharedConsumer(t, name(), selector),
                        () -> s.createSharedDurableConsumer(t, name(), selector));
                for (ThrowingCall call : calls) {
                    assertThatThrownBy(call::run).as(selector).isInstanceOf(InvalidSelectorException.class)
                            .hasMessageContaining(selector);
                }
            }
        }
        try (JMSContext ctx = new WharfConnectionFactory(url).createContext()) {
            Queue q = ctx.createQueue(name());
            for (String selector : ILL_TYPED) {
                assertThatThrownBy(() -> ctx.createConsumer(q, selector)).as(selector)
                        .isInstanceOf(InvalidSelectorRuntimeException.class);
                assertThatThrownBy(() -> ctx.createBrowser(q, selector)).as(selector)
                        .isInstanceOf(InvalidSelectorRuntimeException.class);
            }
        }
    }

    @FunctionalInterface
    private interface ThrowingCall {
        Object run() throws Exception;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void typesKnownOnlyPerMessageCompareAsFalseOrUnknown(String url) throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = s.createQueue(name());
            MessageConsumer numberVsString = s.createConsumer(q, "weight = 'heavy' OR color > label");
            MessageConsumer negated = c.createSession().createConsumer(q, "NOT (weight = 'heavy')");
            TextMessage m = s.createTextMessage("typed");
            m.setIntProperty("weight", 5);
            m.setStringProperty("color", "red");
            m.setStringProperty("label", "a");
            s.createProducer(q).send(m);
            assertThat(numberVsString.receive(500)).as("int = string and string > string are FALSE").isNull();
            Message got = negated.receive(5_000);
            assertThat(got).as("NOT of a FALSE comparison of unlike types matches").isNotNull();
        }
    }
}

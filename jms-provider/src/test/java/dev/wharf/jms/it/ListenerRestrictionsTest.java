package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
 * What a message listener and a completion listener may and may not do with their own objects, both ways:
 * the forbidden calls throw {@link IllegalStateException} ({@link IllegalStateRuntimeException} in a
 * {@link JMSContext}), and the allowed ones work (Jakarta Messaging 3.1, 6.1.4, 6.1.5 and 6.2.15 for message
 * listeners; 7.3.8 for completion listeners). Against vm:// and a standalone broker.
 */
@Timeout(60)
class ListenerRestrictionsTest {

    private static final AtomicInteger QUEUES = new AtomicInteger();
    @TempDir
    static Path store;
    private static BothBrokers brokers;

    @BeforeAll
    static void start() throws Exception {
        brokers = new BothBrokers("listener", store);
    }

    @AfterAll
    static void stop() {
        brokers.close();
    }

    static Stream<Named<String>> urls() {
        return brokers.urls();
    }

    @FunctionalInterface
    private interface Action {
        void run() throws Exception;
    }

    /** Runs each action and records what it threw, by name ("ok" when nothing). */
    private static final class Outcomes {
        final Map<String, String> results = new LinkedHashMap<>();

        void attempt(String name, Action a) {
            try {
                a.run();
                results.put(name, "ok");
            } catch (Exception e) {
                results.put(name, e.getClass().getSimpleName());
            }
        }
    }

    private static String queueName() {
        return "listener-" + QUEUES.incrementAndGet();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void aMessageListenerMustNotCloseOrStopItsOwnConnectionOrCloseItsOwnSession(String url) throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
            Session other = c.createSession();
            Queue q = s.createQueue(queueName());
            Queue replies = s.createQueue(queueName());
            MessageProducer inListener = s.createProducer(replies);
            CompletableFuture<Outcomes> done = new CompletableFuture<>();
            MessageConsumer consumer = s.createConsumer(q);
            consumer.setMessageListener(m -> {
                Outcomes o = new Outcomes();
                o.attempt("connection.close", c::close);
                o.attempt("connection.stop", c::stop);
                o.attempt("session.close", s::close);
                o.attempt("connection.start", c::start);
                o.attempt("send", () -> inListener.send(s.createTextMessage("reply")));
                o.attempt("acknowledge", m::acknowledge);
                o.attempt("other session.close", other::close);
                o.attempt("consumer.close", consumer::close);
                done.complete(o);
            });
            Session sender = c.createSession();
            sender.createProducer(q).send(sender.createTextMessage("x"));
            c.start();
            Map<String, String> r = done.get(20, TimeUnit.SECONDS).results;
            assertThat(r).as("6.1.5, 6.1.4, 6.2.15").containsEntry("connection.close", "IllegalStateException")
                    .containsEntry("connection.stop", "IllegalStateException")
                    .containsEntry("session.close", "IllegalStateException");
            assertThat(r).as("everything else of the connection stays available to the listener")
                    .containsEntry("connection.start", "ok").containsEntry("send", "ok")
                    .containsEntry("acknowledge", "ok").containsEntry("other session.close", "ok")
                    .containsEntry("consumer.close", "ok");
            TextMessage reply = (TextMessage) sender.createConsumer(replies).receive(5_000);
            assertThat(reply.getText()).isEqualTo("reply");
            assertThat(c.createSession().createConsumer(q).receive(300)).as("acknowledged in the listener").isNull();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void aMessageListenerMayCommitRollBackAndRecoverItsOwnSession(String url) throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session transacted = c.createSession(Session.SESSION_TRANSACTED);
            Session clientAck = c.createSession(Session.CLIENT_ACKNOWLEDGE);
            Queue tq = transacted.createQueue(queueName());
            Queue cq = clientAck.createQueue(queueName());
            CompletableFuture<Outcomes> transactedDone = new CompletableFuture<>();
            AtomicInteger transactedSeen = new AtomicInteger();
            transacted.createConsumer(tq).setMessageListener(m -> {
                Outcomes o = new Outcomes();
                if (transactedSeen.incrementAndGet() == 1) {
                    o.attempt("rollback", transacted::rollback);
                } else {
                    o.attempt("redelivered", () -> assertThat(m.getJMSRedelivered()).isTrue());
                    o.attempt("commit", transacted::commit);
                    transactedDone.complete(o);
                }
            });
            CompletableFuture<Outcomes> recoverDone = new CompletableFuture<>();
            AtomicInteger recoverSeen = new AtomicInteger();
            clientAck.createConsumer(cq).setMessageListener(m -> {
                Outcomes o = new Outcomes();
                if (recoverSeen.incrementAndGet() == 1) {
                    o.attempt("recover", clientAck::recover);
                } else {
                    o.attempt("redelivered", () -> assertThat(m.getJMSRedelivered()).isTrue());
                    o.attempt("acknowledge", m::acknowledge);
                    recoverDone.complete(o);
                }
            });
            Session sender = c.createSession();
            sender.createProducer(tq).send(sender.createTextMessage("t"));
            sender.createProducer(cq).send(sender.createTextMessage("c"));
            c.start();
            assertThat(transactedDone.get(20, TimeUnit.SECONDS).results).containsOnly(
                    Map.entry("redelivered", "ok"), Map.entry("commit", "ok"));
            assertThat(recoverDone.get(20, TimeUnit.SECONDS).results).as("recover() in a listener (6.2.11)")
                    .containsOnly(Map.entry("redelivered", "ok"), Map.entry("acknowledge", "ok"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void aContextsMessageListenerMustNotCloseOrStopItsContext(String url) throws Exception {
        try (JMSContext ctx = new WharfConnectionFactory(url).createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Queue q = ctx.createQueue(queueName());
            CompletableFuture<Outcomes> done = new CompletableFuture<>();
            JMSConsumer consumer = ctx.createConsumer(q);
            consumer.setMessageListener(m -> {
                Outcomes o = new Outcomes();
                o.attempt("close", ctx::close);
                o.attempt("stop", ctx::stop);
                o.attempt("start", ctx::start);
                o.attempt("acknowledge", ctx::acknowledge);
                o.attempt("send", () -> ctx.createProducer().send(q, "again"));
                o.attempt("consumer.close", consumer::close);
                done.complete(o);
            });
            ctx.createProducer().send(q, "x");
            Map<String, String> r = done.get(20, TimeUnit.SECONDS).results;
            assertThat(r).containsEntry("close", "IllegalStateRuntimeException")
                    .containsEntry("stop", "IllegalStateRuntimeException")
                    .containsEntry("start", "ok").containsEntry("acknowledge", "ok").containsEntry("send", "ok")
                    .containsEntry("consumer.close", "ok");
            assertThat(ctx.createConsumer(q).receiveBody(String.class, 5_000)).isEqualTo("again");
        }
    }

    /** A completion listener that runs the checks once and completes with what they did. */
    private static CompletionListener checking(CompletableFuture<Outcomes> done, java.util.function.Consumer<Outcomes> checks) {
        return new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                Outcomes o = new Outcomes();
                checks.accept(o);
                done.complete(o);
            }

            @Override
            public void onException(Message message, Exception exception) {
                done.completeExceptionally(exception);
            }
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void aCompletionListenerMustNotCloseCommitOrRollBackButMayStopAndStart(String url) throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession(Session.SESSION_TRANSACTED);
            Queue q = s.createQueue(queueName());
            MessageProducer p = s.createProducer(q);
            CompletableFuture<Outcomes> done = new CompletableFuture<>();
            p.send(s.createTextMessage("x"), checking(done, o -> {
                o.attempt("connection.close", c::close);
                o.attempt("session.close", s::close);
                o.attempt("producer.close", p::close);
                o.attempt("commit", s::commit);
                o.attempt("rollback", s::rollback);
                o.attempt("connection.stop", c::stop);
                o.attempt("connection.start", c::start);
                o.attempt("create a message", () -> s.createTextMessage("y"));
            }));
            Map<String, String> r = done.get(20, TimeUnit.SECONDS).results;
            assertThat(r).as("7.3.8").containsEntry("connection.close", "IllegalStateException")
                    .containsEntry("session.close", "IllegalStateException")
                    .containsEntry("producer.close", "IllegalStateException")
                    .containsEntry("commit", "IllegalStateException")
                    .containsEntry("rollback", "IllegalStateException");
            assertThat(r).as("any other method may be called").containsEntry("connection.stop", "ok")
                    .containsEntry("connection.start", "ok").containsEntry("create a message", "ok");
            s.commit();
            assertThat(c.createSession().createConsumer(q).receive(5_000)).as("the send was not rolled back")
                    .isNotNull();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("urls")
    void aContextsCompletionListenerMayStopTheContextButNotCloseCommitOrRollBack(String url) throws Exception {
        try (JMSContext ctx = new WharfConnectionFactory(url).createContext(JMSContext.SESSION_TRANSACTED)) {
            Queue q = ctx.createQueue(queueName());
            CompletableFuture<Outcomes> done = new CompletableFuture<>();
            ctx.createProducer().setAsync(checking(done, o -> {
                o.attempt("close", ctx::close);
                o.attempt("commit", ctx::commit);
                o.attempt("rollback", ctx::rollback);
                o.attempt("stop", ctx::stop);
                o.attempt("start", ctx::start);
            })).send(q, "x");
            Map<String, String> r = done.get(20, TimeUnit.SECONDS).results;
            assertThat(r).containsEntry("close", "IllegalStateRuntimeException")
                    .containsEntry("commit", "IllegalStateRuntimeException")
                    .containsEntry("rollback", "IllegalStateRuntimeException")
                    .containsEntry("stop", "ok").containsEntry("start", "ok");
            ctx.commit();
            assertThat(ctx.createConsumer(q).receiveBody(String.class, 5_000)).isEqualTo("x");
        }
    }
}

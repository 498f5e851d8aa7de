package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.message.MessageExt;
import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.vm.VmBrokerRegistry;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Asynchronous sends with a completion listener (Jakarta Messaging 3.1, 7.3). */
class AsyncSendTest {

    private static final VmNames VM = new VmNames("async");
    private static String url;
    private static String namesrv;

    @BeforeAll
    static void broker() throws Exception {
        url = VM.url();
        namesrv = VmBrokerRegistry.shared().acquire(new WharfConnectionFactory(url).getConfig()).namesrvAddr();
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    /** Records completions and failures, in order, with the thread they ran on. */
    private static final class Recorder implements CompletionListener {
        final List<String> completed = Collections.synchronizedList(new ArrayList<>());
        final List<Exception> failed = Collections.synchronizedList(new ArrayList<>());
        final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void onCompletion(Message message) {
            threads.add(Thread.currentThread());
            try {
                completed.add(((TextMessage) message).getText());
            } catch (Exception e) {
                failed.add(e);
            }
        }

        @Override
        public void onException(Message message, Exception exception) {
            threads.add(Thread.currentThread());
            failed.add(exception);
        }
    }

    @Test
    void listenersAreCalledInSendOrderAndTheMessagesKeepIt() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("async-order"));
            Recorder r = new Recorder();
            for (int i = 0; i < 200; i++) {
                p.send(s.createTextMessage("m" + i), r);
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> r.completed.size() == 200);
            assertThat(r.failed).isEmpty();
            List<String> expected = IntStream.range(0, 200).mapToObj(i -> "m" + i).toList();
            assertThat(r.completed).isEqualTo(expected);
            assertThat(r.threads).doesNotContain(Thread.currentThread());
            List<String> stored = Stored.read(namesrv, "async-order", 200).stream()
                    .map(m -> new String(m.getBody())).toList();
            assertThat(stored).isEqualTo(expected);
        }
    }

    @Test
    void theMessageIsCopiedAtTheCallSoTheApplicationMayReuseIt() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("async-reuse"));
            Recorder r = new Recorder();
            TextMessage m = s.createTextMessage("first");
            p.send(m, r);
            m.setText("second");
            p.send(m, r);
            p.send(s.createTextMessage("sync after async"));
            assertThat(r.completed).as("a synchronous send waits for the earlier asynchronous ones").hasSize(2);
            List<String> stored = Stored.read(namesrv, "async-reuse", 3).stream()
                    .map(x -> new String(x.getBody())).toList();
            assertThat(stored).containsExactly("first", "second", "sync after async");
        }
    }

    @Test
    void closingTheSessionWaitsForTheListeners() throws Exception {
        Connection c = new WharfConnectionFactory(url).createConnection();
        Session s = c.createSession();
        MessageProducer p = s.createProducer(s.createQueue("async-close"));
        CountDownLatch release = new CountDownLatch(1);
        List<String> done = Collections.synchronizedList(new ArrayList<>());
        CompletionListener slow = new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.add("done");
            }

            @Override
            public void onException(Message message, Exception exception) {
                done.add("failed");
            }
        };
        p.send(s.createTextMessage("x"), slow);
        CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> {
            try {
                s.close();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        assertThat(closing).as("close waits for the running listener").isNotCompleted();
        release.countDown();
        closing.get(10, TimeUnit.SECONDS);
        assertThat(done).containsExactly("done");
        c.close();
    }

    @Test
    void aListenerMustNotCloseCommitOrCloseTheConnectionOfItsOwnSession() throws Exception {
        try (Connection c = new WharfConnectionFactory(url).createConnection()) {
            Session s = c.createSession(Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue("async-forbidden"));
            List<Class<?>> refusals = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch called = new CountDownLatch(1);
            CompletableFuture<Exception> stopAllowed = new CompletableFuture<>();
            Session plain = c.createSession();
            MessageProducer q = plain.createProducer(plain.createQueue("async-forbidden"));
            CompletionListener l = new CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                    record(plain::close);
                    record(q::close);
                    record(c::close);
                    stopAllowed.complete(attempt(c::stop));
                    called.countDown();
                }

                @Override
                public void onException(Message message, Exception exception) {
                    called.countDown();
                }

                private void record(Action a) {
                    Exception e = attempt(a);
                    refusals.add(e == null ? Void.class : e.getClass());
                }

                private Exception attempt(Action a) {
                    try {
                        a.run();
                        return null;
                    } catch (Exception e) {
                        return e;
                    }
                }
            };
            q.send(plain.createTextMessage("x"), l);
            assertThat(called.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(refusals).containsOnly(IllegalStateException.class).hasSize(3);
            assertThat(stopAllowed.get()).as("only close, commit and rollback are forbidden there (7.3.8)").isNull();
            assertThat(s.getTransacted()).isTrue();
            p.close();
        }
    }

    @FunctionalInterface
    private interface Action {
        void run() throws Exception;
    }

    @Test
    void aFailedSendReachesOnException() throws Exception {
        String strict = VM.url("?autoCreateTopicEnable=false");
        try (Connection c = new WharfConnectionFactory(strict).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createQueue("async-unknown"));
            Recorder r = new Recorder();
            p.send(s.createTextMessage("lost"), r);
            await().atMost(Duration.ofSeconds(10)).until(() -> r.failed.size() == 1);
            assertThat(r.failed.get(0)).isInstanceOf(InvalidDestinationException.class);
            assertThat(r.completed).isEmpty();
        }
    }

    @Test
    void aJmsProducerSendsAsynchronouslyWithSetAsync() throws Exception {
        try (JMSContext ctx = new WharfConnectionFactory(url).createContext()) {
            Recorder r = new Recorder();
            var queue = ctx.createQueue("async-context");
            var producer = ctx.createProducer().setAsync(r);
            for (int i = 0; i < 20; i++) {
                producer.send(queue, "c" + i);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> r.completed.size() == 20);
            assertThat(r.completed).isEqualTo(IntStream.range(0, 20).mapToObj(i -> "c" + i).toList());
            List<MessageExt> stored = Stored.read(namesrv, "async-context", 20);
            assertThat(stored).hasSize(20);
        }
    }
}

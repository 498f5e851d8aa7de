package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Point-to-point: each message to one consumer, receive and listeners, start and stop (Jakarta Messaging 3.1, 8). */
class QueueTest {

    private static final VmNames VM = new VmNames("queue");
    private static String url;

    @BeforeAll
    static void broker() {
        url = VM.url("?defaultTopicQueueNums=2");
    }

    @AfterAll
    static void stop() {
        VM.stopAll();
    }

    /** A factory for the class's broker; {@code options} is "" or "?name=value&..." with factory options. */
    private static WharfConnectionFactory factory(String options) {
        return new WharfConnectionFactory(options.isEmpty() ? url : url + "&" + options.substring(1));
    }

    @Test
    void sentMessagesAreReceivedInOrderOnce() throws Exception {
        try (Connection c = factory("").createConnection()) {
            Session s = c.createSession();
            Queue q = s.createQueue("queue-basic");
            MessageProducer p = s.createProducer(q);
            for (int i = 0; i < 50; i++) {
                p.send(s.createTextMessage("m" + i));
            }
            MessageConsumer consumer = s.createConsumer(q);
            assertThat(consumer.receive(200)).as("a stopped connection delivers nothing").isNull();
            c.start();
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                TextMessage m = (TextMessage) consumer.receive(5_000);
                assertThat(m).as("message " + i).isNotNull();
                got.add(m.getText());
                assertThat(m.getJMSRedelivered()).isFalse();
                assertThat(m.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
                assertThat(m.getJMSDestination()).isEqualTo(q);
            }
            assertThat(got).isEqualTo(IntStream.range(0, 50).mapToObj(i -> "m" + i).toList());
            assertThat(consumer.receiveNoWait()).isNull();
            assertThat(consumer.receive(100)).isNull();
        }
        try (Connection c = factory("").createConnection()) {
            c.start();
            Session s = c.createSession();
            assertThat(s.createConsumer(s.createQueue("queue-basic")).receive(300))
                    .as("acknowledged messages are gone").isNull();
        }
    }

    @Test
    void receiveNoWaitFindsAMessageThatIsThere() throws Exception {
        try (Connection c = factory("").createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = s.createQueue("queue-nowait");
            MessageConsumer consumer = s.createConsumer(q);
            assertThat(consumer.receiveNoWait()).isNull();
            s.createProducer(q).send(s.createTextMessage("there"));
            await().atMost(Duration.ofSeconds(5)).until(() -> consumer.receiveNoWait() != null);
        }
    }

    @Test
    void aListenerGetsEveryMessageOnTheSessionsThread() throws Exception {
        try (Connection c = factory("").createConnection()) {
            Session s = c.createSession();
            Queue q = s.createQueue("queue-listener");
            List<String> got = Collections.synchronizedList(new ArrayList<>());
            Set<Thread> threads = Collections.synchronizedSet(new HashSet<>());
            s.createConsumer(q).setMessageListener(m -> {
                threads.add(Thread.currentThread());
                try {
                    got.add(((TextMessage) m).getText());
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            Session sender = c.createSession();
            MessageProducer p = sender.createProducer(q);
            for (int i = 0; i < 30; i++) {
                p.send(sender.createTextMessage("l" + i));
            }
            assertThat(got).as("not started yet").isEmpty();
            c.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 30);
            assertThat(got).isEqualTo(IntStream.range(0, 30).mapToObj(i -> "l" + i).toList());
            assertThat(threads).hasSize(1);
        }
    }

    @Test
    void receiveIsRefusedOnASessionWithAListener() throws Exception {
        try (Connection c = factory("").createConnection()) {
            Session s = c.createSession();
            Queue q = s.createQueue("queue-mixed");
            s.createConsumer(q).setMessageListener(m -> { });
            MessageConsumer other = s.createConsumer(q);
            assertThatThrownBy(() -> other.receive(10)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("message listener");
        }
    }

    @Test
    void stopWaitsForTheRunningListenerAndPausesDelivery() throws Exception {
        try (Connection c = factory("").createConnection()) {
            Session s = c.createSession();
            Queue q = s.createQueue("queue-stop");
            CompletableFuture<Void> entered = new CompletableFuture<>();
            CompletableFuture<Void> release = new CompletableFuture<>();
            List<String> got = Collections.synchronizedList(new ArrayList<>());
            s.createConsumer(q).setMessageListener(m -> {
                entered.complete(null);
                release.join();
                got.add("x");
            });
            Session sender = c.createSession();
            MessageProducer p = sender.createProducer(q);
            p.send(sender.createTextMessage("1"));
            c.start();
            entered.get(10, TimeUnit.SECONDS);
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> {
                try {
                    c.stop();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            assertThat(stopping).as("stop waits for the listener").isNotCompleted();
            release.complete(null);
            stopping.get(10, TimeUnit.SECONDS);
            p.send(sender.createTextMessage("2"));
            assertThat(got).hasSize(1);
            c.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> got.size() == 2);
        }
    }

    @Test
    void moreConsumersThanQueuesAllGetWork() throws Exception {
        try (Connection c = factory("?pullBatchSize=1").createConnection()) {
            Session sender = c.createSession();
            Queue q = sender.createQueue("queue-share");
            MessageProducer p = sender.createProducer(q);
            p.send(sender.createTextMessage("create"));
            List<List<String>> perConsumer = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                List<String> mine = Collections.synchronizedList(new ArrayList<>());
                perConsumer.add(mine);
                Session s = c.createSession();
                s.createConsumer(q).setMessageListener(m -> {
                    mine.add("x");
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // some work, so others get a share
                });
            }
            c.start();
            for (int i = 0; i < 100; i++) {
                p.send(sender.createTextMessage("w" + i));
            }
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> perConsumer.stream().mapToInt(List::size).sum() == 101);
            for (List<String> mine : perConsumer) {
                assertThat(mine).as("every consumer got work").isNotEmpty();
            }
        }
    }

    @Test
    void closingAConsumerGivesItsPrefetchedMessagesBackUncounted() throws Exception {
        try (Connection c = factory("?pullBatchSize=10").createConnection()) {
            c.start();
            Session s = c.createSession();
            Queue q = s.createQueue("queue-release");
            MessageProducer p = s.createProducer(q);
            for (int i = 0; i < 10; i++) {
                p.send(s.createTextMessage("r" + i));
            }
            MessageConsumer first = s.createConsumer(q);
            assertThat(((TextMessage) first.receive(5_000)).getText()).isEqualTo("r0");
            first.close();
            MessageConsumer second = s.createConsumer(q);
            List<String> rest = new ArrayList<>();
            for (int i = 1; i < 10; i++) {
                Message m = second.receive(5_000);
                assertThat(m).isNotNull();
                assertThat(m.getJMSRedelivered()).as("prefetched but never delivered: not a redelivery").isFalse();
                rest.add(((TextMessage) m).getText());
            }
            assertThat(rest).isEqualTo(IntStream.range(1, 10).mapToObj(i -> "r" + i).toList());
        }
    }

    @Test
    void aReceiveBlockedOnAClosingConnectionReturnsNull() throws Exception {
        Connection c = factory("").createConnection();
        c.start();
        Session s = c.createSession();
        MessageConsumer consumer = s.createConsumer(s.createQueue("queue-blocked"));
        CompletableFuture<Thread> receiver = new CompletableFuture<>();
        CompletableFuture<Message> receiving = CompletableFuture.supplyAsync(() -> {
            receiver.complete(Thread.currentThread());
            try {
                return consumer.receive();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        Thread t = receiver.get(5, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(5)).until(() -> t.getState() == Thread.State.TIMED_WAITING
                || t.getState() == Thread.State.WAITING);
        c.close();
        assertThat(receiving.get(10, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void aListenerMustNotCloseItsOwnConnectionButMayAfterwardsFromAnotherThread() throws Exception {
        Connection c = factory("").createConnection();
        Session s = c.createSession();
        Queue q = s.createQueue("queue-self-close");
        CompletableFuture<Exception> outcome = new CompletableFuture<>();
        s.createConsumer(q).setMessageListener(m -> {
            try {
                c.close();
                outcome.complete(null);
            } catch (Exception e) {
                outcome.complete(e);
            }
        });
        Session sender = c.createSession();
        sender.createProducer(q).send(sender.createTextMessage("close"));
        c.start();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).as("6.1.5").isInstanceOf(IllegalStateException.class);
        c.close();
        assertThatThrownBy(c::start).isInstanceOf(IllegalStateException.class);
    }
}

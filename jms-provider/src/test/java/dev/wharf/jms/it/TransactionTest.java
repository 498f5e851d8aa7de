package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.core.WharfSession;
import dev.wharf.jms.spi.DefaultTransactionChecker;
import dev.wharf.jms.spi.TransactionCheck;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import dev.wharf.testing.TestWharf;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Transacted sessions on half-message transactions (Jakarta Messaging 3.1, 6.2.7), against a loopback broker. */
class TransactionTest {

    @TempDir
    static Path store;
    private static TestWharf wharf;
    private static final List<TransactionCheck> CHECKS = Collections.synchronizedList(new ArrayList<>());
    private static final List<String> EVENTS = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void start() throws Exception {
        wharf = TestWharf.loopback(store, Map.of("transactionCheckInterval", "300", "transactionTimeOut", "500",
                "defaultTopicQueueNums", "2"));
    }

    @AfterAll
    static void stop() {
        wharf.close();
    }

    /** A factory whose checker records every check-back and answers like the default with a 1 s timeout. */
    private static WharfConnectionFactory factory() {
        WharfConnectionFactory f = new WharfConnectionFactory(wharf.url());
        DefaultTransactionChecker checker = new DefaultTransactionChecker(1_000);
        f.setTransactionChecker(check -> {
            CHECKS.add(check);
            return checker.check(check);
        });
        f.setTransactionLifecycleListener(new TransactionLifecycleListener() {
            @Override
            public void transactionStarted(String transactionId) {
                EVENTS.add("started " + transactionId);
            }

            @Override
            public void transactionEnded(String transactionId, boolean committed) {
                EVENTS.add((committed ? "committed " : "rolled back ") + transactionId);
            }
        });
        return f;
    }

    private static List<String> receive(MessageConsumer consumer, long firstWait) throws Exception {
        List<String> out = new ArrayList<>();
        for (Message m = consumer.receive(firstWait); m != null; m = consumer.receive(300)) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }

    @Test
    void sendsBecomeVisibleTogetherOnCommitAndVanishOnRollback() throws Exception {
        try (Connection c = factory().createConnection()) {
            c.start();
            WharfSession tx = (WharfSession) c.createSession(Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("tx-visibility");
            MessageProducer p = tx.createProducer(q);
            MessageConsumer watcher = c.createSession().createConsumer(q);
            // the first transaction to a topic that does not exist yet may spread over queues (documented limit)
            c.createSession().createProducer(q).send(tx.createTextMessage("topic exists"));
            assertThat(receive(watcher, 5_000)).containsExactly("topic exists");
            for (int i = 0; i < 20; i++) {
                p.send(tx.createTextMessage("c" + i));
            }
            String id = tx.transactionId();
            assertThat(id).isNotNull();
            assertThat(EVENTS).contains("started " + id);
            assertThat(watcher.receive(500)).as("nothing visible before commit").isNull();
            tx.commit();
            assertThat(EVENTS).contains("committed " + id);
            assertThat(tx.transactionId()).isNull();
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                expected.add("c" + i);
            }
            assertThat(receive(watcher, 5_000)).as("all of them, in order").isEqualTo(expected);

            p.send(tx.createTextMessage("dropped"));
            tx.rollback();
            p.send(tx.createTextMessage("after rollback"));
            tx.commit();
            assertThat(receive(watcher, 5_000)).containsExactly("after rollback");

            List<String> batches = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                for (int i = 0; i < 5; i++) {
                    p.send(tx.createTextMessage("t" + t + "-" + i));
                    batches.add("t" + t + "-" + i);
                }
                tx.commit();
            }
            assertThat(receive(watcher, 5_000)).as("a session's transactions arrive in commit order")
                    .isEqualTo(batches);
        }
    }

    @Test
    void consumedMessagesAreAcknowledgedOnCommitAndRedeliveredOnRollback() throws Exception {
        try (Connection c = factory().createConnection()) {
            c.start();
            Session plain = c.createSession();
            Queue in = plain.createQueue("tx-in");
            Queue out = plain.createQueue("tx-out");
            plain.createProducer(in).send(plain.createTextMessage("order-1"));
            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = tx.createConsumer(in);
            MessageProducer forward = tx.createProducer(out);

            Message first = consumer.receive(5_000);
            forward.send(tx.createTextMessage("processed " + ((TextMessage) first).getText()));
            tx.rollback();
            Message again = consumer.receive(5_000);
            assertThat(((TextMessage) again).getText()).isEqualTo("order-1");
            assertThat(again.getJMSRedelivered()).isTrue();
            assertThat(again.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
            forward.send(tx.createTextMessage("processed " + ((TextMessage) again).getText()));
            tx.commit();

            assertThat(receive(plain.createConsumer(out), 5_000)).containsExactly("processed order-1");
            assertThat(consumer.receive(500)).as("acknowledged by the commit").isNull();
        }
    }

    @Test
    void aTransactionOfALiveSessionIsNotDecidedByTheCheckBack() throws Exception {
        try (Connection c = factory().createConnection()) {
            c.start();
            WharfSession tx = (WharfSession) c.createSession(Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("tx-slow");
            tx.createProducer(q).send(tx.createTextMessage("slow"));
            String id = tx.transactionId();
            await().atMost(Duration.ofSeconds(15)).until(() -> CHECKS.stream().anyMatch(ch ->
                    ch.transactionId().equals(id) && ch.local() == TransactionCheck.Local.OPEN));
            tx.commit();
            assertThat(receive(c.createSession().createConsumer(q), 5_000)).containsExactly("slow");
        }
    }

    @Test
    void aClientThatDiesBeforeCommitLeavesNothingVisible() throws Exception {
        Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), TransactedSenderMain.class.getName(),
                wharf.url(), "tx-killed", "3").redirectErrorStream(true).start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            String line;
            do {
                line = lines.readLine();
            } while (line != null && !line.equals("SENT"));
            assertThat(line).as("the child sent its messages").isEqualTo("SENT");
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
        try (Connection c = factory().createConnection()) {
            c.start();
            MessageConsumer consumer = c.createSession().createConsumer(c.createSession().createQueue("tx-killed"));
            await().atMost(Duration.ofSeconds(20)).until(() -> CHECKS.stream().anyMatch(ch ->
                    ch.topic().equals("tx-killed") && ch.local() == TransactionCheck.Local.FOREIGN
                            && System.currentTimeMillis() - ch.firstSentAt() > 1_000));
            assertThat(consumer.receive(1_500)).as("rolled back by the check-back: nothing visible").isNull();
        }
    }

    @Test
    void aDelayedMessageInATransactionIsScheduledWhenItCommits() throws Exception {
        try (Connection c = factory().createConnection()) {
            c.start();
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("tx-delay");
            MessageProducer p = tx.createProducer(q);
            p.setDeliveryDelay(1_500);
            TextMessage dropped = tx.createTextMessage("rolled back");
            p.send(dropped);
            tx.rollback();
            TextMessage delayed = tx.createTextMessage("delayed");
            p.send(delayed);
            tx.commit();
            assertThat(delayed.getJMSDeliveryTime()).isEqualTo(delayed.getJMSTimestamp() + 1_500);

            MessageConsumer consumer = c.createSession().createConsumer(q);
            Message first = consumer.receive(15_000);
            long arrived = System.currentTimeMillis();
            assertThat(first).as("the committed delayed message arrives").isNotNull();
            assertThat(((TextMessage) first).getText()).isEqualTo("delayed");
            assertThat(arrived).as("not before its delivery time").isGreaterThanOrEqualTo(delayed.getJMSDeliveryTime());
            assertThat(consumer.receive(2_000)).as("the rolled-back one never").isNull();
        }
    }

    @Test
    void closingATransactedSessionRollsBack() throws Exception {
        try (Connection c = factory().createConnection()) {
            c.start();
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("tx-close");
            tx.createProducer(q).send(tx.createTextMessage("never"));
            tx.close();
            assertThatThrownBy(tx::commit).isInstanceOf(IllegalStateException.class);
            assertThat(c.createSession().createConsumer(q).receive(1_000)).isNull();
        }
    }

    @Test
    void theDefaultCheckerAnswersFromWhatThisProcessKnows() {
        DefaultTransactionChecker checker = new DefaultTransactionChecker(60_000);
        long now = System.currentTimeMillis();
        assertThat(checker.check(check(TransactionCheck.Local.OPEN, now - 600_000)).name()).isEqualTo("UNKNOWN");
        assertThat(checker.check(check(TransactionCheck.Local.COMMITTED, now)).name()).isEqualTo("COMMIT");
        assertThat(checker.check(check(TransactionCheck.Local.ROLLED_BACK, now)).name()).isEqualTo("ROLLBACK");
        assertThat(checker.check(check(TransactionCheck.Local.ABANDONED, now)).name()).isEqualTo("ROLLBACK");
        assertThat(checker.check(check(TransactionCheck.Local.FOREIGN, now)).name()).isEqualTo("UNKNOWN");
        assertThat(checker.check(check(TransactionCheck.Local.FOREIGN, now - 61_000)).name()).isEqualTo("ROLLBACK");
    }

    private static TransactionCheck check(TransactionCheck.Local local, long firstSentAt) {
        return new TransactionCheck("t", "g", "topic", firstSentAt, local);
    }
}

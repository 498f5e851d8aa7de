package dev.wharf.jms.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wharf.jms.WharfConnectionFactory;
import dev.wharf.jms.spi.TransactionLifecycleListener;
import dev.wharf.testing.TestWharf;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionRolledBackException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transacted session streams its messages (transactionSendWindow): the commit is the one point that checks and
 * forces them. A message the broker refused fails the commit with TransactionRolledBackException and nothing of
 * the transaction becomes visible; a rollback leaves nothing; a commit shows everything in sending order; a commit
 * the broker refuses (6.2.7) rolls the session's transaction back.
 */
@Timeout(120)
class StreamedTransactionTest {

    @TempDir
    static Path store;
    private static TestWharf wharf;

    @BeforeAll
    static void start() throws Exception {
        wharf = TestWharf.loopback(store, Map.of("maxMessageSize", "16384", "defaultTopicQueueNums", "1"));
    }

    @AfterAll
    static void stop() {
        wharf.close();
    }

    private static List<String> drain(MessageConsumer consumer, long firstWait) throws Exception {
        List<String> out = new ArrayList<>();
        for (Message m = consumer.receive(firstWait); m != null; m = consumer.receive(300)) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }

    /** Up to {@code count} messages, each waited for up to 5 s (a busy machine may pause between two). */
    private static List<String> receive(MessageConsumer consumer, int count) throws Exception {
        List<String> out = new ArrayList<>();
        for (Message m = consumer.receive(5_000); m != null; m = out.size() < count ? consumer.receive(5_000) : null) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }

    /** Streamed halves, and (transactionBatchBytes above the transaction's size) one batch at the commit. */
    @org.junit.jupiter.params.ParameterizedTest(name = "transactionBatchBytes={0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1 << 20})
    void aRefusedMessageFailsTheCommitAndNothingOfTheTransactionIsVisible(int batchBytes) throws Exception {
        try (Connection c = new WharfConnectionFactory(wharf.url() + "?transactionSendWindow=8&transactionBatchBytes="
                + batchBytes).createConnection()) {
            c.start();
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("streamed-refused-" + batchBytes);
            MessageProducer p = tx.createProducer(q);
            MessageConsumer watcher = c.createSession().createConsumer(q);
            c.createSession().createProducer(q).send(tx.createTextMessage("topic exists"));
            assertThat(drain(watcher, 5_000)).containsExactly("topic exists");

            for (int i = 0; i < 20; i++) {
                p.send(tx.createTextMessage("before " + i));
            }
            BytesMessage tooLarge = tx.createBytesMessage();
            byte[] body = new byte[64 * 1024]; // random: compression cannot bring it under the broker's limit
            new Random(11).nextBytes(body);
            tooLarge.writeBytes(body);
            p.send(tooLarge); // the session cannot know this broker's limit; the broker refuses it later
            for (int i = 0; i < 20; i++) {
                try {
                    p.send(tx.createTextMessage("after " + i));
                } catch (JMSException e) {
                    // the refusal may already have come back: the transaction cannot commit any more
                    assertThat(e).hasMessageContaining("cannot commit");
                }
            }
            assertThatThrownBy(tx::commit).isInstanceOf(TransactionRolledBackException.class)
                    .hasMessageContaining("rolled back");

            p.send(tx.createTextMessage("next transaction"));
            tx.commit();
            assertThat(drain(watcher, 5_000)).as("nothing of the failed transaction")
                    .containsExactly("next transaction");
        }
    }

    @Test
    void aRollbackLeavesNothingAndACommitShowsEverythingInOrder() throws Exception {
        try (Connection c = new WharfConnectionFactory(wharf.url() + "?transactionSendWindow=8").createConnection()) {
            c.start();
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("streamed-order");
            MessageProducer p = tx.createProducer(q);
            MessageConsumer watcher = c.createSession().createConsumer(q);
            c.createSession().createProducer(q).send(tx.createTextMessage("topic exists"));
            assertThat(drain(watcher, 5_000)).containsExactly("topic exists");

            for (int i = 0; i < 100; i++) {
                p.send(tx.createTextMessage("dropped " + i));
            }
            tx.rollback();
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                p.send(tx.createTextMessage("kept " + i));
                expected.add("kept " + i);
            }
            tx.commit();
            assertThat(receive(watcher, expected.size())).isEqualTo(expected);
            assertThat(watcher.receive(300)).as("nothing of the rolled-back transaction").isNull();
        }
    }

    @Test
    void aListenerThatMayCommitByCheckBackGetsDurableSends() throws Exception {
        WharfConnectionFactory f = new WharfConnectionFactory(wharf.url());
        List<String> started = new ArrayList<>();
        f.setTransactionLifecycleListener(new TransactionLifecycleListener() {
            @Override
            public void transactionStarted(String transactionId) {
                started.add(transactionId);
            }
        });
        try (Connection c = f.createConnection()) {
            c.start();
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("streamed-recorded");
            MessageProducer p = tx.createProducer(q);
            MessageConsumer watcher = c.createSession().createConsumer(q);
            c.createSession().createProducer(q).send(tx.createTextMessage("topic exists"));
            assertThat(drain(watcher, 5_000)).containsExactly("topic exists");
            p.send(tx.createTextMessage("recorded 0"));
            BytesMessage tooLarge = tx.createBytesMessage();
            byte[] body = new byte[64 * 1024];
            new Random(12).nextBytes(body);
            tooLarge.writeBytes(body);
            // each send waits for the broker, so the refusal fails this send, not the commit
            assertThatThrownBy(() -> p.send(tooLarge)).isNotInstanceOf(TransactionRolledBackException.class);
            p.send(tx.createTextMessage("recorded 1"));
            tx.commit();
            assertThat(started).hasSize(1);
            assertThat(drain(watcher, 5_000)).containsExactly("recorded 0", "recorded 1");
        }
    }

    /** A listener that may have its transactions committed by check-back and flushes them before that. */
    private static final class FlushingListener implements TransactionLifecycleListener {
        final List<String> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<dev.wharf.jms.spi.TransactionFlush> flushes = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<String> rolledBack = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void transactionStarted(String transactionId) {
            throw new AssertionError("the session gives the flush handle");
        }

        @Override
        public void transactionStarted(String transactionId, dev.wharf.jms.spi.TransactionFlush flush) {
            started.add(transactionId);
            flushes.add(flush);
        }

        @Override
        public boolean flushesBeforeCommit() {
            return true;
        }

        @Override
        public void transactionEnded(String transactionId, boolean committed) {
            if (!committed) {
                rolledBack.add(transactionId);
            }
        }
    }

    /**
     * A listener that flushes before its own commit gets streamed sends; after the flush returned every message is
     * stored, so a commit decided by check-back (here: sent by another party, as the broker does after a check-back)
     * shows all of them, in order, even though the session never committed.
     */
    @Test
    void aFlushStoresEveryStreamedMessageSoACheckBackCommitShowsThemAll() throws Exception {
        WharfConnectionFactory f = new WharfConnectionFactory(wharf.url() + "?transactionSendWindow=8");
        FlushingListener listener = new FlushingListener();
        f.setTransactionLifecycleListener(listener);
        dev.wharf.client.ClientConfig config = new dev.wharf.client.ClientConfig();
        config.setNamesrvAddr(wharf.namesrvAddr());
        config.setInstanceName("check-back-party");
        dev.wharf.client.impl.ClientInstance other = dev.wharf.client.impl.ClientInstance.acquire(config);
        try (Connection c = f.createConnection()) {
            c.start();
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("flushed");
            MessageProducer p = tx.createProducer(q);
            MessageConsumer watcher = c.createSession().createConsumer(q);
            c.createSession().createProducer(q).send(tx.createTextMessage("topic exists"));
            assertThat(receive(watcher, 5_000)).containsExactly("topic exists");

            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                p.send(tx.createTextMessage("flushed " + i));
                expected.add("flushed " + i);
            }
            listener.flushes.get(0).flush();
            p.send(tx.createTextMessage("after the flush")); // stored durably on its own
            expected.add("after the flush");
            assertThat(watcher.receive(300)).as("flushed, not committed").isNull();

            other.messageApi().endTransactionSync(wharf.broker().address(),
                    new dev.wharf.protocol.header.TransactionHeaders.EndTransactionRequest(f.getProducerGroup(),
                            listener.started.get(0), dev.wharf.common.message.MessageSysFlag.TRANSACTION_COMMIT_TYPE,
                            -1, true, null), 5_000);
            assertThat(receive(watcher, expected.size())).isEqualTo(expected);
            tx.rollback(); // the session's own end comes after the broker's decision and changes nothing
            assertThat(watcher.receive(300)).isNull();
        } finally {
            other.release();
        }
    }

    /**
     * A message the broker refuses fails the flush with TransactionRolledBackException (so the caller's own work
     * must not commit), the transaction is rolled back and nothing of it becomes visible; the handle fails again
     * if called again, and the session's next transaction commits.
     */
    @Test
    void aRefusedMessageFailsTheFlushAndRollsTheTransactionBack() throws Exception {
        WharfConnectionFactory f = new WharfConnectionFactory(wharf.url() + "?transactionSendWindow=8");
        FlushingListener listener = new FlushingListener();
        f.setTransactionLifecycleListener(listener);
        try (Connection c = f.createConnection()) {
            c.start();
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("flush-refused");
            MessageProducer p = tx.createProducer(q);
            MessageConsumer watcher = c.createSession().createConsumer(q);
            c.createSession().createProducer(q).send(tx.createTextMessage("topic exists"));
            assertThat(receive(watcher, 5_000)).containsExactly("topic exists");

            for (int i = 0; i < 10; i++) {
                p.send(tx.createTextMessage("doomed " + i));
            }
            BytesMessage tooLarge = tx.createBytesMessage();
            byte[] body = new byte[64 * 1024];
            new Random(13).nextBytes(body);
            tooLarge.writeBytes(body);
            p.send(tooLarge); // held back and streamed: the refusal comes with the flush
            dev.wharf.jms.spi.TransactionFlush flush = listener.flushes.get(0);
            assertThatThrownBy(flush::flush).isInstanceOf(TransactionRolledBackException.class)
                    .hasMessageContaining(listener.started.get(0)).hasMessageContaining("do not commit");
            assertThat(listener.rolledBack).containsExactly(listener.started.get(0));
            assertThatThrownBy(flush::flush).as("a rolled-back transaction cannot be flushed")
                    .isInstanceOf(TransactionRolledBackException.class);

            p.send(tx.createTextMessage("next transaction"));
            listener.flushes.get(1).flush();
            tx.commit();
            listener.flushes.get(1).flush(); // committed: nothing left to do
            assertThat(receive(watcher, 5_000)).as("nothing of the refused transaction")
                    .containsExactly("next transaction");
        }
    }

    /**
     * 6.2.7: a commit the broker refuses (the transaction was rolled back there while the session still held it
     * open, as a check-back answered by another party does) is a TransactionRolledBackException, nothing of the
     * transaction becomes visible, and the session's next transaction commits. Both with sends that wait for the
     * broker and with streamed sends.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "streamed {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void aCommitTheBrokerRefusesIsRolledBackAndLeavesNothingVisible(boolean streamed) throws Exception {
        // halves on the broker, which another party can roll back (a transaction held for one batch has none)
        WharfConnectionFactory f = new WharfConnectionFactory(wharf.url()
                + "?transactionSendWindow=8&transactionBatchBytes=0");
        List<String> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        f.setTransactionLifecycleListener(new TransactionLifecycleListener() {
            @Override
            public void transactionStarted(String transactionId) {
                started.add(transactionId);
            }

            @Override
            public boolean mayCommitByCheckBack() {
                return !streamed;
            }
        });
        dev.wharf.client.ClientConfig config = new dev.wharf.client.ClientConfig();
        config.setNamesrvAddr(wharf.namesrvAddr());
        config.setInstanceName("refusing-party-" + streamed);
        dev.wharf.client.impl.ClientInstance other = dev.wharf.client.impl.ClientInstance.acquire(config);
        try (Connection c = f.createConnection()) {
            c.start();
            Session tx = c.createSession(Session.SESSION_TRANSACTED);
            Queue q = tx.createQueue("refused-commit-" + streamed);
            MessageProducer p = tx.createProducer(q);
            MessageConsumer watcher = c.createSession().createConsumer(q);
            c.createSession().createProducer(q).send(tx.createTextMessage("topic exists"));
            assertThat(drain(watcher, 5_000)).containsExactly("topic exists");

            Queue in = tx.createQueue("refused-commit-in-" + streamed);
            c.createSession().createProducer(in).send(tx.createTextMessage("consumed in the transaction"));
            MessageConsumer txConsumer = tx.createConsumer(in);
            Message consumed = txConsumer.receive(5_000);
            assertThat(consumed).isNotNull();
            assertThat(consumed.getJMSRedelivered()).isFalse();
            for (int i = 0; i < 10; i++) {
                p.send(tx.createTextMessage("doomed " + i));
            }
            assertThat(started).hasSize(1);
            other.messageApi().endTransactionSync(wharf.broker().address(),
                    new dev.wharf.protocol.header.TransactionHeaders.EndTransactionRequest(f.getProducerGroup(),
                            started.get(0), dev.wharf.common.message.MessageSysFlag.TRANSACTION_ROLLBACK_TYPE, -1,
                            true, null), 5_000);
            assertThatThrownBy(tx::commit).isInstanceOf(TransactionRolledBackException.class)
                    .hasMessageContaining(started.get(0));
            Message again = txConsumer.receive(5_000);
            assertThat(again).as("the message consumed in the refused transaction is given back").isNotNull();
            assertThat(((TextMessage) again).getText()).isEqualTo("consumed in the transaction");
            assertThat(again.getJMSRedelivered()).isTrue();

            p.send(tx.createTextMessage("next transaction"));
            tx.commit();
            assertThat(drain(watcher, 5_000)).as("nothing of the refused transaction")
                    .containsExactly("next transaction");
        } finally {
            other.release();
        }
    }
}

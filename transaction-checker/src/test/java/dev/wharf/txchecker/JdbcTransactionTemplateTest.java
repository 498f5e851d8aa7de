package dev.wharf.txchecker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.LocalTransaction;
import dev.wharf.client.producer.LocalTransactionState;
import dev.wharf.client.producer.TransactionListener;
import dev.wharf.client.producer.TransactionProducer;
import dev.wharf.client.producer.TransactionSendResult;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plain JDBC (H2 through HikariCP) and the real client against a broker in this JVM: database work and messages
 * commit together, roll back together, and a producer that dies in between is settled by another producer's
 * check-back from the transaction log.
 */
class JdbcTransactionTemplateTest {

    private static final String TOPIC = "orders";
    private static final String GROUP = "orders-producer";
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private TestWharf wharf;
    private HikariDataSource dataSource;
    private JdbcTransactionLog txLog;
    private final List<String> received = new CopyOnWriteArrayList<>();

    /** Delegates to the JDBC listener and remembers each check-back answer. */
    private static final class RecordingListener implements TransactionListener {
        final TransactionListener delegate;
        final Map<String, LocalTransactionState> answers = new ConcurrentHashMap<>();

        RecordingListener(TransactionListener delegate) {
            this.delegate = delegate;
        }

        @Override
        public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
            return delegate.executeLocalTransaction(msg, arg);
        }

        @Override
        public LocalTransactionState checkLocalTransaction(MessageExt msg) {
            LocalTransactionState answer = delegate.checkLocalTransaction(msg);
            answers.put(msg.getTransactionId(), answer);
            return answer;
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        // check-backs every few hundred milliseconds so that the tests run in seconds
        wharf = TestWharf.builder(dir).brokers("broker").settings(s -> {
            s.broker().executors().setPullMessageThreadPoolNums(2);
            s.broker().setDefaultTopicQueueNums(2);
            s.broker().transaction().setTransactionCheckInterval(300);
            s.broker().transaction().setTransactionTimeOut(200);
        }).start();
        wharf.createTopic(TOPIC, 2);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:h2:file:" + dir.resolve("db") + ";DB_CLOSE_DELAY=-1");
        config.setMaximumPoolSize(4);
        dataSource = new HikariDataSource(config);
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, item VARCHAR(40))");
        }
        txLog = new JdbcTransactionLog(dataSource);
        txLog.createSchemaIfAbsent();
        PushConsumer consumer = new PushConsumer("order-readers", wharf.clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(TOPIC, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> received.add(new String(m.getBody(), StandardCharsets.UTF_8)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        wharf.track(consumer::shutdown);
    }

    @AfterEach
    void tearDown() {
        wharf.close();
        dataSource.close();
    }

    private RecordingListener listener(Duration rollbackAfter) {
        return new RecordingListener(new JdbcTransactionListener(txLog, rollbackAfter));
    }

    private TransactionProducer producer(TransactionListener listener) throws Exception {
        TransactionProducer producer = new TransactionProducer(GROUP, wharf.clientConfig());
        producer.setTransactionListener(listener);
        producer.start();
        wharf.track(producer::shutdown);
        return producer;
    }

    private static Message message(String body) {
        return new Message(TOPIC, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void insertOrder(Connection c, long id, String item) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders (id, item) VALUES (?, ?)")) {
            ps.setLong(1, id);
            ps.setString(2, item);
            ps.executeUpdate();
        }
    }

    private List<Long> orderIds() throws Exception {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM orders ORDER BY id")) {
            List<Long> ids = new java.util.ArrayList<>();
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
            return ids;
        }
    }

    /** Sends a committed marker and waits for it: what was not delivered before it will not be delivered. */
    private void awaitMarker(JdbcTransactionTemplate tx, String marker) {
        tx.execute((c, m) -> m.send(message(marker)));
        await().atMost(WAIT).until(() -> received.contains(marker));
    }

    @Test
    void databaseWorkAndMessagesCommitTogether() throws Exception {
        TransactionProducer producer = producer(listener(Duration.ofSeconds(60)));
        JdbcTransactionTemplate tx = new JdbcTransactionTemplate(producer, txLog);

        String[] id = new String[1];
        long result = tx.execute((c, messages) -> {
            insertOrder(c, 1, "book");
            messages.send(message("order 1 created"));
            messages.send(message("order 1 to ship"));
            id[0] = messages.transactionId();
            return 1L;
        });

        assertThat(result).isEqualTo(1L);
        await().atMost(WAIT).until(() -> received.size() == 2);
        assertThat(received).containsExactlyInAnyOrder("order 1 created", "order 1 to ship");
        assertThat(orderIds()).containsExactly(1L);
        assertThat(txLog.contains(id[0])).as("the log row committed with the order").isTrue();
    }

    @Test
    void aFailingUnitOfWorkRollsBackTheDatabaseAndTheMessages() throws Exception {
        TransactionProducer producer = producer(listener(Duration.ofSeconds(60)));
        JdbcTransactionTemplate tx = new JdbcTransactionTemplate(producer, txLog);

        String[] id = new String[1];
        assertThatThrownBy(() -> tx.execute((c, messages) -> {
            insertOrder(c, 2, "lamp");
            messages.send(message("order 2 created"));
            id[0] = messages.transactionId();
            throw new java.io.IOException("payment service unreachable");
        })).isInstanceOf(JdbcTransactionException.class).hasMessageContaining("payment service unreachable")
                .hasMessageContaining("rolled back");

        awaitMarker(tx, "marker");
        assertThat(received).containsExactly("marker");
        assertThat(orderIds()).isEmpty();
        assertThat(txLog.contains(id[0])).isFalse();
    }

    @Test
    void aProducerThatDiesAfterTheDatabaseCommitIsSettledByCheckBack() throws Exception {
        RecordingListener survivorListener = listener(Duration.ofSeconds(60));
        producer(survivorListener);
        TransactionProducer dying = new TransactionProducer(GROUP, wharf.clientConfig());
        dying.setTransactionListener(listener(Duration.ofSeconds(60)));
        dying.start();

        LocalTransaction t = dying.beginTransaction();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            insertOrder(c, 3, "chair");
            txLog.record(c, t.transactionId(), GROUP);
            t.send(message("order 3 created"));
            c.commit();
        }
        dying.shutdown(); // dies before telling the broker COMMIT

        await().atMost(WAIT).until(() -> received.contains("order 3 created"));
        assertThat(survivorListener.answers).containsEntry(t.transactionId(), LocalTransactionState.COMMIT_MESSAGE);
        assertThat(orderIds()).containsExactly(3L);
    }

    @Test
    void aProducerThatDiesBeforeTheDatabaseCommitIsRolledBackAfterTheTimeout() throws Exception {
        RecordingListener survivorListener = listener(Duration.ofSeconds(1));
        TransactionProducer survivor = producer(survivorListener);
        TransactionProducer dying = new TransactionProducer(GROUP, wharf.clientConfig());
        dying.setTransactionListener(listener(Duration.ofSeconds(1)));
        dying.start();

        LocalTransaction t = dying.beginTransaction();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            insertOrder(c, 4, "desk");
            txLog.record(c, t.transactionId(), GROUP);
            t.send(message("order 4 created"));
            // the process dies here: the database transaction never commits
            c.rollback();
        }
        dying.shutdown();

        await().atMost(WAIT).until(() -> survivorListener.answers.get(t.transactionId())
                == LocalTransactionState.ROLLBACK_MESSAGE);
        awaitMarker(new JdbcTransactionTemplate(survivor, txLog), "marker");
        assertThat(received).containsExactly("marker");
        assertThat(orderIds()).isEmpty();
    }

    @Test
    void aSingleMessageTransactionRunsItsJdbcWorkInTheListener() throws Exception {
        TransactionProducer producer = producer(listener(Duration.ofSeconds(60)));

        TransactionSendResult kept = producer.sendMessageInTransaction(message("order 5 created"),
                (JdbcLocalWork) c -> insertOrder(c, 5, "pen"));
        TransactionSendResult dropped = producer.sendMessageInTransaction(message("order 6 created"),
                (JdbcLocalWork) c -> {
                    insertOrder(c, 6, "ink");
                    throw new IllegalStateException("out of stock");
                });
        TransactionSendResult wrongArg = producer.sendMessageInTransaction(message("order 7 created"), "not work");

        assertThat(kept.localTransactionState()).isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
        assertThat(dropped.localTransactionState()).isEqualTo(LocalTransactionState.ROLLBACK_MESSAGE);
        assertThat(wrongArg.localTransactionState()).isEqualTo(LocalTransactionState.ROLLBACK_MESSAGE);
        awaitMarker(new JdbcTransactionTemplate(producer, txLog), "marker");
        assertThat(received).containsExactlyInAnyOrder("order 5 created", "marker");
        assertThat(orderIds()).containsExactly(5L);
        assertThat(txLog.contains(kept.transactionId())).isTrue();
        assertThat(txLog.contains(dropped.transactionId())).isFalse();
    }
}

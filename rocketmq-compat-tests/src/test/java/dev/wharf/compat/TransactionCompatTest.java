package dev.wharf.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.testing.TestWharf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TransactionMQProducer: commit, rollback, and an unknown outcome settled by the broker's check-back. */
class TransactionCompatTest {

    @TempDir
    static Path dir;

    private static TestWharf servers;
    private RocketClients clients;

    @BeforeAll
    static void startServers() throws Exception {
        servers = WharfServers.start(dir, s -> {
            s.broker().transaction().setTransactionCheckInterval(1_000);
            s.broker().transaction().setTransactionTimeOut(1_000);
        });
    }

    @AfterAll
    static void stopServers() {
        servers.close();
    }

    @BeforeEach
    void clients() {
        clients = new RocketClients(servers.namesrvAddr());
    }

    @AfterEach
    void closeClients() {
        clients.close();
    }

    @Test
    void committedRolledBackAndCheckedTransactionsEndAsTheProducerSays() throws Exception {
        List<MessageExt> checked = new CopyOnWriteArrayList<>();
        TransactionListener listener = new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return switch (msg.getKeys()) {
                    case "commit" -> LocalTransactionState.COMMIT_MESSAGE;
                    case "rollback" -> LocalTransactionState.ROLLBACK_MESSAGE;
                    default -> LocalTransactionState.UNKNOW;
                };
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                checked.add(msg);
                return "checked-commit".equals(msg.getKeys()) ? LocalTransactionState.COMMIT_MESSAGE
                        : LocalTransactionState.ROLLBACK_MESSAGE;
            }
        };
        TransactionMQProducer producer = clients.transactionProducer("tx-pg", listener);
        for (String key : List.of("commit", "rollback", "checked-commit", "checked-rollback")) {
            TransactionSendResult result = producer.sendMessageInTransaction(
                    new Message("TxTopic", "t", key, key.getBytes(StandardCharsets.UTF_8)), null);
            assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        }

        Set<String> delivered = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = clients.pushConsumer("tx-cg");
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("TxTopic", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            msgs.forEach(m -> delivered.add(m.getKeys()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();

        await().atMost(Duration.ofSeconds(90)).until(() -> delivered.contains("commit")
                && delivered.contains("checked-commit"));
        await().atMost(Duration.ofSeconds(30)).until(() -> checked.stream().anyMatch(m ->
                "checked-rollback".equals(m.getKeys())));
        assertThat(delivered).doesNotContain("rollback", "checked-rollback");
        // the producer is asked about the message it sent: its own topic, its transaction id
        assertThat(checked).allSatisfy(m -> {
            assertThat(m.getTopic()).isEqualTo("TxTopic");
            assertThat(m.getTransactionId()).isNotBlank();
        });
        assertThat(checked).extracting(MessageExt::getKeys).doesNotContain("commit", "rollback");
    }
}

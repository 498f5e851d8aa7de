package dev.wharf.broker;

import static dev.wharf.broker.TransactionProtocol.bodies;
import static dev.wharf.broker.TransactionProtocol.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.header.MessageHeaders.SendMessageResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The check-back service against a real broker, with producers speaking the raw protocol. */
class TransactionCheckBackTest {

    private static final String TOPIC = "Payments";
    private static final String GROUP = "tx-check-group";
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final List<Broker> brokers = new ArrayList<>();
    private final List<TransactionProtocol> producers = new ArrayList<>();

    @AfterEach
    void stop() {
        producers.forEach(TransactionProtocol::close);
        brokers.forEach(Broker::shutdown);
    }

    private Broker start(Path storeDir, int checkMax) throws IOException {
        return start(storeDir, s -> s.broker().transaction().setTransactionCheckMax(checkMax));
    }

    private Broker start(Path storeDir, Consumer<BrokerSettings> more) throws IOException {
        Broker broker = BrokerFixture.start(storeDir, s -> {
            s.broker().transaction().setTransactionCheckInterval(200);
            s.broker().transaction().setTransactionTimeOut(100);
            more.accept(s);
        });
        brokers.add(broker);
        return broker;
    }

    private TransactionProtocol producer(Broker broker) throws Exception {
        TransactionProtocol p = new TransactionProtocol(broker.address(), GROUP);
        producers.add(p);
        p.heartbeat();
        return p;
    }

    private static void awaitRounds(Broker broker, int rounds) {
        long target = broker.transactions().checkRounds() + rounds;
        await().atMost(WAIT).until(() -> broker.transactions().checkRounds() >= target);
    }

    @Test
    void unknownThenCheckThenCommit() throws Exception {
        Broker broker = start(dir, 15);
        TransactionProtocol p = producer(broker);
        SendMessageResponse first = p.sendHalfOk(TOPIC, 0, "tx-uc", "one");
        p.sendHalfOk(TOPIC, 1, "tx-uc", "two");
        assertThat(p.end("tx-uc", MessageSysFlag.TRANSACTION_NOT_TYPE).code()).isEqualTo(ResponseCode.SUCCESS);
        p.answerChecks(check -> MessageSysFlag.TRANSACTION_COMMIT_TYPE);

        await().atMost(WAIT).until(() -> bodies(broker.store(), TOPIC, 4).size() == 2);
        assertThat(bodies(broker.store(), TOPIC, 4)).containsExactly("one", "two");
        TransactionProtocol.Check check = p.checks.get(0);
        assertThat(check.header().transactionId()).isEqualTo("tx-uc");
        assertThat(check.header().producerGroup()).isEqualTo(GROUP);
        assertThat(check.header().commitLogOffset()).isEqualTo(dev.wharf.common.message.MessageId
                .commitLogOffset(first.msgId()));
        assertThat(check.half().getProperty(MessageProperties.REAL_TOPIC)).isEqualTo(TOPIC);
        assertThat(check.half().getProperty(MessageProperties.TRANSACTION_ID)).isEqualTo("tx-uc");
        assertThat(new String(check.half().getBody())).isEqualTo("one");
        assertThat(check.header().msgId()).isEqualTo(check.half().getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID));
        await().atMost(WAIT).until(() -> broker.transactions().openTransactionCount() == 0);
        int asked = p.checks.size();
        awaitRounds(broker, 2);
        assertThat(p.checks).as("an ended transaction is not asked about again").hasSize(asked);
        assertThat(broker.transactions().checkProgressOffset()).isEqualTo(2);
    }

    @Test
    void unknownThenCheckThenRollback() throws Exception {
        Broker broker = start(dir, 15);
        TransactionProtocol p = producer(broker);
        p.sendHalfOk(TOPIC, 0, "tx-ur", "gone");
        AtomicInteger asked = new AtomicInteger();
        p.answerChecks(check -> asked.incrementAndGet() == 1 ? MessageSysFlag.TRANSACTION_NOT_TYPE
                : MessageSysFlag.TRANSACTION_ROLLBACK_TYPE);

        await().atMost(WAIT).until(() -> asked.get() == 2 && broker.transactions().openTransactionCount() == 0);
        assertThat(bodies(broker.store(), TOPIC, 4)).isEmpty();
        assertThat(read(broker.store(), SystemTopics.TRANS_OP_HALF_TOPIC, 0)).extracting(MessageExt::getTags)
                .containsExactly("ROLLBACK");
    }

    @Test
    void theCheckReachesAnotherMemberWhenTheSenderIsGone() throws Exception {
        Broker broker = start(dir, 15);
        TransactionProtocol sender = producer(broker);
        TransactionProtocol survivor = producer(broker);
        survivor.answerChecks(check -> MessageSysFlag.TRANSACTION_COMMIT_TYPE);
        sender.answerChecks(check -> {
            throw new AssertionError("the closed sender was asked");
        });
        sender.sendHalfOk(TOPIC, 2, "tx-orphan", "rescued");
        sender.close(); // the sender dies before END_TRANSACTION

        await().atMost(WAIT).until(() -> bodies(broker.store(), TOPIC, 4).size() == 1);
        assertThat(bodies(broker.store(), TOPIC, 4)).containsExactly("rescued");
        assertThat(survivor.checks).hasSize(1);
        assertThat(sender.checks).isEmpty();
    }

    @Test
    void withoutALiveProducerNothingIsCountedAndTheLimitDiscardsLater() throws Exception {
        Broker broker = start(dir, 2);
        TransactionProtocol sender = new TransactionProtocol(broker.address(), GROUP);
        producers.add(sender);
        sender.sendHalfOk(TOPIC, 0, "tx-alone", "a");
        sender.sendHalfOk(TOPIC, 1, "tx-alone", "b");
        awaitRounds(broker, 5);
        assertThat(broker.transactions().openTransactionCount()).as("no producer: never discarded").isEqualTo(1);

        TransactionProtocol late = producer(broker);
        late.answerChecks(check -> MessageSysFlag.TRANSACTION_NOT_TYPE);
        await().atMost(WAIT).until(() -> broker.transactions().openTransactionCount() == 0);
        assertThat(late.checks).as("exactly transactionCheckMax checks, all after the producer came").hasSize(2);

        List<MessageExt> kept = read(broker.store(), SystemTopics.TRANS_CHECK_MAX_TIME_TOPIC, 0);
        assertThat(kept).extracting(m -> new String(m.getBody())).containsExactly("a", "b");
        assertThat(kept.get(0).getProperty(MessageProperties.TRANSACTION_CHECK_TIMES)).isEqualTo("2");
        assertThat(kept.get(1).getProperty(MessageProperties.REAL_TOPIC)).isEqualTo(TOPIC);
        assertThat(read(broker.store(), SystemTopics.TRANS_OP_HALF_TOPIC, 0)).extracting(MessageExt::getTags)
                .containsExactly("DISCARD");
        assertThat(bodies(broker.store(), TOPIC, 4)).isEmpty();
        RemotingCommand tooLate = late.commit("tx-alone");
        assertThat(tooLate.code()).isEqualTo(ResponseCode.TRANSACTION_FAILED);
        assertThat(tooLate.remark()).contains("discarded by the broker");
    }

    @Test
    void progressAndCheckCountsSurviveARestart() throws Exception {
        Broker first = start(dir, 3);
        TransactionProtocol p = producer(first);
        p.sendHalfOk(TOPIC, 0, "tx-ended", "x");
        assertThat(p.commit("tx-ended").code()).isEqualTo(ResponseCode.SUCCESS);
        p.sendHalfOk(TOPIC, 0, "tx-stuck", "y");
        await().atMost(WAIT).until(() -> p.checks.size() == 1);
        awaitRounds(first, 1);
        assertThat(first.transactions().checkProgressOffset()).as("held by the open transaction's half").isEqualTo(1);
        first.shutdown();
        brokers.clear();
        String progress = Files.readString(dir.resolve("config").resolve("transactionCheckProgress.json"));
        Matcher counted = Pattern.compile("\"tx-stuck\"\\s*:\\s*(\\d+)").matcher(progress);
        assertThat(counted.find()).as(progress).isTrue();
        int checksBefore = Integer.parseInt(counted.group(1));
        assertThat(checksBefore).isBetween(1, 2);

        Broker second = start(dir, 3);
        assertThat(second.transactions().openTransactionCount()).isEqualTo(1);
        TransactionProtocol again = producer(second);
        await().atMost(WAIT).until(() -> second.transactions().openTransactionCount() == 0);
        assertThat(again.checks).as("3 checks in all, counting those before the restart").hasSize(3 - checksBefore);
        awaitRounds(second, 1);
        assertThat(second.transactions().checkProgressOffset()).isEqualTo(2);
    }

    @Test
    void aBrokerThatCrashedBetweenHalfAndCommitRebuildsItsTransactions() throws Exception {
        Broker running = start(dir, 15);
        TransactionProtocol p = producer(running);
        p.sendHalfOk(TOPIC, 0, "tx-before", "committed before the crash");
        assertThat(p.commit("tx-before").code()).isEqualTo(ResponseCode.SUCCESS);
        p.sendHalfOk(TOPIC, 1, "tx-during", "half 1");
        p.sendHalfOk(TOPIC, 2, "tx-during", "half 2");
        TransactionProtocol.settle(running.store());
        Path crashed = dir.resolveSibling(dir.getFileName() + "-crashed");
        copyTree(dir, crashed); // the files as a crash leaves them: abort marker present, no final checkpoint

        Broker recovered = start(crashed, 15);
        assertThat(recovered.transactions().openTransactionCount()).isEqualTo(1);
        TransactionProtocol q = producer(recovered);
        RemotingCommand retried = q.commit("tx-before");
        assertThat(retried.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(retried.remark()).contains("already committed");
        assertThat(q.commit("tx-during").code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(bodies(recovered.store(), TOPIC, 4))
                .containsExactly("committed before the crash", "half 1", "half 2");
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.getFileName().toString().equals("lock")) {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}

package dev.wharf.client.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.client.consumer.PullStatus;
import dev.wharf.client.producer.Producer;
import dev.wharf.client.producer.SendResult;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageId;
import dev.wharf.common.message.MessageQueue;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.store.file.MappedFile;
import dev.wharf.testing.TestWharf;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A record damaged on disk while the broker was stopped, then a clean restart: a pull consumer gets every other
 * message intact and moves past the damaged one; with {@code checkCRCOnRead} the broker skips and quarantines
 * it, without it the client's decoder drops it (and keeps its neighbours in the same batch).
 */
class DamagedRecordTest {

    private static final int MESSAGES = 40;
    private static final int VICTIM = 17;
    private static final int FILE_SIZE = 8 * 1024 * 1024;

    @TempDir
    Path dir;
    private TestWharf cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "checkCRCOnRead={0}")
    @ValueSource(booleans = {true, false})
    void aDamagedRecordIsNeverDeliveredAndTheConsumerMovesPastIt(boolean checkOnBroker) throws Exception {
        cluster = TestWharf.cluster(dir, 1, s -> s.store().setCheckCRCOnRead(checkOnBroker), "broker-a");
        AdminClient admin = new AdminClient(cluster.clientConfig());
        admin.start();
        cluster.track(admin::shutdown);
        admin.createTopic("damaged", 1, "DefaultCluster");
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> admin.route("damaged") != null);
        Producer producer = new Producer("damaged-producer", cluster.clientConfig());
        producer.start();
        List<Long> offsets = new ArrayList<>();
        try {
            for (int i = 0; i < MESSAGES; i++) {
                SendResult sent = producer.send(new Message("damaged", null, null, body(i)));
                offsets.add(MessageId.commitLogOffset(sent.offsetMsgId()));
            }
        } finally {
            producer.shutdown();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.broker("broker-a").store().awaitDispatched(100));
        cluster.stopBroker("broker-a");

        long victim = offsets.get(VICTIM);
        Path file = dir.resolve("broker-a").resolve("commitlog").resolve(MappedFile.fileName(victim - victim % FILE_SIZE));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {'#'}), victim % FILE_SIZE + MessageRecord.BODY_OFFSET + 2);
        }
        cluster.startBroker("broker-a");

        PullConsumer pull = new PullConsumer("damaged-group", cluster.clientConfig());
        pull.start();
        cluster.track(pull::shutdown);
        MessageQueue mq = await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> pull.fetchSubscribeMessageQueues("damaged").iterator().next(), q -> q != null);
        List<String> received = new ArrayList<>();
        long offset = 0;
        while (offset < MESSAGES) {
            PullResult r = pull.pull(mq, null, offset, 32);
            assertThat(r.nextBeginOffset()).as("the consumer moves on").isGreaterThan(offset);
            if (r.pullStatus() == PullStatus.FOUND) {
                for (MessageExt m : r.msgFoundList()) {
                    received.add(new String(m.getBody(), StandardCharsets.UTF_8));
                }
            }
            offset = r.nextBeginOffset();
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            if (i != VICTIM) {
                expected.add(new String(body(i), StandardCharsets.UTF_8));
            }
        }
        assertThat(received).containsExactlyElementsOf(expected);
        Path report = dir.resolve("broker-a").resolve("quarantine.jsonl");
        if (checkOnBroker) {
            assertThat(Files.readString(report)).contains("\"offset\":" + victim).contains("body CRC mismatch");
            assertThat(cluster.broker("broker-a").store().stats().damagedReadSkipCount()).isPositive();
        } else {
            assertThat(report).doesNotExist();
        }
    }

    private static byte[] body(int i) {
        return ("damaged-test-message-" + i + "-payload").getBytes(StandardCharsets.UTF_8);
    }
}

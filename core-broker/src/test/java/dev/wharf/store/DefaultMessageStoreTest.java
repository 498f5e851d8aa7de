package dev.wharf.store;

import static dev.wharf.store.StoreTestSupport.decode;
import static dev.wharf.store.StoreTestSupport.message;
import static dev.wharf.store.StoreTestSupport.readAll;
import static dev.wharf.store.StoreTestSupport.smallConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageId;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.common.message.Tags;
import dev.wharf.store.commitlog.AppendResult;
import dev.wharf.store.file.SelectMappedBufferResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefaultMessageStoreTest {

    @TempDir
    Path dir;

    private DefaultMessageStore store;

    @AfterEach
    void tearDown() {
        if (store != null) {
            store.shutdown();
        }
    }

    private DefaultMessageStore start(MessageStoreConfig config) throws IOException {
        store = new DefaultMessageStore(config);
        store.start();
        return store;
    }

    private void awaitDispatched() {
        await().atMost(Duration.ofSeconds(10)).until(() -> store.dispatchBehindBytes() == 0);
    }

    @Test
    void everyFieldRoundTripsThroughPutAndGet() throws IOException {
        start(smallConfig(dir));
        MessageToStore msg = message("RoundTrip", 1, "payload ✓");
        msg.setFlag(77);
        msg.setSysFlag(MessageSysFlag.MULTI_TAGS);
        msg.setReconsumeTimes(3);
        msg.setPreparedTransactionOffset(4242);
        msg.setStoreHost(HostAddress.pack("192.168.7.8:10911"));
        msg.putProperty(MessageProperties.TAGS, "tagA");
        msg.putProperty(MessageProperties.KEYS, "order-1 order-2");
        msg.putProperty("custom", "välue");

        PutMessageResult put = store.putMessage(msg);
        assertThat(put.status()).isEqualTo(PutMessageStatus.PUT_OK);
        assertThat(put.isOk()).isTrue();
        AppendResult appended = put.appendResult();
        assertThat(appended.wroteOffset()).isZero();
        assertThat(appended.logicsOffset()).isZero();
        assertThat(appended.msgNum()).isEqualTo(1);
        assertThat(appended.msgId()).isEqualTo(MessageId.create(msg.getStoreHost(), 0));
        assertThat(msg.getCommitLogOffset()).isZero();
        assertThat(msg.getStoreTimestamp()).isEqualTo(appended.storeTimestamp());
        awaitDispatched();

        List<MessageExt> read = decode(store.getMessage("RoundTrip", 1, 0, 32, 1 << 20, MessageFilter.ALL));
        assertThat(read).hasSize(1);
        MessageExt m = read.get(0);
        assertThat(m.getTopic()).isEqualTo("RoundTrip");
        assertThat(m.getQueueId()).isEqualTo(1);
        assertThat(m.getFlag()).isEqualTo(77);
        assertThat(m.getQueueOffset()).isZero();
        assertThat(m.getCommitLogOffset()).isZero();
        assertThat(m.getSysFlag()).isEqualTo(MessageSysFlag.MULTI_TAGS);
        assertThat(m.getBornTimestamp()).isEqualTo(msg.getBornTimestamp());
        assertThat(m.getBornHost()).isEqualTo(msg.getBornHost());
        assertThat(m.getStoreTimestamp()).isEqualTo(appended.storeTimestamp());
        assertThat(m.getStoreHost()).isEqualTo(HostAddress.pack("192.168.7.8:10911"));
        assertThat(m.getReconsumeTimes()).isEqualTo(3);
        assertThat(m.getPreparedTransactionOffset()).isEqualTo(4242);
        assertThat(m.getBodyCRC()).isEqualTo(MessageDecoder.crc32(msg.getBody()));
        assertThat(m.getStoreSize()).isEqualTo(appended.wroteBytes());
        assertThat(new String(m.getBody(), StandardCharsets.UTF_8)).isEqualTo("payload ✓");
        assertThat(m.getProperties()).isEqualTo(msg.getProperties());
        assertThat(m.getOffsetMsgId()).isEqualTo(appended.msgId());

        MessageExt looked = store.readMessageAt(0);
        assertThat(looked.getProperties()).isEqualTo(msg.getProperties());
        SelectMappedBufferResult one = store.selectOneMessageByOffset(0);
        assertThat(one.size()).isEqualTo(appended.wroteBytes());
        one.release();
        assertThat(store.readMessageAt(5)).as("not a record start").isNull();
        assertThat(store.readMessageAt(1 << 30)).isNull();
    }

    @Test
    void messagesCrossCommitLogAndQueueFileBoundaries() throws IOException {
        start(smallConfig(dir));
        List<List<String>> sent = new ArrayList<>();
        for (int q = 0; q < 4; q++) {
            sent.add(new ArrayList<>());
        }
        for (int i = 0; i < 1200; i++) {
            int q = i % 4;
            String body = "m" + i + "-" + "z".repeat(i % 400);
            assertThat(store.putMessage(message("Cross", q, body)).isOk()).isTrue();
            sent.get(q).add(body);
        }
        awaitDispatched();
        assertThat(store.getMaxPhyOffset()).isGreaterThan(4L * 64 * 1024);
        for (int q = 0; q < 4; q++) {
            assertThat(store.getMinOffsetInQueue("Cross", q)).isZero();
            assertThat(store.getMaxOffsetInQueue("Cross", q)).isEqualTo(300);
            assertThat(readAll(store, "Cross", q, 0)).containsExactlyElementsOf(sent.get(q));
            long phy = store.getCommitLogOffsetInQueue("Cross", q, 299);
            assertThat(new String(store.readMessageAt(phy).getBody(), StandardCharsets.UTF_8))
                    .isEqualTo(sent.get(q).get(299));
        }
        assertThat(store.getCommitLogOffsetInQueue("Cross", 0, 300)).isEqualTo(-1);
        assertThat(store.getMessageStoreTimestamp("Cross", 0, 300)).isEqualTo(-1);
        assertThat(store.getMessageStoreTimestamp("Cross", 0, 0)).isPositive();
        assertThat(store.getEarliestMessageTime("Cross", 0)).isEqualTo(store.getMessageStoreTimestamp("Cross", 0, 0));
        assertThat(store.stats().putMessageCount()).isEqualTo(1200);
    }

    @Test
    void thousandsOfTopicsAndQueues() throws IOException {
        start(smallConfig(dir));
        int topics = 1000;
        for (int t = 0; t < topics; t++) {
            for (int q = 0; q < 3; q++) {
                assertThat(store.putMessage(message("topic-" + t, q, t + "/" + q)).isOk()).isTrue();
            }
        }
        awaitDispatched();
        assertThat(store.topicsWithQueues()).hasSize(topics);
        for (int t = 0; t < topics; t += 97) {
            for (int q = 0; q < 3; q++) {
                assertThat(store.getMaxOffsetInQueue("topic-" + t, q)).isEqualTo(1);
                assertThat(readAll(store, "topic-" + t, q, 0)).containsExactly(t + "/" + q);
            }
        }
    }

    @Test
    void readStatusesAndLimits() throws IOException {
        MessageStoreConfig config = smallConfig(dir);
        config.setMaxTransferCountOnMessageInMemory(5);
        start(config);
        assertThat(store.getMessage("Nope", 0, 0, 32, 1 << 20, null).status())
                .isEqualTo(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE);
        for (int i = 0; i < 20; i++) {
            MessageToStore m = message("Status", 0, "x".repeat(100));
            m.putProperty(MessageProperties.TAGS, i % 2 == 0 ? "even" : "odd");
            store.putMessage(m);
        }
        awaitDispatched();

        GetMessageResult capped = store.getMessage("Status", 0, 0, 32, 1 << 20, null);
        assertThat(capped.status()).isEqualTo(GetMessageStatus.FOUND);
        assertThat(capped.messageCount()).as("maxTransferCountOnMessageInMemory").isEqualTo(5);
        assertThat(capped.nextBeginOffset()).isEqualTo(5);
        assertThat(capped.minOffset()).isZero();
        assertThat(capped.maxOffset()).isEqualTo(20);
        capped.release();

        int two = store.readMessageAt(store.getCommitLogOffsetInQueue("Status", 0, 2)).getStoreSize()
                + store.readMessageAt(store.getCommitLogOffsetInQueue("Status", 0, 3)).getStoreSize();
        GetMessageResult byBytes = store.getMessage("Status", 0, 2, 32, two + 1, null);
        assertThat(byBytes.messageCount()).isEqualTo(2);
        assertThat(byBytes.bufferTotalSize()).isEqualTo(two);
        assertThat(byBytes.nextBeginOffset()).isEqualTo(4);
        byBytes.release();

        GetMessageResult one = store.getMessage("Status", 0, 19, 32, 1, null);
        assertThat(one.messageCount()).as("at least one message even above maxTotalBytes").isEqualTo(1);
        one.release();

        MessageFilter oddOnly = new MessageFilter() {
            @Override
            public boolean isMatchedByConsumeQueue(long tagsCode) {
                return tagsCode == Tags.hash("odd");
            }

            @Override
            public boolean isMatchedByCommitLog(ByteBuffer record) {
                return true;
            }
        };
        List<MessageExt> odd = decode(store.getMessage("Status", 0, 0, 32, 1 << 20, oddOnly));
        assertThat(odd).extracting(MessageExt::getQueueOffset).containsExactly(1L, 3L, 5L, 7L, 9L);

        MessageFilter none = new MessageFilter() {
            @Override
            public boolean isMatchedByConsumeQueue(long tagsCode) {
                return true;
            }

            @Override
            public boolean isMatchedByCommitLog(ByteBuffer record) {
                return false;
            }
        };
        GetMessageResult nothing = store.getMessage("Status", 0, 0, 32, 1 << 20, none);
        assertThat(nothing.status()).isEqualTo(GetMessageStatus.NO_MATCHED_MESSAGE);
        assertThat(nothing.nextBeginOffset()).as("moves past the filtered units").isEqualTo(20);

        assertThat(store.getMessage("Status", 0, 20, 32, 1 << 20, null).status())
                .isEqualTo(GetMessageStatus.OFFSET_OVERFLOW_ONE);
        GetMessageResult badly = store.getMessage("Status", 0, 99, 32, 1 << 20, null);
        assertThat(badly.status()).isEqualTo(GetMessageStatus.OFFSET_OVERFLOW_BADLY);
        assertThat(badly.nextBeginOffset()).isEqualTo(20);
        GetMessageResult small = store.getMessage("Status", 0, -3, 32, 1 << 20, null);
        assertThat(small.status()).isEqualTo(GetMessageStatus.OFFSET_TOO_SMALL);
        assertThat(small.nextBeginOffset()).isZero();
    }

    @Test
    void offsetByTimeFindsTheFirstMessageStoredAtOrAfterIt() throws IOException {
        start(smallConfig(dir));
        long last = 0;
        for (int i = 0; i < 10; i++) {
            last = store.putMessage(message("Time", 0, "early" + i)).appendResult().storeTimestamp();
        }
        long lastEarly = last;
        // the clock must move past the early messages before the late ones are stored
        await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > lastEarly);
        long boundary = System.currentTimeMillis();
        for (int i = 0; i < 10; i++) {
            store.putMessage(message("Time", 0, "late" + i));
        }
        awaitDispatched();
        assertThat(store.getOffsetInQueueByTime("Time", 0, boundary)).isEqualTo(10);
        assertThat(store.getOffsetInQueueByTime("Time", 0, 0)).isZero();
        assertThat(store.getOffsetInQueueByTime("Time", 0, Long.MAX_VALUE)).isEqualTo(20);
        assertThat(store.getOffsetInQueueByTime("NoSuchTopic", 0, boundary)).isZero();
    }

    @Test
    void dispatchRulesForTransactionsAndScheduledMessages() throws IOException {
        start(smallConfig(dir));
        MessageToStore half = message(SystemTopics.TRANS_HALF_TOPIC, 0, "half");
        half.putProperty(MessageProperties.TRANSACTION_PREPARED, "true");
        MessageToStore prepared = message("TxReal", 0, "prepared-flag");
        prepared.setSysFlag(MessageSysFlag.TRANSACTION_PREPARED_TYPE);
        MessageToStore committed = message("TxReal", 0, "committed");
        committed.setSysFlag(MessageSysFlag.TRANSACTION_COMMIT_TYPE);
        MessageToStore scheduled = message(SystemTopics.SCHEDULE_TOPIC, 2, "later");
        scheduled.setDeliverTimeMs(1_999_999_999_999L);
        for (MessageToStore m : List.of(half, prepared, committed, scheduled)) {
            assertThat(store.putMessage(m).isOk()).isTrue();
        }
        awaitDispatched();
        assertThat(readAll(store, SystemTopics.TRANS_HALF_TOPIC, 0, 0)).containsExactly("half");
        assertThat(readAll(store, "TxReal", 0, 0)).as("prepared records get no queue unit").containsExactly("committed");
        List<Long> tagCodes = new ArrayList<>();
        MessageFilter capture = new MessageFilter() {
            @Override
            public boolean isMatchedByConsumeQueue(long tagsCode) {
                tagCodes.add(tagsCode);
                return true;
            }

            @Override
            public boolean isMatchedByCommitLog(ByteBuffer record) {
                return true;
            }
        };
        store.getMessage(SystemTopics.SCHEDULE_TOPIC, 2, 0, 32, 1 << 20, capture).release();
        assertThat(tagCodes).containsExactly(1_999_999_999_999L);
    }

    @Test
    void arrivingListenerHearsEveryDispatchedMessage() throws IOException {
        start(smallConfig(dir));
        List<String> heard = new CopyOnWriteArrayList<>();
        store.setMessageArrivingListener((topic, queueId, logicOffset, tagsCode, storeTimestamp, properties) ->
                heard.add(topic + "/" + queueId + "@" + logicOffset + " tags=" + tagsCode + " p=" + properties.get("p")));
        MessageToStore m = message("Arrive", 5, "x");
        m.putProperty(MessageProperties.TAGS, "t");
        m.putProperty("p", "v");
        store.putMessage(m);
        store.putMessage(message("Arrive", 5, "y"));
        await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 2);
        assertThat(heard).containsExactly("Arrive/5@0 tags=" + Tags.hash("t") + " p=v", "Arrive/5@1 tags=0 p=null");
    }

    @Test
    void batchPutIsConsecutiveAndAsyncPutCompletes() throws Exception {
        start(smallConfig(dir));
        List<MessageToStore> batch = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            batch.add(message("Batch", 0, "b" + i));
        }
        PutMessageResult result = store.putMessages(batch);
        assertThat(result.isOk()).isTrue();
        assertThat(result.appendResult().msgNum()).isEqualTo(10);
        for (int i = 1; i < 10; i++) {
            assertThat(batch.get(i).getCommitLogOffset())
                    .isEqualTo(batch.get(i - 1).getCommitLogOffset() + batch.get(i - 1).getStoreSize());
            assertThat(batch.get(i).getQueueOffset()).isEqualTo(i);
        }
        PutMessageResult async = store.asyncPutMessage(message("Batch", 0, "b10")).get(10, TimeUnit.SECONDS);
        assertThat(async.appendResult().logicsOffset()).isEqualTo(10);
        awaitDispatched();
        assertThat(readAll(store, "Batch", 0, 0)).hasSize(11).startsWith("b0", "b1").endsWith("b10");
    }

    @Test
    void deletedTopicsLoseTheirQueuesAndStartAgainAtZero() throws IOException {
        start(smallConfig(dir));
        store.putMessage(message("Gone", 0, "1"));
        store.putMessage(message("Gone", 0, "2"));
        store.putMessage(message("Kept", 0, "k"));
        awaitDispatched();
        store.deleteTopics(Set.of("Gone"));
        assertThat(store.topicsWithQueues()).containsExactly("Kept");
        assertThat(store.getMessage("Gone", 0, 0, 32, 1 << 20, null).status())
                .isEqualTo(GetMessageStatus.NO_MATCHED_LOGIC_QUEUE);
        assertThat(store.putMessage(message("Gone", 0, "again")).appendResult().logicsOffset()).isZero();
        awaitDispatched();
        assertThat(readAll(store, "Gone", 0, 0)).containsExactly("again");
        assertThat(readAll(store, "Kept", 0, 0)).containsExactly("k");
        assertThat(store.stats().toString()).contains("puts=4");
        assertThat(Map.of("dispatched", store.stats().dispatchedMessageCount())).containsEntry("dispatched", 4L);
    }
}

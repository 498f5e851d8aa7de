package dev.wharf.broker.ack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.ack.AckService.PopCommand;
import dev.wharf.broker.ack.persist.AckStateDocument;
import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.protocol.body.AckStats;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.store.DefaultMessageStore;
import dev.wharf.store.MessageToStore;
import dev.wharf.store.MessageStoreConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The snapshot plus the ack log rebuild exactly the state a service had, also when the service never wrote a
 * final snapshot (a crash) and when replay starts far below what the snapshot already holds; and leases given to a
 * connection that is gone come back without waiting for their end.
 */
class AckRecoveryTest {

    private static final String TOPIC = "Recovered";
    private static final String GROUP = "g";

    @TempDir
    Path dir;

    private DefaultMessageStore store;
    private TopicConfigManager topics;
    private SubscriptionGroupManager groups;
    private JsonConfigFile<AckStateDocument> file;
    private final List<AckService> services = new ArrayList<>();

    @BeforeEach
    void openStore() throws Exception {
        MessageStoreConfig config = new MessageStoreConfig();
        config.setStorePathRootDir(dir.resolve("store").toString());
        config.setMappedFileSizeCommitLog(4 * 1024 * 1024);
        config.setMappedFileSizeConsumeQueue(20 * 4_000);
        config.setMaxMessageSize(256 * 1024);
        config.setMaxHashSlotNum(1_000);
        config.setMaxIndexNum(4_000);
        store = new DefaultMessageStore(config);
        store.start();
        topics = new TopicConfigManager(null, 1, true, 18);
        topics.load();
        groups = new SubscriptionGroupManager(null, true, 16);
        file = new JsonConfigFile<>(dir.resolve("ackState.json"), AckStateDocument.class);
        for (int i = 0; i < 60; i++) {
            MessageToStore msg = new MessageToStore();
            msg.setTopic(TOPIC);
            msg.setQueueId(0);
            msg.setBody(("m" + i).getBytes(StandardCharsets.UTF_8));
            msg.setPropertiesString("");
            assertThat(store.putMessage(msg).isOk()).isTrue();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> store.getMaxOffsetInQueue(TOPIC, 0) == 60);
    }

    @AfterEach
    void close() {
        services.forEach(AckService::shutdown);
        if (store != null) {
            store.shutdown();
        }
    }

    private AckService service() throws Exception {
        AckService service = new AckService(new AckSettings(64, 1 << 20, 3_600_000, 3_600_000), store, topics, groups,
                file, (topic, queueId, tagsCode) -> { }, System::currentTimeMillis);
        service.start();
        services.add(service);
        return service;
    }

    private static List<Long> pop(AckService service, int max) {
        return pop(service, max, null);
    }

    private static List<Long> pop(AckService service, int max, RemotingChannel owner) {
        PopOutcome outcome = service.pop(new PopCommand(GROUP, TOPIC, 0, 1, max, 600_000,
                service.compile(ExpressionType.TAG, "*"), InitMode.EARLIEST, false, null), owner);
        List<Long> offsets = new ArrayList<>();
        for (ByteBuffer body : outcome.bodies()) {
            MessageExt msg = MessageDecoder.decode(body.duplicate(), false, false);
            offsets.add(msg.getQueueOffset());
        }
        outcome.logged().join();
        outcome.release();
        return offsets;
    }

    /** What a browser sees: every offset still there, with its delivery count so far. */
    private static List<String> view(AckService service) {
        List<String> out = new ArrayList<>();
        long from = 0;
        while (from < 60) {
            PeekOutcome peek = service.peek(GROUP, TOPIC, 0, from, 32, service.compile(ExpressionType.TAG, "*"));
            String[] counts = peek.deliveryCounts().isEmpty() ? new String[0] : peek.deliveryCounts().split(",");
            List<ByteBuffer> bodies = peek.bodies();
            for (int i = 0; i < bodies.size(); i++) {
                out.add(MessageDecoder.decode(bodies.get(i).duplicate(), false, false).getQueueOffset() + ":" + counts[i]);
            }
            peek.release();
            from = peek.nextOffset();
        }
        return out;
    }

    /** Pops, acks out of order, releases some uncounted, with a snapshot in the middle. */
    private AckService exercise() throws Exception {
        AckService service = service();
        List<Long> first = pop(service, 20);
        service.ack(GROUP, TOPIC, 0, new long[] {0, 1, 2, 7, 19}).join();
        service.snapshotNow();
        service.ack(GROUP, TOPIC, 0, new long[] {3, 4, 11}).join();
        service.changeInvisibleTime(GROUP, TOPIC, 0, new long[] {5, 6}, null, 0, false).join();
        service.changeInvisibleTime(GROUP, TOPIC, 0, new long[] {8}, null, 0, true).join();
        assertThat(first).hasSize(20);
        assertThat(pop(service, 4)).containsExactly(5L, 6L, 8L, 20L);
        service.ack(GROUP, TOPIC, 0, new long[] {40, 41}).join();
        return service;
    }

    @Test
    void aServiceThatDiedWithoutAFinalSnapshotIsRebuiltFromSnapshotAndLog() throws Exception {
        AckService before = exercise();
        List<String> expected = view(before);
        AckStats expectedStats = before.stats(GROUP, null);
        AckService after = service(); // the first one never wrote its final snapshot
        assertThat(view(after)).isEqualTo(expected);
        assertThat(after.stats(GROUP, null).queues().get(0).ackOffset()).isEqualTo(5);
        assertThat(after.stats(GROUP, null).queues().get(0).ackedAbove())
                .isEqualTo(expectedStats.queues().get(0).ackedAbove());
        assertThat(expected).contains("8:2", "20:1", "9:1", "21:0").doesNotContain("11:1", "40:0");
        // leases are not restored: 9 (popped, not acknowledged) is available again, with its count
        assertThat(pop(after, 4)).containsExactly(5L, 6L, 8L, 9L);
    }

    @Test
    void replayingRecordsTheSnapshotAlreadyHoldsChangesNothing() throws Exception {
        AckService before = exercise();
        List<String> expected = view(before);
        before.snapshotNow();
        AckStateDocument doc = file.load();
        file.persist(new AckStateDocument(doc.version(), 0, doc.groups())); // replay the whole log on top
        assertThat(view(service())).isEqualTo(expected);
    }

    /**
     * A long poll answered just as its client's connection closed leases to a channel whose close was already
     * handled: those leases end at once (with the delivery counted), not after the 10-minute lease.
     */
    @Test
    void aPopForAConnectionThatAlreadyClosedGivesItsMessagesBack() throws Exception {
        AckService service = service(); // leases are scanned hourly here: only the pop itself can return them
        assertThat(pop(service, 3, new ClosedChannel())).containsExactly(0L, 1L, 2L);
        await().atMost(Duration.ofSeconds(10)).until(() -> service.stats(GROUP, null).queues().get(0).inFlight() == 0);
        assertThat(pop(service, 3)).containsExactly(0L, 1L, 2L);
        assertThat(view(service).subList(0, 3)).containsExactly("0:2", "1:2", "2:2");
    }

    /** The server side of a connection that has closed. */
    private static final class ClosedChannel implements RemotingChannel {

        @Override
        public String remoteAddress() {
            return "127.0.0.1:1";
        }

        @Override
        public String localAddress() {
            return "127.0.0.1:2";
        }

        @Override
        public boolean isActive() {
            return false;
        }

        @Override
        public boolean isWritable() {
            return false;
        }

        @Override
        public void writeResponse(RemotingCommand response) {
            throw new AssertionError("nothing is written to a closed connection");
        }

        @Override
        public RemotingCommand invokeSync(RemotingCommand request, long timeoutMillis) {
            throw new AssertionError("nothing is sent over a closed connection");
        }

        @Override
        public CompletableFuture<RemotingCommand> invokeAsync(RemotingCommand request, long timeoutMillis) {
            throw new AssertionError("nothing is sent over a closed connection");
        }

        @Override
        public void invokeOneway(RemotingCommand request) {
            throw new AssertionError("nothing is sent over a closed connection");
        }

        @Override
        public void close() {
        }

        @Override
        public boolean isEncrypted() {
            return false;
        }

        @Override
        public Object guardState() {
            return null;
        }

        @Override
        public void setGuardState(Object state) {
        }
    }
}

package dev.wharf.broker.slave;

import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.broker.group.SubscriptionGroupConfig;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.offset.ConsumerOffsetManager;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.SystemTopics;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.RequestCode;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.body.RouteData.TopicConfigTable;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.header.OffsetHeaders.UpdateConsumerOffsetRequest;
import dev.wharf.protocol.header.SyncHeaders.ProgressDocumentRequest;
import dev.wharf.remoting.NettyRemotingClient;
import dev.wharf.remoting.exception.RemotingException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A slave's copy of its master's metadata, one round at a time over ordinary admin requests: topic
 * configurations (GET_ALL_TOPIC_CONFIG; topics gone from the master are deleted here), subscription groups
 * (GET_ALL_SUBSCRIPTIONGROUP_CONFIG), consumer offsets (GET_ALL_CONSUMER_OFFSET, merged with the offsets committed
 * to this slave, see {@link SlaveCommittedOffsets}), and the progress documents (GET_PROGRESS_DOCUMENT: delay and
 * timer progress, acknowledgement state, transaction check progress), written to this broker's config folder so
 * that it starts from them when it is restarted as a master. A slave does not run the services that own those
 * documents, so nothing here races their writers.
 *
 * <p>{@link #syncOnce()} is run periodically by the broker's scheduler; it never throws, and a round that cannot
 * reach the master changes nothing. Not thread-safe: one thread runs the rounds.
 */
public final class SlaveSynchronizer {

    private static final Logger log = LoggerFactory.getLogger(SlaveSynchronizer.class);

    /** What one round did (for logs and tests). */
    public record Round(String master, boolean ok, int topicsChanged, int groupsChanged, int offsetQueues,
                        int handedBack, int documents, String error) {
    }

    private final NettyRemotingClient client;
    private final Supplier<String> masterAddr;
    private final TopicConfigManager topics;
    private final SubscriptionGroupManager groups;
    private final ConsumerOffsetManager offsets;
    private final SlaveCommittedOffsets committed;
    private final Path storeRoot;
    private final long timeoutMillis;
    private final Runnable relearnMaster;
    private volatile Round last;
    private volatile long lastSuccessMillis;

    /**
     * @param client     a started remoting client (owned by the caller)
     * @param masterAddr    the master's address now, or null when none is known (the round is skipped)
     * @param relearnMaster asks the NameServers who the master is now (a registration), run when no master is
     *                      known or the known one does not answer: a master that returns on another address is
     *                      found within a round, not at the next periodic registration
     */
    public SlaveSynchronizer(NettyRemotingClient client, Supplier<String> masterAddr, TopicConfigManager topics,
                             SubscriptionGroupManager groups, ConsumerOffsetManager offsets,
                             SlaveCommittedOffsets committed, Path storeRoot, long timeoutMillis,
                             Runnable relearnMaster) {
        this.relearnMaster = relearnMaster;
        this.client = client;
        this.masterAddr = masterAddr;
        this.topics = topics;
        this.groups = groups;
        this.offsets = offsets;
        this.committed = committed;
        this.storeRoot = storeRoot;
        this.timeoutMillis = timeoutMillis;
    }

    /** The last round, or null before the first. */
    public Round lastRound() {
        return last;
    }

    /** Epoch millis of the last round that copied everything, or 0. */
    public long lastSuccessMillis() {
        return lastSuccessMillis;
    }

    /** Copies everything once; never throws. */
    public Round syncOnce() {
        String master = masterAddr.get();
        if (master == null) {
            relearnMaster.run();
            return remember(new Round(null, false, 0, 0, 0, 0, 0, "no master is registered"));
        }
        int[] counts = new int[5];
        try {
            counts[0] = syncTopics(master);
            counts[1] = syncGroups(master);
            int[] o = syncOffsets(master);
            counts[2] = o[0];
            counts[3] = o[1];
            counts[4] = syncDocuments(master);
            lastSuccessMillis = System.currentTimeMillis();
            return remember(new Round(master, true, counts[0], counts[1], counts[2], counts[3], counts[4], null));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return remember(new Round(master, false, counts[0], counts[1], counts[2], counts[3], counts[4],
                    "interrupted"));
        } catch (RemotingException | IOException | RuntimeException e) {
            if (e instanceof RemotingException) {
                relearnMaster.run();
            }
            Round failed = new Round(master, false, counts[0], counts[1], counts[2], counts[3], counts[4], e.toString());
            Round before = last;
            if (before == null || before.ok() || !Objects.equals(before.error(), failed.error())) {
                log.warn("Metadata sync from master {} failed: {}", master, e.toString());
            }
            return remember(failed);
        }
    }

    private Round remember(Round round) {
        last = round;
        return round;
    }

    private RemotingCommand call(String master, int code, Record header)
            throws RemotingException, InterruptedException {
        RemotingCommand request = RemotingCommand.createRequest(code);
        if (header != null) {
            request.writeHeader(header);
        }
        return client.invokeSync(master, request, timeoutMillis);
    }

    private static RemotingCommand expectSuccess(String master, int code, RemotingCommand response) {
        if (response.code() != ResponseCode.SUCCESS) {
            throw new IllegalStateException("master " + master + " refused " + RequestCode.NAMES.name(code) + ": "
                    + ResponseCode.NAMES.name(response.code()) + " " + response.remark());
        }
        return response;
    }

    private int syncTopics(String master) throws RemotingException, InterruptedException, IOException {
        RemotingCommand response = expectSuccess(master, RequestCode.GET_ALL_TOPIC_CONFIG,
                call(master, RequestCode.GET_ALL_TOPIC_CONFIG, null));
        TopicConfigTable table = Json.decode(response.body(), TopicConfigTable.class);
        Map<String, TopicConfig> theirs = table.topicConfigTable() == null ? Map.of() : table.topicConfigTable();
        Map<String, TopicConfig> mine = topics.all();
        int changed = 0;
        for (TopicConfig t : theirs.values()) {
            if (t == null || SystemTopics.isInternal(t.topicName()) || t.equals(mine.get(t.topicName()))) {
                continue;
            }
            topics.update(t);
            changed++;
        }
        for (String name : mine.keySet()) {
            if (!theirs.containsKey(name) && !SystemTopics.isInternal(name)) {
                topics.delete(name);
                changed++;
            }
        }
        return changed;
    }

    private int syncGroups(String master) throws RemotingException, InterruptedException, IOException {
        RemotingCommand response = expectSuccess(master, RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG,
                call(master, RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, null));
        SubscriptionGroupManager.GroupsDocument doc = Json.decode(response.body(),
                SubscriptionGroupManager.GroupsDocument.class);
        Map<String, SubscriptionGroupConfig> theirs = doc.subscriptionGroupTable() == null ? Map.of()
                : doc.subscriptionGroupTable();
        Map<String, SubscriptionGroupConfig> mine = groups.all();
        int changed = 0;
        for (SubscriptionGroupConfig g : theirs.values()) {
            if (g != null && !g.equals(mine.get(g.groupName()))) {
                groups.update(g);
                changed++;
            }
        }
        for (String name : mine.keySet()) {
            if (!theirs.containsKey(name)) {
                groups.delete(name);
                changed++;
            }
        }
        return changed;
    }

    /** @return queues in the merged table, offsets handed back */
    private int[] syncOffsets(String master) throws RemotingException, InterruptedException {
        RemotingCommand response = expectSuccess(master, RequestCode.GET_ALL_CONSUMER_OFFSET,
                call(master, RequestCode.GET_ALL_CONSUMER_OFFSET, null));
        ConsumerOffsetManager.OffsetsDocument doc = Json.decode(response.body(),
                ConsumerOffsetManager.OffsetsDocument.class);
        SlaveCommittedOffsets.Merge merge = committed.merge(doc.offsetTable() == null ? Map.of() : doc.offsetTable());
        offsets.replaceAll(merge.table());
        int handedBack = 0;
        for (SlaveCommittedOffsets.HandBack h : merge.handBacks()) {
            RemotingCommand request = RemotingCommand.createRequest(RequestCode.UPDATE_CONSUMER_OFFSET);
            request.writeHeader(new UpdateConsumerOffsetRequest(h.group(), h.topic(), h.queueId(), h.offset()));
            RemotingCommand answer = client.invokeSync(master, request, timeoutMillis);
            if (answer.code() == ResponseCode.SUCCESS) {
                handedBack++;
            } else {
                log.warn("Master {} refused the offset {} of group {} for {}#{} committed on this slave: {} {}",
                        master, h.offset(), h.group(), h.topic(), h.queueId(), ResponseCode.NAMES.name(answer.code()),
                        answer.remark());
            }
        }
        if (handedBack > 0) {
            log.info("Handed {} offset(s) committed on this slave back to master {}", handedBack, master);
        }
        int queues = 0;
        for (Map<Integer, Long> q : merge.table().values()) {
            queues += q.size();
        }
        return new int[] {queues, handedBack};
    }

    private int syncDocuments(String master) throws RemotingException, InterruptedException, IOException {
        int copied = 0;
        for (String name : new java.util.TreeSet<>(MetadataExportProcessor.PROGRESS_DOCUMENTS)) {
            RemotingCommand response = call(master, RequestCode.GET_PROGRESS_DOCUMENT,
                    new ProgressDocumentRequest(name));
            if (response.code() == ResponseCode.QUERY_NOT_FOUND) {
                continue;
            }
            expectSuccess(master, RequestCode.GET_PROGRESS_DOCUMENT, response);
            @SuppressWarnings("rawtypes")
            JsonConfigFile<Map> file = JsonConfigFile.inConfigDir(storeRoot, name, Map.class);
            @SuppressWarnings("rawtypes")
            Map theirs = Json.decode(response.body(), Map.class);
            if (!theirs.equals(file.load())) {
                file.persist(theirs);
            }
            copied++;
        }
        return copied;
    }
}

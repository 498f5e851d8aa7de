package dev.wharf.broker.slave;

import dev.wharf.broker.ack.persist.AckStateDocument;
import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.protocol.RemotingCommand;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.protocol.body.AckStats;
import dev.wharf.protocol.body.Json;
import dev.wharf.protocol.header.AckHeaders.AckStatsRequest;
import dev.wharf.protocol.header.SyncHeaders;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RequestProcessor;
import dev.wharf.store.MessageStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * GET_ACK_STATS on a slave: the acknowledgement positions of its master's last snapshot as copied by the metadata
 * sync (a slave does not run acknowledgement state of its own). A consumer that reads a group's slave while the
 * master is down starts each queue at its ackOffset here; messages acknowledged on the master after that snapshot
 * are delivered again (duplicates, never a gap). In-flight and backlog figures are not known here and are 0.
 */
public final class SlaveAckStatsProcessor implements RequestProcessor {

    private final JsonConfigFile<AckStateDocument> copy;
    private final MessageStore store;

    public SlaveAckStatsProcessor(Path storeRoot, MessageStore store) {
        this.copy = JsonConfigFile.inConfigDir(storeRoot, SyncHeaders.ACK_STATE, AckStateDocument.class);
        this.store = store;
    }

    @Override
    public RemotingCommand process(RemotingChannel channel, RemotingCommand request) throws Exception {
        AckStatsRequest h = request.readHeader(AckStatsRequest.class);
        AckStateDocument doc = copy.load();
        List<AckStats.QueueAckStats> queues = new ArrayList<>();
        if (doc != null && doc.groups() != null) {
            for (AckStateDocument.GroupState g : doc.groups()) {
                if (!h.consumerGroup().equals(g.group()) || (h.topic() != null && !h.topic().equals(g.topic()))
                        || g.queues() == null) {
                    continue;
                }
                for (AckStateDocument.QueueState q : g.queues()) {
                    queues.add(new AckStats.QueueAckStats(g.topic(), q.queueId(), q.ackOffset(), 0, 0, 0,
                            store.getMaxOffsetInQueue(g.topic(), q.queueId()), q.expired(), q.deadLettered(),
                            q.skipped()));
                }
            }
        }
        queues.sort(Comparator.comparing(AckStats.QueueAckStats::topic).thenComparingInt(AckStats.QueueAckStats::queueId));
        return request.newResponse(ResponseCode.SUCCESS, null)
                .setBody(Json.encode(new AckStats(h.consumerGroup(), queues)));
    }
}

package dev.wharf.store;

import dev.wharf.store.commitlog.CommitLog;
import dev.wharf.store.dispatch.ReputMessageService;
import dev.wharf.store.index.IndexService;
import dev.wharf.store.queue.ConsumeQueue;
import dev.wharf.store.queue.ConsumeQueueStore;
import dev.wharf.store.queue.QueueManifest;
import dev.wharf.store.recovery.CommitLogRecovery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At every start, checks the data derived from the commit log (consume queues, index) against what should be
 * there, and rebuilds what is missing or short from the commit log, before the dispatcher resumes.
 *
 * <ul>
 *   <li>With a queue manifest ({@link QueueManifest}): the queues are registered from it without opening any,
 *       and each queue's expected files are checked with one {@code stat} each. After a clean stop the
 *       manifest's ends are exact and queues open later without reading their files; after an unclean stop
 *       they are lower bounds, queues scan their tails when they open, and dispatching resumes no later than
 *       where the manifest was taken.</li>
 *   <li>Without one (a store written before manifests, or the manifest was lost): every queue directory is
 *       listed and its files checked, and the whole commit log is dispatched again (units already there are
 *       ignored), which is slow but loses nothing.</li>
 *   <li>Index: a file that cannot be opened, or index files that end below what the manifest recorded (files
 *       deleted), make the whole index be rebuilt.</li>
 * </ul>
 *
 * <p>Damaged queues are deleted and filled again from the commit log in one pass over it that dispatches only
 * to them (and to the index when it is rebuilt). Every rebuilt queue and the index are named in the log.
 *
 * <p>Not thread-safe: runs once at start-up.
 */
final class DerivedDataCheck {

    private static final Logger log = LoggerFactory.getLogger(DerivedDataCheck.class);
    private static final int NAMED_IN_LOG = 20;

    /**
     * What the check decided.
     *
     * @param dispatchFrom  where the dispatcher resumes
     * @param rebuiltQueues queues filled again from the commit log
     * @param indexRebuilt  whether the index was built again
     * @param writeManifest whether a new manifest should be written at once (the old one did not describe the
     *                      queues as they are now)
     */
    record Outcome(long dispatchFrom, int rebuiltQueues, boolean indexRebuilt, boolean writeManifest) {
    }

    private DerivedDataCheck() {
    }

    /**
     * Registers the queues and decides what must be rebuilt, before commit-log recovery (no file is opened).
     *
     * @return the queues whose files are damaged
     */
    static List<ConsumeQueue> registerQueues(ConsumeQueueStore queues, QueueManifest manifest, boolean exact,
            boolean commitLogEmpty) throws IOException {
        if (manifest != null) {
            queues.restore(manifest, exact);
            return queues.findMissingOrShort();
        }
        if (commitLogEmpty) {
            return queues.scanDisk(true);
        }
        log.warn("No queue manifest: listing every consume queue and dispatching the whole commit log again to"
                + " check them (this start takes longer; the next ones use the manifest)");
        return queues.scanDisk(true);
    }

    /**
     * Rebuilds the damaged queues and, when asked, the index from the commit log; then says where the
     * dispatcher resumes.
     */
    static Outcome rebuild(CommitLog commitLog, ConsumeQueueStore queues, IndexService index, boolean indexEnabled,
            List<ConsumeQueue> damaged, boolean rebuildIndex, QueueManifest manifest, boolean lastExitOk,
            CommitLogRecovery.Result recovered) {
        long min = commitLog.getMinOffset();
        long end = recovered.maxPhyOffset();
        long dispatchFrom = recovered.dispatchFrom();
        if (manifest == null && end > Math.max(0, min)) {
            dispatchFrom = Math.max(0, min);
        } else if (manifest != null && !lastExitOk) {
            // queues created after the manifest are not in it: dispatch again from where it was taken
            dispatchFrom = Math.min(dispatchFrom, Math.max(manifest.dispatchedOffset(), Math.max(0, min)));
        }
        if (damaged.isEmpty() && !rebuildIndex) {
            return new Outcome(dispatchFrom, 0, false, manifest == null && end > 0);
        }
        long started = System.nanoTime();
        Set<ConsumeQueue> fresh = Collections.newSetFromMap(new IdentityHashMap<>());
        List<String> names = new ArrayList<>();
        for (ConsumeQueue q : damaged) {
            fresh.add(queues.resetForRebuild(q));
            names.add(q.topic() + "-" + q.queueId());
        }
        if (rebuildIndex) {
            index.destroyAll();
        }
        ReputMessageService replay = new ReputMessageService(commitLog, 100);
        if (!fresh.isEmpty()) {
            replay.addDispatcher(request -> {
                ConsumeQueue q = queues.find(request.topic(), request.queueId());
                if (q != null && fresh.contains(q)) {
                    q.putUnit(request.consumeQueueOffset(), request.commitLogOffset(), request.msgSize(),
                            request.tagsCode());
                }
            });
        }
        if (rebuildIndex && indexEnabled) {
            replay.addDispatcher(index::buildIndex);
        }
        replay.setReputFromOffset(Math.max(0, min));
        replay.doReput();
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (!fresh.isEmpty()) {
            long units = fresh.stream().mapToLong(q -> q.getMaxOffsetInQueue() - q.getMinOffsetInQueue()).sum();
            log.warn("Rebuilt {} consume queue(s) whose files were missing or short from the commit log [{}, {}): {}"
                    + " unit(s) in {} ms: {}{}", fresh.size(), Math.max(0, min), end, units, millis,
                    names.stream().limit(NAMED_IN_LOG).collect(Collectors.joining(", ")),
                    names.size() > NAMED_IN_LOG ? " and " + (names.size() - NAMED_IN_LOG) + " more" : "");
        }
        if (rebuildIndex) {
            log.warn("Rebuilt the message index from the commit log [{}, {}) in {} ms; it now ends at offset {}",
                    Math.max(0, min), end, millis, index.lastStoredPhyOffset());
        }
        return new Outcome(dispatchFrom, fresh.size(), rebuildIndex, true);
    }
}
